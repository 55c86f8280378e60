#include "corpus/writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "corpus/sha256.h"
#include "corpus/zstd_io.h"

namespace nc::corpus {

namespace fs = std::filesystem;

void RenderedSuite::compress() {
  if (compressed.empty()) compressed = zstd_compress(text);
}

ManifestEntry RenderedSuite::entry() const {
  return ManifestEntry{name, name + ".vec.zst", records, compressed.size(), text.size(), sha256_hex(compressed), sha256_hex(text)};
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
      return Error{h.suite, 0, r.empty() ? "" : r.front(), "record has " + std::to_string(r.size()) + " fields, the suite has " + std::to_string(h.columns.size()) + " columns"};
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

Status write_file_atomic(const std::string& path, const std::string& bytes) {
  fs::path p(path);
  std::string tmp = (p.parent_path() / ("." + p.filename().string() + ".tmp")).string();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{tmp, 0, "", std::string("cannot create: ") + std::strerror(errno)};
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return Error{tmp, 0, "", "write failed: " + why};
    }
    done += static_cast<size_t>(n);
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

Status write_corpus(const std::string& dir, const std::vector<RenderedSuite>& suites, Manifest manifest) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir, 0, "", "cannot create directory: " + ec.message()};
  for (const auto& s : suites)
    if (s.compressed.empty()) return Error{s.name, 0, "", "internal: suite written before compress()"};
  std::vector<const RenderedSuite*> order;
  for (const auto& s : suites) order.push_back(&s);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->name < b->name; });
  // Stage: every new file under a temp name first; nothing visible changes until all exist.
  std::vector<std::pair<std::string, std::string>> staged;  // temp, final
  for (const RenderedSuite* s : order) {
    std::string final_path = (fs::path(dir) / (s->name + ".vec.zst")).string();
    std::string tmp = (fs::path(dir) / ("." + s->name + ".vec.zst.staged")).string();
    if (Status st = write_file_atomic(tmp, s->compressed)) {
      for (auto& [t, f] : staged) ::unlink(t.c_str());
      return st;
    }
    staged.emplace_back(tmp, final_path);
  }
  for (auto& [t, f] : staged)
    if (std::rename(t.c_str(), f.c_str()) != 0) return Error{f, 0, "", std::string("rename failed: ") + std::strerror(errno)};
  // Merge the manifest: new entries replace old ones of the same name; others are kept.
  std::vector<ManifestEntry> entries;
  for (const RenderedSuite* s : order) entries.push_back(s->entry());
  for (const auto& old : manifest.suites)
    if (std::none_of(order.begin(), order.end(), [&](auto* s) { return s->name == old.suite; })) entries.push_back(old);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.suite < b.suite; });
  manifest.suites = std::move(entries);
  return write_file_atomic((fs::path(dir) / kManifestName).string(), manifest_json(manifest));
}

}  // namespace nc::corpus
