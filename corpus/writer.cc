#include "corpus/writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus/sha256.h"
#include "corpus/zstd_io.h"

namespace nc::corpus {

namespace fs = std::filesystem;

void RenderedSuite::compress() {
  if (compressed.empty()) compressed = zstd_compress(text);
}

ManifestEntry RenderedSuite::entry() const {
  return ManifestEntry{name,        name + ".vec.zst",      records,         compressed.size(),
                       text.size(), sha256_hex(compressed), sha256_hex(text)};
}

namespace {

std::string join(const std::vector<std::string>& v, char sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

}  // namespace

Result<RenderedSuite> render_suite(SuiteHeader h, std::vector<std::vector<std::string>> records) {
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  std::sort(h.tags.begin(), h.tags.end());
  std::sort(h.policies.begin(), h.policies.end());
  h.records = records.size();
  std::string t;
  t += std::string(kMagic) + " " + std::to_string(kSchemaVersion) + "\n";
  t += "#suite " + h.suite + "\n";
  t += "#op " + h.op + "\n";
  t += "#about " + h.about + "\n";
  t += "#spec " + h.spec + "\n";
  t += "#columns " + join(h.columns, ' ') + "\n";
  for (const auto& [k, v] : h.tags) t += "#tag " + k + " " + v + "\n";
  for (const auto& [k, v] : h.policies) t += "#policy " + k + " " + v + "\n";
  t += "#records " + std::to_string(h.records) + "\n";
  for (const auto& r : records) {
    if (r.size() != h.columns.size())
      return Error{h.suite, 0, r.empty() ? "" : r.front(),
                   "record has " + std::to_string(r.size()) + " fields, the suite has " +
                       std::to_string(h.columns.size()) + " columns"};
    for (const auto& f : r)
      if (f.find('\n') != std::string::npos) return Error{h.suite, 0, r.front(), "field contains a newline"};
    t += join(r, ' ');
    t += '\n';
  }
  // Read it back: the reader's rules are the format's rules.
  Result<SuiteFile> back = read_suite_text(t, h.suite);
  if (!back) return back.error();
  RenderedSuite out;
  out.name = h.suite;
  out.records = h.records;
  out.text = std::move(t);
  return out;
}

bool write_all(int fd, const std::string& bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

namespace {

// The umask, read from /proc (umask() would have to set it to read it, which races with threads
// creating files); 022 where /proc does not say.
mode_t process_umask() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("Umask:")) return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

}  // namespace

Status write_file_atomic(const std::string& path, const std::string& bytes) {
  // The temporary is created by mkostemp: a name no other user can predict, made with O_CREAT|O_EXCL,
  // which never opens an existing file or follows a link planted in the folder (a `.NAME.tmp`
  // symlink to somebody else's file is left alone). It gets the mode a new file would get
  // (0666 less the umask), not mkstemp's 0600, then is renamed over `path`.
  fs::path p(path);
  std::string tmp = (p.parent_path() / ("." + p.filename().string() + ".XXXXXX")).string();
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return Error{tmp, 0, "", std::string("cannot create a temporary file: ") + std::strerror(errno)};
  if (::fchmod(fd, 0666 & ~process_umask()) != 0 || !write_all(fd, bytes)) {
    std::string why = std::strerror(errno);
    ::close(fd);
    ::unlink(tmp.c_str());
    return Error{tmp, 0, "", "write failed: " + why};
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Error{tmp, 0, "", "fsync/close failed: " + why};
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Error{path, 0, "", "rename failed: " + why};
  }
  return std::nullopt;
}

namespace {

// Test hook for tests/generator/interrupted_generate_test.sh: NC_TEST_KILL_AT=<step> kills the
// process with SIGKILL when the write reaches that step, as kill -9 or a power cut would.
// NC_TEST_PAUSE_AT=<step>:<file> creates <file> there and waits (at most a minute) until it is
// removed: tests/cli/hostile_env_test.sh writes into the corpus folder meanwhile, as another
// process may while generate runs.
void step(const char* name) {
  const char* at = std::getenv("NC_TEST_KILL_AT");
  if (at && std::strcmp(at, name) == 0) ::raise(SIGKILL);
  const char* pause = std::getenv("NC_TEST_PAUSE_AT");
  const size_t n = std::strlen(name);
  if (!pause || std::strncmp(pause, name, n) != 0 || pause[n] != ':') return;
  const char* file = pause + n + 1;
  const int fd = ::open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) ::close(fd);
  for (int i = 0; i < 6000 && ::access(file, F_OK) == 0; ++i) ::usleep(10000);
}

// Creates `path` (which must not exist) with `bytes`, on disk before it returns.
Status write_synced(const std::string& path, const std::string& bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Error{path, 0, "", std::string("cannot create: ") + std::strerror(errno)};
  if (!write_all(fd, bytes)) {
    std::string why = std::strerror(errno);
    ::close(fd);
    return Error{path, 0, "", "write failed: " + why};
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    return Error{path, 0, "", std::string("fsync/close failed: ") + std::strerror(errno)};
  return std::nullopt;
}

Status sync_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return Error{path, 0, "", "cannot sync: " + why};
  }
  ::close(fd);
  return std::nullopt;
}

Status sync_dir(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return Error{path, 0, "", "cannot sync the directory: " + why};
  }
  ::close(fd);
  return std::nullopt;
}

