#include "generator/check.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus/lint.h"
#include "corpus/manifest.h"
#include "corpus/reader.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"

namespace nc::gen {

using corpus::Error;

namespace {

// The id on line `line` of `text`, or "".
std::string id_on_line(const std::string& text, size_t line) {
  size_t pos = 0;
  for (size_t l = 1; l < line && pos != std::string::npos; ++l) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos || pos >= text.size() || text[pos] == '#') return "";
  return text.substr(pos, text.find(' ', pos) - pos);
}

}  // namespace

std::vector<Error> check_corpus(const std::string& dir, const std::vector<corpus::RenderedSuite>& fresh, bool all) {
  std::vector<Error> errors;
  auto manifest = corpus::read_manifest(dir);
  if (!manifest) return {manifest.error()};
  // The committed files must first match their own manifest.
  for (auto& e : corpus::verify_corpus(dir, *manifest)) errors.push_back(e);
  if (!errors.empty()) return errors;
  for (const auto& s : fresh) {
    std::string path = (std::filesystem::path(dir) / (s.name + ".vec.zst")).string();
    const corpus::ManifestEntry* e = manifest->find(s.name);
    if (!e) {
      errors.push_back(
          {path, 0, "", "generated suite is not in the committed manifest (run `ninfer-conform generate`)"});
      continue;
    }
    // Uncompressed text only: compressed bytes may differ between zstd versions.
    if (corpus::sha256_hex(s.text) == e->text_sha256) continue;
    std::string old_text;
    {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      auto t = corpus::zstd_decompress(ss.str(), path);
      if (t) old_text = *t;
    }
    size_t line = corpus::first_differing_line(old_text, s.text);
    std::string id = id_on_line(s.text, line);
    if (id.empty()) id = id_on_line(old_text, line);
    errors.push_back({path, line, id,
                      "differs from the regenerated suite (committed " + std::to_string(e->records) +
                          " records, regenerated " + std::to_string(s.records) + ")"});
  }
  if (all) {
    for (const auto& e : manifest->suites) {
      bool found = false;
      for (const auto& s : fresh) found = found || s.name == e.suite;
      if (!found)
        errors.push_back(
            {(std::filesystem::path(dir) / e.file).string(), 0, "", "committed suite is no longer generated"});
    }
  }
  return errors;
}

}  // namespace nc::gen
