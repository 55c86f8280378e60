#include "corpus/lint.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus/manifest.h"
#include "corpus/reader.h"
#include "corpus/tag_truth.h"
#include "corpus/writer.h"
#include "corpus/zstd_io.h"

namespace nc::corpus {

size_t first_differing_line(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  size_t line = 1;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return line;
    if (a[i] == '\n') ++line;
  }
  return line;
}

LintReport lint_corpus(const std::string& dir) {
  LintReport rep;
  Result<Manifest> m = read_manifest(dir);
  if (!m) {
    rep.errors.push_back(m.error());
    return rep;
  }
  rep.errors = verify_corpus(dir, *m);
  for (const auto& e : m->suites) {
    std::string path = (std::filesystem::path(dir) / e.file).string();
    bool already_bad = false;
    for (const auto& err : rep.errors) already_bad = already_bad || err.file == path;
    if (already_bad) continue;  // verify_corpus has said what is wrong with it
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    Result<std::string> text = zstd_decompress(ss.str(), path);
    if (!text) {
      rep.errors.push_back(text.error());
      continue;
    }
    Result<SuiteFile> f = read_suite_text(*text, path);
    if (!f) {
      rep.errors.push_back(f.error());
      continue;
    }
    ++rep.suites;
    rep.records += f->records.size();
    // Canonical form: the text must be exactly the rendering of its own records.
    std::vector<std::vector<std::string>> recs;
    recs.reserve(f->records.size());
    for (const Record& r : f->records) recs.emplace_back(r.fields.begin(), r.fields.end());
    Result<RenderedSuite> again = render_suite(f->header, std::move(recs));
    if (!again) {
      rep.errors.push_back(again.error());
      continue;
    }
    if (size_t line = first_differing_line(*text, again->text))
      rep.errors.push_back({path, line, "", "not in canonical form (see vectors/FORMAT.md)"});
    // Tags must be true where their property is checkable (corpus/tag_truth.h).
    for (Error& e : check_tag_truth(*f, path)) rep.errors.push_back(std::move(e));
  }
  return rep;
}

}  // namespace nc::corpus