// An exclusive lock on the lock file beside the corpus (`.<name>.lock`), held until destruction:
// one writer per corpus at a time. The file, not the parent directory, is locked, so corpora that
// share a parent (two scratch corpora in /tmp) are written side by side; the corpus directory
// itself cannot carry the lock because the exchange below replaces it.
class CorpusLock {
 public:
  ~CorpusLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  Status acquire(const fs::path& lock_file, const fs::path& corpus) {
    fd_ = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0) return Error{lock_file.string(), 0, "", std::string("cannot open: ") + std::strerror(errno)};
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return std::nullopt;
    if (errno == EWOULDBLOCK)
      return Error{corpus.string(), 0, "",
                   "another process is writing this corpus (it holds " + lock_file.string() +
                       "); nothing was changed, run again when it has finished"};
    return Error{lock_file.string(), 0, "", std::string("cannot lock: ") + std::strerror(errno)};
  }

 private:
  int fd_ = -1;
};

}  // namespace

Status write_corpus(const std::string& dir, const std::vector<RenderedSuite>& suites, Manifest manifest,
                    bool drop_unlisted) {
  for (const auto& s : suites)
    if (s.compressed.empty()) return Error{s.name, 0, "", "internal: suite written before compress()"};
  std::error_code ec;
  // The real directory (a symlinked corpus is replaced behind its link, not the link itself).
  fs::path target = fs::absolute(dir, ec).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();
  if (fs::is_symlink(target, ec)) target = fs::canonical(target, ec);
  const fs::path parent = target.parent_path();
  fs::create_directories(parent, ec);
  if (ec) return Error{parent.string(), 0, "", "cannot create directory: " + ec.message()};
  CorpusLock lock;
  if (Status st = lock.acquire(parent / ("." + target.filename().string() + ".lock"), target)) return st;
  step("locked");
  // A partial run merges into the manifest as it is now, read under the lock: one read before the
  // lock (by the caller) would lose the entry another run wrote in between.
  if (!drop_unlisted)
    if (Result<Manifest> now = read_manifest(target.string())) manifest.suites = now->suites;
  // The new corpus is assembled in a staging directory beside the old one and swapped in with one
  // atomic exchange, so the folder is always the old corpus byte for byte or the complete new one.
  // Staging directories of interrupted runs are removed first (the lock says none is in use).
  const std::string prefix = "." + target.filename().string() + ".staging-";
  for (const auto& de : fs::directory_iterator(parent, ec))
    if (de.path().filename().string().starts_with(prefix)) fs::remove_all(de.path(), ec);
  const fs::path staging = parent / (prefix + std::to_string(::getpid()));
  if (!fs::create_directory(staging, ec))
    return Error{staging.string(), 0, "", "cannot create directory: " + ec.message()};
  auto fail = [&](Error e) {
    std::error_code ignore;
    fs::remove_all(staging, ignore);
    return e;
  };
  std::vector<const RenderedSuite*> order;
  for (const auto& s : suites) order.push_back(&s);
  // Whether a name in the corpus folder is generate's: the manifest, a suite this run writes, or
  // (drop_unlisted) any suite. Everything else is kept as it is.
  auto generates = [&](const std::string& name) {
    return name == kManifestName || (drop_unlisted && name.ends_with(".vec.zst")) ||
           std::any_of(order.begin(), order.end(), [&](auto* s) { return name == s->name + ".vec.zst"; });
  };
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->name < b->name; });
  const bool exists = fs::is_directory(target, ec);
  if (exists) {
    fs::permissions(staging, fs::status(target).permissions(), ec);
    // Keep what this run does not replace: other suites (unless dropped), FORMAT.md and the like.
    for (const auto& de : fs::directory_iterator(target, ec)) {
      const std::string name = de.path().filename().string();
      if (generates(name)) continue;
      if (de.is_regular_file() && !de.is_symlink()) {
        // Copied as it is, mode included, streamed (a huge foreign file is not read into memory),
        // and synced before the swap.
        std::error_code cec;
        fs::copy_file(de.path(), staging / name, fs::copy_options::none, cec);
        if (cec) return fail(Error{de.path().string(), 0, "", "cannot copy: " + cec.message()});
        if (Status st = sync_file((staging / name).string())) return fail(*st);
      } else {
        fs::copy(de.path(), staging / name, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
        if (ec) return fail(Error{de.path().string(), 0, "", "cannot copy: " + ec.message()});
      }
    }
    if (ec) return fail(Error{target.string(), 0, "", "cannot list: " + ec.message()});
  }
  step("copied");
  for (const RenderedSuite* s : order)
    if (Status st = write_synced((staging / (s->name + ".vec.zst")).string(), s->compressed)) return fail(*st);
  step("suites-written");
  // Merge the manifest: new entries replace old ones of the same name; others are kept.
  std::vector<ManifestEntry> entries;
  for (const RenderedSuite* s : order) entries.push_back(s->entry());
  for (const auto& old : manifest.suites)
    if (std::none_of(order.begin(), order.end(), [&](auto* s) { return s->name == old.suite; })) entries.push_back(old);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.suite < b.suite; });
  manifest.suites = std::move(entries);
  if (Status st = write_synced((staging / kManifestName).string(), manifest_json(manifest))) return fail(*st);
  if (Status st = sync_dir(staging.string())) return fail(*st);
  step("staged");
  if (exists) {
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0)
      return fail(Error{target.string(), 0, "",
                        std::string("cannot swap in the new corpus (atomic exchange): ") + std::strerror(errno) +
                            "; nothing was changed"});
    step("exchanged");
    // What another process wrote into the folder while this run copied and staged (a file created
    // or rewritten after the copy) is in the old folder, now at `staging`: each entry that is not
    // generate's goes back into the corpus as it is now, by rename (the same inode: bytes, mode,
    // and a writer that still holds it open keeps writing into it), exchanged with the copy where
    // there is one. Then the old folder is removed.
    std::vector<std::string> names;  // listed first: the loop moves them out of the folder
    for (const auto& de : fs::directory_iterator(staging, ec)) names.push_back(de.path().filename().string());
    for (const std::string& name : names) {
      if (generates(name)) continue;
      const fs::path was = staging / name, now = target / name;
      std::error_code xec;
      const bool copied = fs::exists(fs::symlink_status(now, xec));
      const int rc =
          ::renameat2(AT_FDCWD, was.c_str(), AT_FDCWD, now.c_str(), copied ? RENAME_EXCHANGE : RENAME_NOREPLACE);
      if (rc != 0)
        return Error{now.string(), 0, "",
                     std::string("cannot keep a file written during the run: ") + std::strerror(errno) +
                         " (the old corpus, with it, is in " + staging.string() + ")"};
    }
    if (ec) return Error{staging.string(), 0, "", "cannot list: " + ec.message() + " (the old corpus is kept there)"};
    fs::remove_all(staging, ec);  // now the old corpus, less what was kept
  } else if (std::rename(staging.c_str(), target.c_str()) != 0) {
    return fail(Error{target.string(), 0, "", std::string("rename failed: ") + std::strerror(errno)});
  }
  return sync_dir(parent.string());
}

}  // namespace nc::corpus
