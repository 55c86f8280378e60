// The official corpus: the one this source tree ships in vectors/, known to the binary by the
// SHA-256 of its MANIFEST.json (hashed when the build is configured; a regenerated corpus
// reconfigures the build). Any other manifest, an edited corpus re-hashed to look consistent
// included, is a modified corpus, and replay, certify and show say so.
#pragma once

#include <string>

namespace nc::corpus {

// This build's project version, e.g. "0.1.0".
const char* project_version();
// Lowercase hex SHA-256 of the shipped vectors/MANIFEST.json ("" if the tree had none).
const char* official_manifest_sha256();
bool is_official(const std::string& manifest_sha256);
// "official 0.1.0 (manifest sha256 <hex>)" (the project version) or "MODIFIED (manifest sha256 <hex>)".
std::string provenance(const std::string& manifest_sha256);
// The SHA-256 of <dir>/MANIFEST.json's bytes, or "" when it cannot be read.
std::string manifest_sha256_of(const std::string& dir);

}  // namespace nc::corpus
