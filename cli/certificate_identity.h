// What binds a certificate to the run that made it (issue 35): an `identity` member added to
// certificate.json (tool version and build id, corpus manifest hash, target kind with the SHA-256
// of the plugin .so or adapter script, the name and version the target reports, the library
// versions and configuration it reports to `info 1` as KEY -> VALUE, command line, environment
// summary), and certificate.sha256, the digest of the certificate's other files in
// `sha256sum` format, which `ninfer-conform verify DIR` (and `sha256sum -c`) checks. The digest
// makes an edit detectable only against a digest kept elsewhere or signed: see
// docs/certifications/README.md for detached signatures with `ssh-keygen -Y sign`.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nc::cli {

// certificate.json with the identity member added (the JSON is re-serialised with 2-space indent).
std::string with_identity(const std::string& certificate_json, const std::string& target_spec, int argc, char** argv,
                          const std::string& command);

// The certificate.sha256 text over `files` (name, bytes), one "HASH  NAME" line each.
std::string digest_file(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace nc::cli
