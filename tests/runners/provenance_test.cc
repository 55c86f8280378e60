// Issue 17: what a verdict covers (runners/scope.h, --require), and which corpus it was made on
// (corpus/official.h): replay, certify and show tell the corpus this build ships from any other,
// including an edited copy whose files and manifest were re-hashed to pass verification.
#include <catch2/catch.hpp>

#include <filesystem>

#include "corpus/manifest.h"
#include "corpus/official.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"
#include "corpus_fixture.h"
#include "runners/certificate.h"
#include "runners/report.h"
#include "runners/scope.h"

using namespace nc::runners;
using namespace nc::runners::test;

namespace {
std::string cli() { return std::string("'") + NC_TEST_CLI + "'"; }
bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A copy of the shipped corpus with one decode.E2M1 expect (word 2: 1.0, spec 3.3) weakened to
// nan*, the suite re-compressed and its manifest entry re-hashed: it passes verification.
std::string forged_corpus() {
  const std::string dir = make_corpus();  // a fresh temporary directory, removed at exit
  namespace fs = std::filesystem;
  for (const char* fixture : {"decode.E4M3FN", "decode.W8G32_F16S.code", "validate.NVFP4.scale"})
    fs::remove(dir + "/" + fixture + ".vec.zst");
  for (const auto& e : fs::directory_iterator(NC_DEFAULT_CORPUS_DIR))
    fs::copy_file(e.path(), dir + "/" + e.path().filename().string(), fs::copy_options::overwrite_existing);
  const std::string file = dir + "/decode.E2M1.vec.zst";
  std::string text = *nc::corpus::zstd_decompress(read_text(file), file);
  const size_t at = text.find(" 2 3f800000 ");
  REQUIRE(at != std::string::npos);
  text.replace(at, 12, " 2 nan* ");
  const std::string z = nc::corpus::zstd_compress(text);
  write_text(file, z);
  auto m = nc::corpus::read_manifest(dir);
  REQUIRE(m);
  for (auto& e : m->suites)
    if (e.suite == "decode.E2M1") {
      e.compressed_bytes = z.size();
      e.compressed_sha256 = nc::corpus::sha256_hex(z);
      e.text_bytes = text.size();
      e.text_sha256 = nc::corpus::sha256_hex(text);
    }
  write_text(dir + "/MANIFEST.json", nc::corpus::manifest_json(*m));
  return dir;
}

SuiteResult suite(const std::string& name, Capability cap, size_t pass, size_t untested) {
  SuiteResult s;
  s.name = name;
  s.cap = cap;
  s.counts[size_t(Verdict::Pass)] = pass;
  s.counts[size_t(Verdict::Untested)] = untested;
  return s;
}
}  // namespace

TEST_CASE("a verdict names what it covers and what the target did not provide", "[scope]") {
  ReplayResult r;
  r.suites = {suite("decode.E2M1", Capability::Decode, 16, 0), suite("decode.BF16", Capability::Decode, 0, 65536),
              suite("convert.F32_TO_BF16_RNE", Capability::Convert, 0, 10750)};
  CHECK(r.conformant());
  CHECK(verdict_line(r, true) ==
        "CONFORMANT for decode.E2M1 (16 cases); not provided: decode.BF16, convert.F32_TO_BF16_RNE");
  const std::string json = report_json(r), junit = report_junit(r);
  CHECK(has(json, "\"verdict\": \"CONFORMANT for decode.E2M1 (16 cases); not provided:"));
  CHECK(has(json, "\"not_provided\": [\n      \"decode.BF16\",\n      \"convert.F32_TO_BF16_RNE\"\n    ]"));
  CHECK(has(junit, "<property name=\"verdict\" value=\"CONFORMANT for decode.E2M1 (16 cases); not provided:"));
  CHECK(has(certificate_markdown(r, {}, "t"), "| verdict | CONFORMANT for decode.E2M1 (16 cases); not provided:"));
  CHECK(has(certificate_json(r, {}, "t"), "\"judged\": [\n      \"decode.E2M1\"\n    ]"));

  // Partly provided, and everything.
  r.suites[1] = suite("decode.BF16", Capability::Decode, 60000, 5536);
  r.suites.pop_back();
  CHECK(verdict_line(r, true) ==
        "CONFORMANT for decode.E2M1, decode.BF16 (60016 cases); partly untested: decode.BF16 (5536 cases untested)");
  r.suites[1] = suite("decode.BF16", Capability::Decode, 65536, 0);
  CHECK(verdict_line(r, true) == "CONFORMANT for all 2 suites (65552 cases)");
}

