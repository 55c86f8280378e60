// The commands end to end: exit codes, report files, certificate files.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "corpus_fixture.h"

using namespace nc::runners::test;

namespace {
std::string cli() { return std::string("'") + NC_TEST_CLI + "'"; }
std::string quiet() { return " >/dev/null 2>&1"; }
// The certificate with its generated_at line removed.
std::string without_timestamp(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    if (line.find("generated_at") == std::string::npos) out += line + "\n";
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}
}  // namespace

TEST_CASE("replay exit codes: 0 conformant, 1 not, 2 usage or corpus error", "[cli]") {
  const std::string corpus = make_corpus();
  const std::string base = cli() + " replay --corpus " + corpus + " --target ";
  CHECK(run_status(base + "plugin:" + NC_TEST_PLUGIN_GOOD + quiet()) == 0);
  CHECK(run_status(base + "plugin:" + NC_TEST_PLUGIN_WRONG_BIT + quiet()) == 1);
  CHECK(run_status(base + "no-such-target" + quiet()) == 2);
  CHECK(run_status(cli() + " replay --corpus " + corpus + quiet()) == 2);  // no --target
  CHECK(run_status(base + "plugin:" + NC_TEST_PLUGIN_GOOD + " --suite 'nothing.*'" + quiet()) == 2);
  std::string f = corpus + "/decode.E4M3FN.vec.zst";
  write_text(f, read_text(f).substr(1));
  CHECK(run_status(base + "plugin:" + NC_TEST_PLUGIN_GOOD + quiet()) == 2);
}

TEST_CASE("replay prints failures capped by --max-failures and writes reports", "[cli]") {
  const std::string corpus = make_corpus();
  const std::string out = corpus + "/out.txt";
  CHECK(run_status(cli() + " replay --corpus " + corpus + " --target plugin:" + NC_TEST_PLUGIN_WRONG_BIT +
                   " --max-failures 0 --json " + reports_dir(corpus) + "/r.json --junit " + reports_dir(corpus) +
                   "/r.xml >" + out) == 1);
  const std::string text = read_text(out);
  CHECK(text.find("1 more failures not shown") != std::string::npos);
  CHECK(text.find("NOT CONFORMANT") != std::string::npos);
  CHECK(read_text(reports_dir(corpus) + "/r.json").find("3f800001") != std::string::npos);
  CHECK(read_text(reports_dir(corpus) + "/r.xml").find("<testsuites") != std::string::npos);
  CHECK(run_status(cli() + " replay --corpus " + corpus + " --target plugin:" + NC_TEST_PLUGIN_WRONG_BIT + " >" +
                   out) == 1);
  CHECK(read_text(out).find("actual   3f800001 (0x1.000002p+0), 1 ulp") != std::string::npos);
}

TEST_CASE("certify writes the same certificate twice, timestamp aside", "[cli][certify]") {
  const std::string corpus = make_corpus();
  // The fixture is not the official corpus: certify refuses it unless told.
  for (const char* d : {"/c1", "/c2"})
    CHECK(run_status(cli() + " certify --allow-modified-corpus --corpus " + corpus + " --target 'pipe:python3 " +
                     NC_TEST_PY_ADAPTER + "' --out " + reports_dir(corpus) + d + quiet()) == 0);
  for (const char* f : {"/certificate.md", "/certificate.json"}) {
    const std::string a = read_text(reports_dir(corpus) + "/c1" + f), b = read_text(reports_dir(corpus) + "/c2" + f);
    CHECK_FALSE(a.empty());
    CHECK(without_timestamp(a) == without_timestamp(b));
  }
  CHECK(read_text(reports_dir(corpus) + "/c1/certificate.md").find("python-example-adapter") != std::string::npos);
}

