#include "corpus/manifest.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "corpus/json_read.h"
#include "corpus/reader.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"

namespace nc::corpus {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

const ManifestEntry* Manifest::find(const std::string& suite) const {
  for (const auto& e : suites)
    if (e.suite == suite) return &e;
  return nullptr;
}

std::string manifest_json(const Manifest& m) {
  ordered_json j;
  j["schema"] = m.schema;
  j["generator_version"] = m.generator_version;
  ordered_json libs = ordered_json::object();
  for (const auto& [k, v] : m.libraries) libs[k] = v;
  j["oracle_libraries"] = libs;
  j["seed"] = m.seed;
  ordered_json suites = ordered_json::array();
  for (const auto& e : m.suites) {
    ordered_json s;
    s["suite"] = e.suite;
    s["file"] = e.file;
    s["records"] = e.records;
    s["compressed_bytes"] = e.compressed_bytes;
    s["compressed_sha256"] = e.compressed_sha256;
    s["text_bytes"] = e.text_bytes;
    s["text_sha256"] = e.text_sha256;
    suites.push_back(s);
  }
  j["suites"] = suites;
  return j.dump(2) + "\n";
}

Result<Manifest> parse_manifest(const std::string& text, const std::string& name) {
  Manifest m;
  try {
    const nlohmann::json j = parse_json_strict(text);
    const uint64_t schema = json_count(j, "schema");
    if (schema != uint64_t(kSchemaVersion)) return Error{name, 0, "", "unsupported schema " + std::to_string(schema)};
    m.schema = kSchemaVersion;
    m.generator_version = json_text(j, "generator_version");
    const nlohmann::json& libraries = json_object(j, "oracle_libraries");
    for (const auto& [k, v] : libraries.items()) m.libraries[k] = json_text(libraries, k);
    m.seed = json_text(j, "seed");
    for (const nlohmann::json& s : json_array(j, "suites")) {
      ManifestEntry e;
      e.suite = json_text(s, "suite");
      e.file = json_text(s, "file");
      e.records = json_count(s, "records");
      e.compressed_bytes = json_count(s, "compressed_bytes");
      e.compressed_sha256 = json_text(s, "compressed_sha256");
      e.text_bytes = json_count(s, "text_bytes");
      e.text_sha256 = json_text(s, "text_sha256");
      if (e.file != e.suite + ".vec.zst" || e.file.find('/') != std::string::npos)
        return Error{name, 0, "",
                     "suite `" + e.suite + "` has file `" + e.file + "` (expected " + e.suite + ".vec.zst)"};
      m.suites.push_back(std::move(e));
    }
  } catch (const JsonError& ex) {
    return Error{name, 0, "", std::string("bad manifest: ") + ex.what()};
  }
  for (size_t i = 1; i < m.suites.size(); ++i)
    if (!(m.suites[i - 1].suite < m.suites[i].suite))
      return Error{name, 0, "", "suites not sorted by name or duplicated at `" + m.suites[i].suite + "`"};
  return m;
}

Result<Manifest> read_manifest(const std::string& dir, std::string* sha256) {
  const std::string path = (fs::path(dir) / kManifestName).string();
  Result<std::string> text = read_file(path, kMaxManifestBytes);  // a regular file, or the reason it cannot be read
  if (!text) return text.error();
  if (sha256) *sha256 = sha256_hex(*text);
  Result<Manifest> m = parse_manifest(*text, path);
  if (m && m->suites.empty()) return Error{path, 0, "", "lists no suites (a corpus holds at least one)"};
  return m;
}

namespace {

// Present, listed size, and listed hash of the compressed bytes; "" or what is wrong.
std::string check_file(const std::string& path, const ManifestEntry& e) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return "missing (listed in the manifest, expected sha256 " + e.compressed_sha256 + ")";
  if (!fs::is_regular_file(st))
    return "not a regular file (listed in the manifest, expected sha256 " + e.compressed_sha256 + ")";
  uint64_t size = fs::file_size(path, ec);
  if (size != e.compressed_bytes)
    return "size " + std::to_string(size) + " bytes, manifest says " + std::to_string(e.compressed_bytes) +
           " (truncated or replaced? expected sha256 " + e.compressed_sha256 + ")";
  return {};
}

void flag_unlisted(const std::string& dir, const Manifest& m, std::vector<Error>& errors) {
  std::error_code ec;
  std::vector<std::string> unlisted;
  for (const auto& de : fs::directory_iterator(dir, ec)) {
    std::string fn = de.path().filename().string();
    if (fn.size() > 8 && fn.ends_with(".vec.zst") && !m.find(fn.substr(0, fn.size() - 8)))
      unlisted.push_back(de.path().string());
  }
  std::sort(unlisted.begin(), unlisted.end());
  for (const auto& u : unlisted) errors.push_back({u, 0, "", "suite file not listed in " + std::string(kManifestName)});
}

// A suite file whose compressed bytes are not the ones the manifest hashed.
Error tampered(const std::string& path, const std::string& sha, const ManifestEntry& e) {
  return Error{path, 0, "",
               "sha256 " + sha + " does not match the manifest (file tampered with? expected sha256 " +
                   e.compressed_sha256 + ")"};
}

}  // namespace