TEST_CASE("a --require list makes a capability the target does not provide a failure", "[scope]") {
  ReplayResult r;
  r.suites = {suite("decode.E2M1", Capability::Decode, 16, 0), suite("decode.BF16", Capability::Decode, 0, 65536),
              suite("convert.F32_TO_BF16_RNE", Capability::Convert, 10750, 0)};
  r.required = {"decode.E2M1", "convert"};
  CHECK(r.conformant());
  r.required = {"decode"};
  CHECK_FALSE(r.conformant());
  CHECK(scope_of(r).unmet == std::vector<std::string>{"decode: not provided (untested cases in decode.BF16)"});
  CHECK(verdict_line(r, false) ==
        "NOT CONFORMANT: required decode: not provided (untested cases in decode.BF16); "
        "judged decode.E2M1, convert.F32_TO_BF16_RNE (10766 cases); not provided: decode.BF16");
  r.required = {"encode.*"};
  CHECK(scope_of(r).unmet == std::vector<std::string>{"encode.*: no selected suite matches"});
  r.required = {"all"};
  CHECK_FALSE(r.conformant());
  const std::string junit = report_junit(r);
  CHECK(has(junit, "tests=\"4\" failures=\"1\""));
  CHECK(has(junit, "<testcase classname=\"require\" name=\"all\">"));
}

TEST_CASE("replay --require on the CLI: exit 1 and the summary says what is missing", "[scope][cli]") {
  const std::string corpus = make_corpus();
  const std::string base = cli() + " replay --corpus " + corpus + " --target plugin:" + NC_TEST_PLUGIN_GOOD;
  // The test plugin decodes E4M3FN and W8 codes and validates nothing.
  CHECK(run_status(base + " --require decode >" + corpus + "/o.txt") == 0);
  CHECK(has(read_text(corpus + "/o.txt"),
            "CONFORMANT under policy nan-any for decode.E4M3FN, decode.W8G32_F16S.code (16 cases); not provided: "
            "validate.NVFP4.scale"));
  CHECK(run_status(base + " --require decode,validate >" + corpus + "/o.txt") == 1);
  CHECK(has(read_text(corpus + "/o.txt"), "required validate: not provided (untested cases in validate.NVFP4.scale)"));
  // A suite of the corpus outside --suite is a requirement not met; a name in no suite, a typo.
  CHECK(run_status(base + " --suite decode.E4M3FN --require validate.NVFP4.scale >" + corpus + "/o.txt") == 1);
  CHECK(has(read_text(corpus + "/o.txt"), "required validate.NVFP4.scale: no selected suite matches"));
  CHECK(run_status(base + " --require decod.E4M3FN 2>" + corpus + "/e.txt") == 2);
  CHECK(has(read_text(corpus + "/e.txt"),
            "--require 'decod.E4M3FN' names no suite of the corpus and no capability "
            "(all, decode, validate, "));
  CHECK(nc::runners::require_entry_names_something("validate-tensor", {}));
  CHECK(nc::runners::require_entry_names_something("decode.*", {"decode.E2M1"}));
  CHECK_FALSE(nc::runners::require_entry_names_something("decode.*", {"convert.F32_TO_BF16_RNE"}));
  CHECK_FALSE(nc::runners::require_entry_names_something("Decode", {"decode.E2M1"}));
}

