#include "corpus/installed_corpus.h"

#include <dlfcn.h>
#include <unistd.h>

#include <string>

namespace nc::corpus {
namespace {
std::string find_installed_corpus() {
  std::string self;
  Dl_info info{};
  // A shared object (the Python module) names itself; the main program is /proc/self/exe.
  if (dladdr(reinterpret_cast<void*>(&installed_corpus_dir), &info) && info.dli_fname &&
      std::string(info.dli_fname).find(".so") != std::string::npos)
    self = info.dli_fname;
  if (self.empty()) {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) self.assign(buf, size_t(n));
  }
  const std::string dir = self.substr(0, self.rfind('/') == std::string::npos ? 0 : self.rfind('/'));
  for (const char* candidate : {"/vectors", "/../vectors"})
    if (access((dir + candidate + "/MANIFEST.json").c_str(), R_OK) == 0) return dir + candidate;
  return "vectors";
}
}  // namespace

const char* installed_corpus_dir() {
  static const std::string dir = find_installed_corpus();
  return dir.c_str();
}
}  // namespace nc::corpus