TEST_CASE("report paths: checked before the replay, '-' is standard output, symlinks and FIFOs are kept", "[cli]") {
  const std::string corpus = make_corpus();
  const std::string base = cli() + " replay --corpus " + corpus + " --target plugin:" + NC_TEST_PLUGIN_GOOD;
  const std::string err = corpus + "/err.txt";
  // A report that cannot be written is a usage error before any suite is replayed.
  const std::string outside = reports_dir(corpus);  // a report inside the corpus is refused before these checks
  CHECK(run_status(base + " --json " + outside + "/no-such-folder/r.json >" + corpus + "/out.txt 2>" + err) == 2);
  CHECK_THAT(read_text(err),
             Catch::Contains("no-such-folder/r.json: folder " + outside + "/no-such-folder: No such file"));
  CHECK(read_text(corpus + "/out.txt").empty());
  CHECK(run_status(base + " --junit " + outside + " 2>" + err) == 2);
  CHECK_THAT(read_text(err), Catch::Contains(outside + ": is a folder"));
  CHECK(run_status(base + " --json - --junit -" + quiet()) == 2);
  // Folders a command creates are created with their parents; one under a file is refused first.
  CHECK(run_status(cli() + " certify --corpus " + corpus + " --target plugin:" + NC_TEST_PLUGIN_GOOD +
                   " --allow-modified-corpus --out " + reports_dir(corpus) + "/deep/er" + quiet()) == 0);
  CHECK_THAT(read_text(reports_dir(corpus) + "/deep/er/certificate.md"), Catch::Contains("target"));
  CHECK(run_status(cli() + " generate --suite decode.E2M1 --out " + corpus + "/out.txt/x 2>" + err) == 2);
  CHECK_THAT(read_text(err), Catch::Contains("out.txt/x: Not a directory"));

  // "-": the report alone on standard output, the summary on standard error.
  CHECK(run_status(base + " --json - >" + corpus + "/stdout.json 2>" + err) == 0);
  const std::string json = read_text(corpus + "/stdout.json");
  CHECK_FALSE(nlohmann::json::parse(json, nullptr, false).is_discarded());
  CHECK_THAT(read_text(err), Catch::Contains("passed, 0 failed"));

  const std::string rep = reports_dir(corpus);  // outside the corpus: no report goes in it
  // A symlink keeps pointing at the new report; a FIFO gets it in place (was replaced by a file).
  REQUIRE(run_status("ln -s target.xml " + rep + "/link.xml && mkfifo " + rep + "/fifo.json") == 0);
  CHECK(run_status(base + " --junit " + rep + "/link.xml" + quiet()) == 0);
  CHECK(run_status("test -L " + rep + "/link.xml") == 0);
  CHECK_THAT(read_text(rep + "/target.xml"), Catch::StartsWith("<?xml"));
  CHECK(run_status("(cat " + rep + "/fifo.json > " + rep + "/from-fifo.json &) && " + base + " --json " + rep +
                   "/fifo.json" + quiet() + " && sleep 0.2") == 0);
  CHECK(run_status("test -p " + rep + "/fifo.json") == 0);
  CHECK(read_text(rep + "/from-fifo.json") == json);
}

TEST_CASE("arguments: --opt=value, a single-valued option twice, a value that is an option, a tag nobody declares",
          "[cli]") {
  const std::string corpus = make_corpus();
  const std::string err = corpus + "/err.txt";
  const std::string base = cli() + " replay --corpus " + corpus;
  CHECK(run_status(base + " --target=plugin:" + NC_TEST_PLUGIN_GOOD + " --suite=decode.E4M3FN" + quiet()) == 0);
  CHECK(run_status(base + " --target cpu --target plugin:x.so 2>" + err) == 2);
  CHECK_THAT(read_text(err), Catch::Contains("--target given twice"));
  CHECK(run_status(base + " --target cpu --json --junit j.xml 2>" + err) == 2);
  CHECK_THAT(read_text(err), Catch::Contains("--json needs a value (found the option --junit)"));
  CHECK(run_status(base + " --target plugin:" + NC_TEST_PLUGIN_GOOD + " --tag no-such-tag 2>" + err) == 2);
  CHECK_THAT(read_text(err), Catch::Contains("no selected suite declares the tag 'no-such-tag'"));
  CHECK(run_status(cli() + " certify --corpus " + corpus + " --target cpu --out " + corpus + "/c --stride 7 2>" +
                   err) == 2);
  CHECK_THAT(read_text(err), Catch::Contains("--stride samples the --sweep domains; there are none"));
  CHECK(run_status(cli() + " --version >" + err) == 0);
  CHECK_THAT(read_text(err), Catch::StartsWith("ninfer-conform ") && Catch::Contains("manifest sha256"));
}

TEST_CASE("replay --suite takes comma lists and repeats, and untested suites share one summary line", "[cli]") {
  const std::string corpus = make_corpus();
  const std::string base = cli() + " replay --quiet --corpus " + corpus + " --target plugin:" + NC_TEST_PLUGIN_GOOD;
  const std::string out = corpus + "/s.txt";
  CHECK(run_status(base + " --suite decode.E4M3FN,validate.NVFP4.scale >" + out) == 0);
  std::string text = read_text(out);
  CHECK(text.find("decode.E4M3FN:") != std::string::npos);
  CHECK(text.find("decode.W8G32_F16S.code") == std::string::npos);  // not selected
  // validate is not provided: one line, not a line per suite.
  CHECK(text.find("untested 1 suite not provided by the target (2 cases): validate.NVFP4.scale") != std::string::npos);
  CHECK(run_status(base + " --suite decode.E4M3FN --suite 'decode.W8*' >" + out) == 0);
  text = read_text(out);
  CHECK(text.find("decode.E4M3FN:") != std::string::npos);
  CHECK(text.find("decode.W8G32_F16S.code:") != std::string::npos);
  CHECK(text.find("validate.NVFP4.scale") == std::string::npos);
  CHECK(run_status(base + " --suite , >" + out + " 2>&1") == 2);
}
