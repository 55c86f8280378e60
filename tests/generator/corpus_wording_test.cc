// The corpus's words must not say the opposite of its values (issue 13): a tag named after a rule
// must sit on records that expect that rule; no text may claim a check order that contradicts the
// rule precedence of vectors/FORMAT.md; a comment that names a quantized format names the suite's.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "corpus/manifest.h"
#include "corpus/reader.h"

using namespace nc::corpus;

namespace {

const std::string kDir = NC_DEFAULT_CORPUS_DIR;

std::vector<SuiteFile> all_suites() {
  static std::vector<SuiteFile> suites = [] {
    std::vector<SuiteFile> v;
    auto m = read_manifest(kDir);
    REQUIRE(m.ok());
    for (const auto& e : m->suites) {
      auto f = read_suite(kDir + "/" + e.file);
      REQUIRE(f.ok());
      v.push_back(std::move(*f));
    }
    return v;
  }();
  return suites;
}

// The rule of an expect field ("!scale-negative@s1" -> "scale-negative"), or "" when not a rejection.
std::string rule_of(const std::string& expect) {
  if (expect.empty() || expect[0] != '!') return "";
  return expect.substr(1, expect.find('@') == std::string::npos ? std::string::npos : expect.find('@') - 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

}  // namespace

TEST_CASE("corpus wording: a tag named after a rule is on records rejected by that rule", "[corpus][wording]") {
  // The word-level rules of vectors/FORMAT.md; in `validate FMT.COMP` suites each record breaks at
  // most one, so a rule-named tag on a rejected record must be the rule it expects.
  const std::set<std::string> rules{"code-illegal", "scale-negative", "scale-nonfinite", "divisor"};
  size_t checked = 0;
  for (const SuiteFile& f : all_suites()) {
    if (f.header.op_name() != "validate") continue;
    const int tags = f.header.column("tags"), expect = f.header.column("expect");
    for (const Record& r : f.records) {
      const std::string rule = rule_of(std::string(r.fields[expect]));
      if (rule.empty()) continue;
      for (const std::string& t : split(std::string(r.fields[tags]), ','))
        if (rules.count(t)) {
          INFO(f.header.suite << " " << r.id() << " tag " << t << " expects " << r.fields[expect]);
          CHECK(t == rule);
          ++checked;
        }
    }
  }
  CHECK(checked > 1000);  // the scale suites alone tag every non-finite and negative word
}

TEST_CASE("corpus wording: no text claims a check order the precedence table contradicts", "[corpus][wording]") {
  // vectors/FORMAT.md, "Rule precedence": shape, then divisor, then scales, then codes; within a
  // scale word the sign bit before non-finiteness. Read the sentence from the document so the test
  // and the document cannot drift apart.
  std::ifstream in(kDir + "/FORMAT.md");
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(doc.find("within one scale word the sign bit comes first") != std::string::npos);
  REQUIRE(doc.find("checked for `shape` first") != std::string::npos);
  // Claims that put a later item first.
  const std::regex wrong(
      "(non-?finiteness|nonfinite|non-finite|infinity|nan|codes?|scales?|divisor)( is| are)? checked (first|before "
      "(the )?(sign|shape|divisor|scale))",
      std::regex::icase);
  for (const SuiteFile& f : all_suites()) {
    for (const auto& [tag, text] : f.header.tags) {
      INFO(f.header.suite << " #tag " << tag << ": " << text);
      CHECK_FALSE(std::regex_search(text, wrong));
    }
    const int comment = f.header.column("comment");
    for (const Record& r : f.records) {
      INFO(f.header.suite << " " << r.id() << ": " << r.fields[comment]);
      CHECK_FALSE(std::regex_search(r.fields[comment].begin(), r.fields[comment].end(), wrong));
    }
  }
}

TEST_CASE("corpus wording: a comment naming a quantized format names the suite's format", "[corpus][wording]") {
  // Each quantized format with the names prose uses for it (spec 3.2 allows the abbreviations in
  // prose only).
  const std::vector<std::pair<std::string, std::regex>> formats{
      {"Q4G64_F16S", std::regex(R"(\bQ4(G64_F16S)?\b)")},
      {"Q5G64_F16S", std::regex(R"(\bQ5(G64_F16S)?\b)")},
      {"Q6G64_F16S", std::regex(R"(\bQ6(G64_F16S)?\b)")},
      {"W8G32_F16S", std::regex(R"(\bW8(G32_F16S)?\b)")},
      {"NVFP4", std::regex(R"(\bNVFP4\b)")},
      {"FP8_E4M3FN_ROW_BF16S", std::regex(R"(\bFP8(_E4M3FN_ROW_BF16S| row)\b)", std::regex::icase)},
  };
  size_t suites = 0;
  for (const SuiteFile& f : all_suites()) {
    // The suite's format: the part of the suite name after the op, before any ".COMP".
    const std::vector<std::string> parts = split(f.header.suite, '.');
    if (parts.size() < 2) continue;
    std::string own;
    for (const auto& [name, re] : formats)
      if (parts[1] == name) own = name;
    if (own.empty()) continue;
    ++suites;
    const int comment = f.header.column("comment");
    for (const Record& r : f.records)
      for (const auto& [name, re] : formats) {
        if (name == own) continue;
        INFO(f.header.suite << " " << r.id() << ": " << r.fields[comment]);
        CHECK_FALSE(std::regex_search(r.fields[comment].begin(), r.fields[comment].end(), re));
      }
  }
  CHECK(suites >= 30);
}