TEST_CASE("the shipped corpus is official, any other manifest is MODIFIED", "[provenance]") {
  const std::string official = nc::corpus::manifest_sha256_of(NC_DEFAULT_CORPUS_DIR);
  REQUIRE_FALSE(official.empty());
  CHECK(nc::corpus::is_official(official));
  CHECK(nc::corpus::provenance(official).rfind("official 0.1.0 (manifest sha256 " + official, 0) == 0);
  const std::string fixture = nc::corpus::manifest_sha256_of(make_corpus());
  CHECK_FALSE(nc::corpus::is_official(fixture));
  CHECK(nc::corpus::provenance(fixture) == "MODIFIED (manifest sha256 " + fixture + ")");
  CHECK_FALSE(nc::corpus::is_official(""));
}

TEST_CASE("a forged corpus passes verification but replay, certify and show call it MODIFIED", "[provenance][cli]") {
  const std::string dir = forged_corpus();
  const std::string out = dir + "/out.txt", err = dir + "/err.txt";
  const std::string replay =
      cli() + " replay --target cpu --suite decode.E2M1 --json " + reports_dir(dir) + "/r.json --corpus ";
  // The official corpus, for contrast.
  CHECK(run_status(replay + NC_DEFAULT_CORPUS_DIR + " >" + out) == 0);
  CHECK(has(read_text(out), "\ncorpus: official 0.1.0 (manifest sha256 "));
  // The forgery verifies and is replayed (the cpu target's exact 1.0 now fails the nan* the edited
  // record demands), but is named MODIFIED.
  CHECK(run_status(replay + dir + " >" + out) == 1);
  CHECK(has(read_text(out), "\ncorpus: MODIFIED (manifest sha256 " + nc::corpus::manifest_sha256_of(dir) + ")"));
  CHECK(has(read_text(reports_dir(dir) + "/r.json"), "\"corpus_official\": false"));

  const std::string certify = cli() + " certify --target cpu --out " + reports_dir(dir) + "/cert --corpus " + dir;
  CHECK(run_status(certify + " >" + out + " 2>" + err) == 2);
  CHECK(has(read_text(err), "is not the official corpus"));
  CHECK_FALSE(std::filesystem::exists(reports_dir(dir) + "/cert/certificate.md"));
  CHECK(run_status(certify + " --allow-modified-corpus >" + out + " 2>" + err) == 1);
  CHECK(has(read_text(reports_dir(dir) + "/cert/certificate.md"), "| corpus | MODIFIED (manifest sha256 " +
                                                                      nc::corpus::manifest_sha256_of(dir) +
                                                                      "), certified with --allow-modified-corpus |"));
  CHECK(has(read_text(reports_dir(dir) + "/cert/certificate.json"), "\"corpus_official\": false"));

  CHECK(run_status(cli() + " show decode.E2M1 --corpus " + dir + " >" + out + " 2>" + err) == 0);
  CHECK(has(read_text(out), "corpus: MODIFIED (manifest sha256 "));
  CHECK(run_status(cli() + " show decode.E2M1 >" + out + " 2>" + err) == 0);
  CHECK(has(read_text(out), "corpus: official 0.1.0"));
}

TEST_CASE("show refuses a suite that does not match its manifest, unless --unverified", "[provenance][cli]") {
  const std::string dir = make_corpus();
  const std::string file = dir + "/decode.E4M3FN.vec.zst";
  // Replace the suite with an edited one without re-hashing the manifest.
  std::string text = *nc::corpus::zstd_decompress(read_text(file), file);
  const size_t at = text.find(" 3f800000 ");
  REQUIRE(at != std::string::npos);
  text.replace(at, 10, " 3f800001 ");
  write_text(file, nc::corpus::zstd_compress(text));
  const std::string show = cli() + " show decode.E4M3FN --corpus " + dir;
  CHECK(run_status(show + " >" + dir + "/o.txt 2>" + dir + "/e.txt") == 2);
  CHECK(has(read_text(dir + "/e.txt"), "decode.E4M3FN.vec.zst"));
  CHECK_FALSE(has(read_text(dir + "/o.txt"), "3f800001"));
  CHECK(run_status(show + " --unverified >" + dir + "/o.txt 2>" + dir + "/e.txt") == 0);
  CHECK(has(read_text(dir + "/o.txt"), "corpus: unverified"));
  CHECK(has(read_text(dir + "/o.txt"), "3f800001"));
}
