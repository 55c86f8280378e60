#include "cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "corpus/writer.h"

namespace nc::cli {
namespace {

namespace fs = std::filesystem;

int g_report_fd = 1;  // where "-" goes: standard output as the command found it

// A symlink's final target, which may not exist yet (so not fs::canonical); any other path as given.
std::string resolved(const std::string& path) {
  fs::path p = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p.string();
}

std::string reason(const std::string& path, const std::string& why) { return path + ": " + why; }

bool writable_folder(const std::string& shown, const fs::path& folder, std::string* error) {
  const std::string dir = folder.empty() ? std::string(".") : folder.string();
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) return *error = reason(shown, "folder " + dir + ": " + std::strerror(errno)), false;
  if (!S_ISDIR(st.st_mode)) return *error = reason(shown, dir + " is not a folder"), false;
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return *error = reason(shown, "folder " + dir + ": " + std::strerror(errno)), false;
  return true;
}

// One report path: "-", an existing writable non-regular file, or a file in a writable folder.
bool check_output(const std::string& path, std::string* error) {
  if (path == "-") return true;
  const std::string target = resolved(path);
  struct stat st;
  if (stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return *error = reason(path, "is a folder"), false;
    if (!S_ISREG(st.st_mode)) {
      if (access(target.c_str(), W_OK) != 0) return *error = reason(path, std::strerror(errno)), false;
      return true;
    }
  }
  return writable_folder(path, fs::path(target).parent_path(), error);  // the rename needs the folder
}

}  // namespace

bool check_output_folder(const std::string& dir, std::string* error) {
  // The folder, or the nearest ancestor that exists: the rest is created.
  fs::path p = fs::path(dir).lexically_normal();
  struct stat st;
  while (!p.empty() && stat(p.c_str(), &st) != 0 && errno == ENOENT)
    p = p.has_relative_path() ? p.parent_path() : fs::path();  // "" is the current folder; "/" stops
  if (!p.empty() && stat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    return *error = reason(dir, p.string() + " is not a folder"), false;
  return writable_folder(dir, p, error);
}

bool check_outputs(std::initializer_list<const std::string*> outputs, std::string* error) {
  int dashes = 0;
  for (const std::string* p : outputs) {
    dashes += *p == "-";
    if (!p->empty() && !check_output(*p, error)) return false;
  }
  if (dashes > 1) return *error = "only one report can go to standard output (-)", false;
  if (dashes == 0 || g_report_fd != 1) return true;
  std::fflush(stdout);
  g_report_fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (g_report_fd < 0 || dup2(2, 1) < 0) return *error = std::string("standard output: ") + std::strerror(errno), false;
  return true;
}

bool write_output(const std::string& path, const std::string& bytes, std::string* error) {
  if (path == "-") {
    if (!corpus::write_all(g_report_fd, bytes)) return *error = std::string("standard output: ") + std::strerror(errno), false;
    return true;
  }
  const std::string target = resolved(path);
  struct stat st;
  if (stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return *error = reason(path, "is a folder"), false;
    const int fd = open(target.c_str(), O_WRONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && corpus::write_all(fd, bytes);
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    if (!ok) return *error = reason(path, why), false;
    return true;
  }
  if (corpus::Status s = corpus::write_file_atomic(target, bytes)) return *error = s->message(), false;
  return true;
}

}  // namespace nc::cli
