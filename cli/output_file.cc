#include "cli/output_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "corpus/manifest.h"
#include "corpus/writer.h"
#include "runners/printable.h"

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

// Paths are printed escaped: a name holding a newline cannot forge a line of output.
std::string reason(const std::string& path, const std::string& why) { return runners::printable(path) + ": " + why; }

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

// Where a path that may not exist yet would be: its existing ancestors' links resolved.
fs::path where(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(resolved(path), ec), ec);
  return ec ? fs::absolute(path, ec).lexically_normal() : p;
}

// An existing file (a hard or symbolic link to one counts) that is one of the corpus folder's own.
bool same_file_in(const std::string& path, const fs::path& corpus) {
  struct stat out;
  if (stat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return false;
  std::error_code ec;
  for (const auto& de : fs::directory_iterator(corpus, ec)) {
    struct stat st;
    if (stat(de.path().c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino) return true;
  }
  return false;
}

// Whether `p` is `dir` or lies anywhere under it (both absolute, their links resolved by where()).
bool within(const fs::path& p, const fs::path& dir) {
  const fs::path rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

bool check_not_in_corpus(const std::string& path, const std::string& corpus, std::string* error, bool folder) {
  if (corpus.empty() || path.empty() || path == "-") return true;
  const fs::path dir = where(corpus), p = where(path);
  // Nothing a command writes goes inside the corpus folder it reads: not the manifest or a suite
  // (replaced under the reader), nor a report beside them (the folder is the corpus: lint, generate
  // and scripts/corpus-changes see what is in it), nor the folder itself or a folder in it
  // (certify --out). A link to a file of the corpus counts as that file.
  (void)folder;
  if (within(p, dir) || same_file_in(path, dir))
    return *error =
               reason(path, "is inside the corpus being read (" + runners::printable(corpus) + "); write it elsewhere"),
           false;
  return true;
}

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

bool check_outputs(std::initializer_list<const std::string*> outputs, std::string* error, const std::string& corpus) {
  int dashes = 0;
  std::vector<std::pair<fs::path, const std::string*>> files;
  for (const std::string* p : outputs) {
    dashes += *p == "-";
    if (p->empty() || *p == "-") continue;
    if (!check_not_in_corpus(*p, corpus, error) || !check_output(*p, error)) return false;
    // Two reports into one file would leave only the second. A device (/dev/null) may take both.
    struct stat st;
    if (stat(p->c_str(), &st) == 0 && !S_ISREG(st.st_mode)) continue;
    const fs::path at = where(*p);
    for (const auto& [other_at, other] : files)
      if (other_at == at)
        return *error = reason(
                   *p, "names the same file as " + runners::printable(*other) + "; each report needs its own file"),
               false;
    files.emplace_back(at, p);
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
    if (!corpus::write_all(g_report_fd, bytes))
      return *error = std::string("standard output: ") + std::strerror(errno), false;
    return true;
  }
  const std::string target = resolved(path);
  struct stat st;
  if (stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return *error = reason(path, "is a folder"), false;
    const int fd = open(target.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    const bool ok = fd >= 0 && corpus::write_all(fd, bytes);
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    if (!ok) return *error = reason(path, why), false;
    return true;
  }
  if (corpus::Status s = corpus::write_file_atomic(target, bytes)) return *error = s->message(), false;
  return true;
}

namespace {

bool sync_path(const std::string& path, int flags) {
  const int fd = open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = fsync(fd) == 0;
  close(fd);
  return ok;
}

// Creates `path` (new) with `bytes`, mode as a new file gets, on disk before it returns.
bool create_synced(const std::string& path, const std::string& bytes, mode_t mode, std::string* error) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return *error = reason(path, std::string("cannot create: ") + std::strerror(errno)), false;
  const bool ok = corpus::write_all(fd, bytes) && fsync(fd) == 0;
  const std::string why = std::strerror(errno);
  if (close(fd) != 0 || !ok) return *error = reason(path, "write failed: " + why), false;
  return true;
}

// What else the folder holds may be carried into the staged copy: at most this many bytes.
constexpr uintmax_t kCarriedBytes = uintmax_t(64) << 20;

}  // namespace

bool check_unit_destination(const std::string& dir, const std::vector<std::string>& names, std::string* error) {
  for (const std::string& n : names) {
    const std::string p = (fs::path(dir) / n).string();
    struct stat st;
    if (lstat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      return *error = reason(p, "exists and is not a regular file; remove it first (nothing was written)"), false;
  }
  return true;
}

bool write_files_as_unit(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                         std::string* error) {
  std::error_code ec;
  fs::path target = fs::absolute(dir, ec).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();
  if (fs::is_symlink(target, ec)) target = fs::canonical(target, ec);
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.first);
  if (!check_unit_destination(target.string(), names, error)) return false;
  const fs::path parent = target.parent_path();
  fs::create_directories(parent, ec);
  // The staged folder: a fresh name (mkdtemp) beside the destination.
  std::string tmpl = (parent / ("." + target.filename().string() + ".staging-XXXXXX")).string();
  if (!mkdtemp(tmpl.data())) return *error = reason(tmpl, std::string("cannot create: ") + std::strerror(errno)), false;
  const fs::path staging = tmpl;
  auto fail = [&](const std::string& why) {
    std::error_code ignore;
    fs::remove_all(staging, ignore);
    return *error = why, false;
  };
  const mode_t mode = 0666;  // less the umask, which open() applies
  struct stat tst;
  const bool exists = lstat(target.c_str(), &tst) == 0;
  if (exists && !S_ISDIR(tst.st_mode)) return fail(reason(target.string(), "is not a folder"));
  // Whether the folder can be swapped whole: whatever else it holds is carried into the staged
  // copy, which only a small folder of ours allows. A big or shared one (--out . or /tmp) has the
  // new files renamed into place one after another instead, all written before the first rename.
  bool swap = !exists;
  if (exists) {
    uintmax_t carried = 0;
    bool small = tst.st_uid == geteuid() && !(tst.st_mode & S_ISVTX);
    for (auto it = fs::recursive_directory_iterator(target, ec);
         small && !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec)) carried += it->file_size(ec);
      small = carried <= kCarriedBytes && it.depth() < 4;
    }
    swap = small && !ec;
  }
  if (swap && exists) {
    chmod(staging.c_str(), tst.st_mode & 07777);
    for (const auto& de : fs::directory_iterator(target, ec)) {
      const std::string name = de.path().filename().string();
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      fs::copy(de.path(), staging / name, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
      if (ec) return fail(reason(de.path().string(), "cannot copy into the staged folder: " + ec.message()));
    }
  } else if (!swap) {
    chmod(staging.c_str(), 0700);
  }
  for (const auto& [name, bytes] : files)
    if (!create_synced((staging / name).string(), bytes, mode, error)) return fail(*error);
  if (!sync_path(staging.string(), O_RDONLY | O_DIRECTORY)) return fail(reason(staging.string(), "cannot sync"));
  if (!exists) {
    if (std::rename(staging.c_str(), target.c_str()) != 0)
      return fail(
          reason(target.string(), std::string("cannot move the staged folder into place: ") + std::strerror(errno)));
  } else if (swap) {
    if (renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0)
      return fail(reason(target.string(), std::string("cannot swap in the staged folder: ") + std::strerror(errno)));
    fs::remove_all(staging, ec);  // now the old folder
  } else {
    for (const auto& [name, bytes] : files)
      if (std::rename((staging / name).c_str(), (target / name).c_str()) != 0)
        return fail(reason((target / name).string(), std::string("rename failed: ") + std::strerror(errno)));
    fs::remove_all(staging, ec);
  }
  sync_path(parent.string(), O_RDONLY | O_DIRECTORY);
  return true;
}

}  // namespace nc::cli
