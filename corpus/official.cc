#include "corpus/official.h"

#include <fstream>
#include <sstream>

#include "corpus/manifest.h"
#include "corpus/sha256.h"

namespace nc::corpus {

// NC_OFFICIAL_MANIFEST_SHA256 and NC_PROJECT_VERSION come from corpus/CMakeLists.txt.
const char* project_version() { return NC_PROJECT_VERSION; }

const char* official_manifest_sha256() { return NC_OFFICIAL_MANIFEST_SHA256; }

bool is_official(const std::string& manifest_sha256) {
  return !manifest_sha256.empty() && manifest_sha256 == official_manifest_sha256();
}

std::string provenance(const std::string& manifest_sha256) {
  if (is_official(manifest_sha256))
    return std::string("official ") + NC_PROJECT_VERSION + " (manifest sha256 " + manifest_sha256 + ")";
  return "MODIFIED (manifest sha256 " + manifest_sha256 + ")";
}

std::string manifest_sha256_of(const std::string& dir) {
  // Through the one manifest reader: never a FIFO, a device or an oversized file.
  std::string sha;
  return read_manifest(dir, &sha) ? sha : std::string();
}

}  // namespace nc::corpus
