// A small hand-written suite (ids computed independently with `printf 't.demo\n01' | sha256sum`)
// and a scratch directory for file tests.
#pragma once

#include <string>

namespace nc::corpus::test {

// Three records of suite t.demo, canonical. Lines: 1-9 header, 10-12 records.
std::string demo_text();
// A fresh empty directory under the system temp dir, removed by the destructor.
struct ScratchDir {
  ScratchDir();
  ~ScratchDir();
  std::string path;
  std::string file(const std::string& name) const { return path + "/" + name; }
};
std::string read_bytes(const std::string& path);
void write_bytes(const std::string& path, const std::string& bytes);

}  // namespace nc::corpus::test
