#include "corpus/manifest.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <optional>
#include <stdexcept>
#include <thread>

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

namespace {
// A non-negative integer field. nlohmann's get<> converts a float or a negative number without a
// word (and an out-of-range float with undefined behaviour: found by tests/fuzz), so check first.
uint64_t count_field(const ordered_json& object, const char* key) {
  const ordered_json& v = object.at(key);
  if (!v.is_number_unsigned()) throw std::invalid_argument(std::string("`") + key + "` is not a non-negative integer");
  return v.get<uint64_t>();
}
}  // namespace

Result<Manifest> parse_manifest(const std::string& text, const std::string& name) {
  ordered_json j = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{name, 0, "", "not valid JSON"};
  Manifest m;
  try {
    const uint64_t schema = count_field(j, "schema");
    if (schema != uint64_t(kSchemaVersion)) return Error{name, 0, "", "unsupported schema " + std::to_string(schema)};
    m.schema = kSchemaVersion;
    m.generator_version = j.at("generator_version").get<std::string>();
    for (const auto& [k, v] : j.at("oracle_libraries").items()) m.libraries[k] = v.get<std::string>();
    m.seed = j.at("seed").get<std::string>();
    for (const auto& s : j.at("suites")) {
      ManifestEntry e;
      e.suite = s.at("suite").get<std::string>();
      e.file = s.at("file").get<std::string>();
      e.records = count_field(s, "records");
      e.compressed_bytes = count_field(s, "compressed_bytes");
      e.compressed_sha256 = s.at("compressed_sha256").get<std::string>();
      e.text_bytes = count_field(s, "text_bytes");
      e.text_sha256 = s.at("text_sha256").get<std::string>();
      if (e.file != e.suite + ".vec.zst" || e.file.find('/') != std::string::npos)
        return Error{name, 0, "", "suite `" + e.suite + "` has file `" + e.file + "` (expected " + e.suite + ".vec.zst)"};
      m.suites.push_back(std::move(e));
    }
  } catch (const ordered_json::exception& ex) {
    // nlohmann reports a missing key or a wrong type by exception; turn it into a value.
    return Error{name, 0, "", std::string("bad manifest structure: ") + ex.what()};
  } catch (const std::invalid_argument& ex) {
    return Error{name, 0, "", std::string("bad manifest structure: ") + ex.what()};
  }
  for (size_t i = 1; i < m.suites.size(); ++i)
    if (!(m.suites[i - 1].suite < m.suites[i].suite))
      return Error{name, 0, "", "suites not sorted by name or duplicated at `" + m.suites[i].suite + "`"};
  return m;
}

Result<Manifest> read_manifest(const std::string& dir) {
  std::string path = (fs::path(dir) / kManifestName).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, 0, "", "cannot open the manifest"};
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_manifest(ss.str(), path);
}

namespace {

// Present, listed size, and listed hash of the compressed bytes; "" or what is wrong.
std::string check_file(const std::string& path, const ManifestEntry& e) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return "missing (listed in the manifest, expected sha256 " + e.compressed_sha256 + ")";
  if (!fs::is_regular_file(st)) return "not a regular file (listed in the manifest, expected sha256 " + e.compressed_sha256 + ")";
  uint64_t size = fs::file_size(path, ec);
  if (size != e.compressed_bytes)
    return "size " + std::to_string(size) + " bytes, manifest says " + std::to_string(e.compressed_bytes) + " (truncated or replaced? expected sha256 " + e.compressed_sha256 + ")";
  return {};
}

void flag_unlisted(const std::string& dir, const Manifest& m, std::vector<Error>& errors) {
  std::error_code ec;
  std::vector<std::string> unlisted;
  for (const auto& de : fs::directory_iterator(dir, ec)) {
    std::string fn = de.path().filename().string();
    if (fn.size() > 8 && fn.ends_with(".vec.zst") && !m.find(fn.substr(0, fn.size() - 8))) unlisted.push_back(de.path().string());
  }
  std::sort(unlisted.begin(), unlisted.end());
  for (const auto& u : unlisted) errors.push_back({u, 0, "", "suite file not listed in " + std::string(kManifestName)});
}

// A suite file whose compressed bytes are not the ones the manifest hashed.
Error tampered(const std::string& path, const std::string& sha, const ManifestEntry& e) {
  return Error{path, 0, "", "sha256 " + sha + " does not match the manifest (file tampered with? expected sha256 " + e.compressed_sha256 + ")"};
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
    return Error{path, 0, "", "manifest declares " + std::to_string(e.records) + " records, found " + std::to_string(t.records)};
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