std::vector<Error> verify_files(const std::string& dir, const Manifest& m, std::vector<std::string>* contents,
                                unsigned threads) {
  if (contents) contents->assign(m.suites.size(), "");
  // Each file's problem in its own slot, so that the list comes out in manifest order whichever
  // thread read which file.
  std::vector<std::optional<Error>> problem(m.suites.size());
  auto verify = [&](size_t i) {
    const ManifestEntry& e = m.suites[i];
    std::string path = (fs::path(dir) / e.file).string();
    if (std::string why = check_file(path, e); !why.empty()) return void(problem[i] = Error{path, 0, "", why});
    Result<std::string> bytes = read_file(path);
    if (!bytes) return void(problem[i] = bytes.error());
    std::string sha = sha256_hex(*bytes);
    if (sha != e.compressed_sha256) problem[i] = tampered(path, sha, e);
    else if (contents) (*contents)[i] = std::move(*bytes);
  };
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < m.suites.size();) verify(i);
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < std::min<size_t>(std::max(1u, threads), m.suites.size()); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
  std::vector<Error> errors;
  for (std::optional<Error>& p : problem)
    if (p) errors.push_back(std::move(*p));
  flag_unlisted(dir, m, errors);
  return errors;
}

Status check_totals(const std::string& path, const ManifestEntry& e, const SuiteReader::Totals& t) {
  if (t.compressed_sha256 != e.compressed_sha256) return tampered(path, t.compressed_sha256, e);
  if ((!t.text_sha256.empty() && t.text_sha256 != e.text_sha256) || t.text_bytes != e.text_bytes)
    return Error{path, 0, "", "uncompressed sha256 " + t.text_sha256 + ", manifest expects " + e.text_sha256};
  if (t.records != e.records)
    return Error{path, 0, "",
                 "manifest declares " + std::to_string(e.records) + " records, found " + std::to_string(t.records)};
  return std::nullopt;
}

std::vector<Error> verify_corpus(const std::string& dir, const Manifest& m) {
  std::vector<Error> errors;
  for (const auto& e : m.suites) {
    std::string path = (fs::path(dir) / e.file).string();
    if (std::string why = check_file(path, e); !why.empty()) {
      errors.push_back({path, 0, "", why});
      continue;
    }
    // Streams the suite through the validating reader without keeping its records.
    auto reader = SuiteReader::open(path);
    Status bad;
    if (!reader) bad = reader.error();
    Record rec;
    while (!bad) {
      Result<bool> more = (*reader)->next(rec);
      if (!more) bad = more.error();
      else if (!*more) break;
    }
    if (bad) {
      bad->rule += " (expected sha256 " + e.compressed_sha256 + ")";
      errors.push_back(*bad);
    } else if (Status s = check_totals(path, e, (*reader)->totals())) {
      errors.push_back(*s);
    }
  }
  flag_unlisted(dir, m, errors);
  return errors;
}

}  // namespace nc::corpus
