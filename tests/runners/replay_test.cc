// Whole replays of the hand-made corpus against plugins and pipe adapters built for the purpose:
// each broken target is reported for what it did, and the runner goes on to the next suite.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "corpus/manifest.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"
#include "corpus_fixture.h"
#include "runners/certificate.h"
#include "runners/replay.h"
#include "runners/report.h"
#include "runners/scope.h"
#include "runners/tokens.h"
#include "runners/sweep/sweep_target.h"
#include "runners/target_factory.h"

using namespace nc::runners;
using namespace nc::runners::test;

namespace {

ReplayResult run(const std::string& spec, const std::string& corpus, double timeout_s = 10,
                 const std::string& tag = "") {
  TargetOptions to;
  to.timeout_s = timeout_s;
  to.plugin_host = NC_TEST_CLI;
  std::string why;
  auto t = make_target(spec, to, &why);
  REQUIRE(t);
  ReplayOptions o;
  o.corpus_dir = corpus;
  o.tag = tag;
  ReplayResult r;
  const bool ok = replay(*t, o, &r, &why);
  INFO(why);
  REQUIRE(ok);
  REQUIRE(r.suites.size() == 3);
  return r;
}

size_t count(const SuiteResult& s, Verdict v) { return s.counts[size_t(v)]; }

// The second suite (W8 codes) must be fully judged whatever happened to the first.
void check_w8_suite_passes(const ReplayResult& r) {
  const SuiteResult& w8 = r.suites[1];
  CHECK(w8.name == "decode.W8G32_F16S.code");
  CHECK(count(w8, Verdict::Pass) == 5);
  CHECK(count(w8, Verdict::ExpectedRejection) == 1);
  CHECK(w8.failed() == 0);
  CHECK(w8.target_problem.empty());
}

}  // namespace

TEST_CASE("a correct plugin passes, with policies and untested capabilities reported", "[replay]") {
  const std::string corpus = make_corpus();
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_GOOD, corpus);
  CHECK(r.target_name == "runner-test-plugin");
  CHECK(r.target_version == "good");
  const SuiteResult& e4 = r.suites[0];
  CHECK(count(e4, Verdict::Pass) == 9);
  CHECK(count(e4, Verdict::PassUnderPolicy) == 1);              // ff -> ffc00000 where the record names 7fc00000
  CHECK(e4.policies_used == std::set<std::string>{"nan-any"});  // the sign differs: nan-payload does not hold
  check_w8_suite_passes(r);
  CHECK(count(r.suites[2], Verdict::Untested) == 2);  // validate is not provided: untested, not passed
  CHECK(r.conformant());
  auto caps = capability_verdicts(r, {});
  CHECK(caps[size_t(Capability::Decode)].verdict == "conformant under policy nan-any");
  CHECK(caps[size_t(Capability::Validate)].verdict == "untested");
}

TEST_CASE("one wrong bit in E4M3FN decode is one failure, named and measured", "[replay]") {
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_WRONG_BIT, make_corpus());
  CHECK(r.target_name == "codec-wrong-bit");
  const SuiteResult& e4 = r.suites[0];
  REQUIRE(e4.failures.size() == 1);
  const CaseResult& f = e4.failures[0];
  CHECK(f.inputs == "word=38");
  CHECK(f.expect == "3f800000");
  CHECK(f.actual == "3f800001");
  REQUIRE(f.ulp);
  CHECK(*f.ulp == 1);
  CHECK(count(e4, Verdict::Pass) + count(e4, Verdict::PassUnderPolicy) == 9);
  check_w8_suite_passes(r);
  CHECK(count(r.suites[2], Verdict::Pass) + count(r.suites[2], Verdict::ExpectedRejection) ==
        2);  // the codec validates
  CHECK_FALSE(r.conformant());
}

TEST_CASE("a crashing plugin costs its suite, not the run", "[replay]") {
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_CRASH, make_corpus());
  const SuiteResult& e4 = r.suites[0];
  INFO(e4.target_problem);
  CHECK(e4.target_problem.find("Abort") != std::string::npos);
  CHECK(e4.target_problem.find("decode.E4M3FN:") != std::string::npos);  // names the request's first case
  CHECK(count(e4, Verdict::TargetError) == 10);
  check_w8_suite_passes(r);
  CHECK_FALSE(r.conformant());
}

TEST_CASE("a hanging plugin is timed out and the next suite runs", "[replay]") {
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_HANG, make_corpus(), 1);
  const SuiteResult& e4 = r.suites[0];
  INFO(e4.target_problem);
  CHECK(e4.target_problem.find("hang") != std::string::npos);
  CHECK(e4.target_problem.find("decode.E4M3FN:") != std::string::npos);
  check_w8_suite_passes(r);
}

TEST_CASE("a lying pipe adapter (wrong token count) is caught", "[replay]") {
  ReplayResult r = run(std::string("pipe:") + NC_TEST_LYING_ADAPTER, make_corpus());
  const SuiteResult& e4 = r.suites[0];
  INFO(e4.target_problem);
  CHECK(e4.target_problem.find("wrong token count: sent 10 elements, got 1") != std::string::npos);
  CHECK(r.suites[1].target_problem.find("wrong token count") != std::string::npos);
  CHECK_FALSE(r.conformant());
}

TEST_CASE("the Python example adapter passes the decode suites", "[replay]") {
  ReplayResult r = run(std::string("pipe:python3 ") + NC_TEST_PY_ADAPTER, make_corpus());
  CHECK(r.target_name == "python-example-adapter");
  CHECK(r.suites[0].failed() == 0);
  CHECK(count(r.suites[0], Verdict::Pass) + count(r.suites[0], Verdict::PassUnderPolicy) == 10);
  check_w8_suite_passes(r);
  CHECK(count(r.suites[2], Verdict::Untested) == 2);
  CHECK(r.conformant());
}

TEST_CASE("a tampered or truncated suite file fails manifest verification, naming it", "[replay]") {
  const std::string corpus = make_corpus();
  const std::string file = corpus + "/decode.W8G32_F16S.code.vec.zst";
  std::string bytes = read_text(file);
  std::string sha, why;
  std::vector<nc::corpus::ManifestEntry> entries;
  REQUIRE(verify_manifest(corpus, &sha, &entries, &why));
  CHECK(entries.size() == 3);
  SECTION("one flipped byte") { bytes[bytes.size() / 2] ^= 0x20; }
  SECTION("truncated") { bytes.resize(bytes.size() - 3); }
  write_text(file, bytes);
  CHECK_FALSE(verify_manifest(corpus, &sha, &entries, &why));
  CHECK(why.find("decode.W8G32_F16S.code.vec.zst") != std::string::npos);
  INFO(why);
  CHECK(why.find("expected") != std::string::npos);
}

TEST_CASE("JSON and JUnit reports are well-formed and list the failures", "[report]") {
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_WRONG_BIT, make_corpus());
  auto j = nlohmann::json::parse(report_json(r));
  CHECK(j["conformant"] == false);
  CHECK(j["suites"][0]["failures"][0]["actual"] == "3f800001");
  CHECK(j["suites"][0]["counts"]["fail"] == 1);
  const std::string dir = make_corpus();
  write_text(dir + "/junit.xml", report_junit(r));
  // An independent XML parser checks well-formedness and the one-testcase-per-suite shape.
  CHECK(run_status("python3 -c \"import sys,xml.etree.ElementTree as E; t=E.parse(sys.argv[1]).getroot(); "
                   "c=t.findall('.//testcase'); f=t.findall('.//failure'); s=t.findall('.//skipped'); "
                   "sys.exit(0 if (len(c),len(f),len(s))==(3,1,0) else 1)\" " +
                   dir + "/junit.xml") == 0);
}

TEST_CASE("certificates are deterministic apart from generated_at", "[certify]") {
  const std::string corpus = make_corpus();
  ReplayResult a = run(std::string("plugin:") + NC_TEST_PLUGIN_WRONG_BIT, corpus);
  ReplayResult b = run(std::string("plugin:") + NC_TEST_PLUGIN_WRONG_BIT, corpus);
  CHECK(certificate_json(a, {}, "T") == certificate_json(b, {}, "T"));
  CHECK(certificate_markdown(a, {}, "T") == certificate_markdown(b, {}, "T"));
  CHECK(certificate_json(a, {}, "T") != certificate_json(a, {}, "U"));
  auto j = nlohmann::json::parse(certificate_json(a, {}, "T"));
  CHECK(j["target"]["name"] == "codec-wrong-bit");
  CHECK(j["capabilities"][0]["verdict"] == "not conformant");
  CHECK(j["suites"][0]["failures"].size() == 1);
}

TEST_CASE("a certificate may list fewer failures; each suite's count and failing-ID digest stay", "[certify]") {
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_WRONG_BIT, make_corpus());
  auto all = nlohmann::json::parse(certificate_json(r, {}, "T"));
  auto none = nlohmann::json::parse(certificate_json(r, {}, "T", 0));
  const auto& e4 = all["suites"][0];
  REQUIRE(e4["failures"].size() == 1);
  CHECK(e4["failures_total"] == 1);
  // The digest of one failing ID is the SHA-256 of that ID and a newline; of none, SHA-256("").
  const std::string id = e4["failures"][0]["id"];
  CHECK(e4["failing_ids_sha256"] == nc::corpus::sha256_hex(id + "\n"));
  CHECK(all["suites"][1]["failing_ids_sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(none["suites"][0]["failures"].empty());
  CHECK(none["suites"][0]["failures_total"] == 1);
  CHECK(none["suites"][0]["failing_ids_sha256"] == e4["failing_ids_sha256"]);
  CHECK(certificate_json(r, {}, "T", 1) == certificate_json(r, {}, "T"));
  const std::string md = certificate_markdown(r, {}, "T", 0);
  CHECK(md.find("Counted but not listed: 1 failures (certificate.json lists at most 0 a suite") != std::string::npos);
  CHECK(certificate_markdown(r, {}, "T").find("Counted but not listed") == std::string::npos);
}

TEST_CASE("replay selects records by tag and suites by glob", "[replay]") {
  const std::string corpus = make_corpus();
  ReplayResult r = run(std::string("plugin:") + NC_TEST_PLUGIN_GOOD, corpus, 10, "max-normal");
  CHECK(r.suites[0].total() == 2);  // 7e and fe carry max-normal
  CHECK(r.suites[1].total() == 0);
  TargetOptions to;
  to.plugin_host = NC_TEST_CLI;
  std::string why;
  auto t = make_target(std::string("plugin:") + NC_TEST_PLUGIN_GOOD, to, &why);
  ReplayOptions o;
  o.corpus_dir = corpus;
  o.suite_glob = "decode.W8*";
  ReplayResult w8;
  REQUIRE(replay(*t, o, &w8, &why));
  REQUIRE(w8.suites.size() == 1);
  CHECK(w8.suites[0].name == "decode.W8G32_F16S.code");
}

namespace {
std::vector<nc::sweep::Outcome> sweep_plugin(const std::string& plugin, const std::vector<std::string>& domains,
                                             double timeout_s = 10) {
  std::vector<nc::sweep::Outcome> out;
  std::string why;
  nc::sweep::Options o;
  o.jobs = 2;
  const bool ok = nc::sweep::sweep_target("plugin:" + plugin, domains, o, timeout_s, &out, &why);
  INFO(why);
  REQUIRE(ok);
  REQUIRE(out.size() == domains.size());
  return out;
}
}  // namespace

// certify --sweep: the sweeps are part of the verdict. The wrong-bit plugin's one wrong word (E4M3FN
// 0x38, 1.0, decodes one ulp high) must be found by the sweep over every E4M3FN word and make the
// certificate not conformant even beside a clean replay.
TEST_CASE("certificates carry the sweeps: coverage, findings, not-provided domains", "[certify]") {
  const std::string corpus = make_corpus();
  ReplayResult good = run(std::string("plugin:") + NC_TEST_PLUGIN_GOOD, corpus);
  auto clean = sweep_plugin(NC_TEST_PLUGIN_GOOD, {"decode.E4M3FN", "convert.F32_TO_BF16_RNE"});
  CHECK(sweep_provided(clean[0]));
  CHECK(sweep_clean(clean[0]));
  CHECK(!sweep_provided(clean[1]));  // the test plugin converts nothing
  CHECK(certified_conformant(good, clean));
  std::string md = certificate_markdown(good, clean, "T");
  CHECK(md.find("| decode.E4M3FN | 256 | every input | 0 | - | 0 |") != std::string::npos);
  CHECK(md.find("Not provided (the target declined every input): convert.F32_TO_BF16_RNE.") != std::string::npos);

  auto wrong = sweep_plugin(NC_TEST_PLUGIN_WRONG_BIT, {"decode.E4M3FN"});
  REQUIRE(wrong[0].report);
  CHECK(wrong[0].report->tally.class_counts ==
        std::vector<std::pair<std::string, uint64_t>>{{"word:off-by-one-ulp", 1}});
  CHECK(!certified_conformant(good, wrong));  // a clean replay does not outweigh a sweep finding
  auto caps = capability_verdicts(good, wrong);
  CHECK(caps[size_t(Capability::Decode)].verdict == "not conformant");
  CHECK(certificate_markdown(good, wrong, "T")
            .find("- decode.E4M3FN: word:off-by-one-ulp 1; first: input `38`, "
                  "expected `3f800000`, actual `3f800001`") != std::string::npos);
  auto j = nlohmann::json::parse(certificate_json(good, wrong, "T"));
  CHECK(j["conformant"] == false);
  CHECK(j["sweeps"][0]["classes"]["word:off-by-one-ulp"] == 1);
  CHECK(j["sweeps"][0]["first"][0]["input"][0] == "38");

  auto crashed = sweep_plugin(NC_TEST_PLUGIN_CRASH, {"decode.E4M3FN"});
  CHECK(!crashed[0].report);
  CHECK(crashed[0].failure.find("crashed") != std::string::npos);
  CHECK(!certified_conformant(good, crashed));
}

// A plugin swept in its forked child whose call never returns: the runner kills the child once
// the timeout has passed with the call still running, reports the hang for that domain, and sweeps
// the next domain (whose calls return).
TEST_CASE("a hanging plugin's sweep is timed out and the next domain is swept", "[sweep]") {
  const auto start = std::chrono::steady_clock::now();
  auto hung = sweep_plugin(NC_TEST_PLUGIN_HANG, {"decode.E4M3FN", "decode.W8G32_F16S.code"}, 1);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(!hung[0].report);
  CHECK_THAT(hung[0].failure, Catch::StartsWith("the target hangs: a call had not returned 1 s after"));
  REQUIRE(hung[1].report);  // the plugin decodes W8 codes without hanging
  CHECK(hung[1].report->tally.covered == 256);
  CHECK(sweep_clean(hung[1]));
  CHECK(took < 60);  // the hang was ended by the 1 s timeout, not by ctest's
}

// Issue 17 item 3: a corpus whose word is not 2 lowercase hex digits, with its id and manifest
// re-hashed so that nothing but the field's syntax is wrong, is a corpus error for lint and replay,
// naming file, line, case id and column.
TEST_CASE("lint and replay refuse a re-hashed record whose word has the wrong width", "[replay][schema]") {
  char tmpl[] = "/tmp/nc-schema-test-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string suite = "validate.NVFP4.scale", word = "8";  // an E4M3FN scale word is 2 digits
  const std::string id = suite + ":" + nc::corpus::sha256_hex(suite + "\n" + word).substr(0, 12);
  const std::string text =
      "#ninfer-conform-vectors 1\n#suite " + suite +
      "\n#op validate NVFP4.scale\n#about t\n#spec 3.3\n#columns id word expect accept tags comment\n"
      "#records 1\n" +
      id + " " + word + " valid - - one digit\n";
  const std::string zst = nc::corpus::zstd_compress(text);
  write_text(dir + "/" + suite + ".vec.zst", zst);
  nc::corpus::Manifest m;
  m.schema = 1;
  m.generator_version = "t";
  m.seed = "0x0";
  m.suites.push_back({suite, suite + ".vec.zst", 1, zst.size(), text.size(), nc::corpus::sha256_hex(zst),
                      nc::corpus::sha256_hex(text)});
  write_text(dir + "/MANIFEST.json", nc::corpus::manifest_json(m));
  const std::string where = suite + ".vec.zst:8: case " + id + ": column `word`: `8` is not 2 lowercase hex digits";

  TargetOptions to;
  std::string why;
  auto t = make_target("cpu", to, &why);
  REQUIRE(t);
  ReplayOptions o;
  o.corpus_dir = dir;
  ReplayResult r;
  CHECK_FALSE(replay(*t, o, &r, &why));
  CHECK_THAT(why, Catch::Contains(where));
  const std::string out = dir + "/lint.txt";
  CHECK(run_status(std::string(NC_TEST_CLI) + " lint --corpus " + dir + " > " + out + " 2>&1") == 2);
  CHECK_THAT(read_text(out), Catch::Contains(where));
  std::filesystem::remove_all(dir);
}

// --jobs N: suites run on N workers, each with its own target process; the result (every count,
// failure, diagnosis, in manifest order) is the same as with one worker.
TEST_CASE("replay --jobs gives the same result as one worker", "[replay][jobs]") {
  const std::string corpus = make_corpus();
  TargetOptions to;
  to.plugin_host = NC_TEST_CLI;
  const std::string spec = std::string("plugin:") + NC_TEST_PLUGIN_WRONG_BIT;
  auto run_jobs = [&](unsigned jobs) {
    std::string why;
    auto t = make_target(spec, to, &why);
    REQUIRE(t);
    ReplayOptions o;
    o.corpus_dir = corpus;
    o.jobs = jobs;
    o.make_target = [&] { return make_target(spec, to, &why); };
    ReplayResult r;
    INFO(why);
    REQUIRE(replay(*t, o, &r, &why));
    return r;
  };
  const ReplayResult one = run_jobs(1);
  REQUIRE(one.suites.size() == 3);
  CHECK(!one.conformant());  // the wrong-bit plugin fails a case, so failures are compared too
  for (unsigned jobs : {2u, 3u, 8u}) CHECK(report_json(run_jobs(jobs)) == report_json(one));
}

TEST_CASE("judged tags count every judged case's tags, however the lists repeat", "[replay]") {
  // Counted independently: every record of the suite, its tag list split by hand. decode.BF16's
  // records meet their tag lists in id (hash) order, so the lists alternate from record to record.
  const std::string path = std::string(NC_DEFAULT_CORPUS_DIR) + "/decode.BF16.vec.zst";
  nc::corpus::Result<nc::corpus::SuiteFile> file = nc::corpus::read_suite(path);
  REQUIRE(file.ok());
  const int tags_col = file->header.column("tags");
  std::map<std::string, size_t> expected;
  size_t changes = 0;
  std::string_view previous;
  for (const nc::corpus::Record& rec : file->records) {
    const std::string_view list = rec.fields[size_t(tags_col)];
    changes += list != previous;
    previous = list;
    if (list == "-") continue;
    size_t start = 0;
    for (size_t comma; (comma = list.find(',', start)) != std::string_view::npos; start = comma + 1)
      ++expected[std::string(list.substr(start, comma - start))];
    ++expected[std::string(list.substr(start))];
  }
  REQUIRE(changes > file->records.size() / 4);

  std::string why;
  auto target = make_target("cpu", TargetOptions{}, &why);
  REQUIRE(target);
  REQUIRE(target->start(&why));
  auto reader = nc::corpus::SuiteReader::open(path, nc::corpus::SuiteReader::TextHash::Skip);
  REQUIRE(reader.ok());
  ReplayOptions o;
  SuiteResult res;
  REQUIRE(replay_suite(*target, **reader, o, &res, &why));
  CHECK(res.counts[size_t(Verdict::Untested)] == 0);
  CHECK(res.judged_tags == expected);
}

namespace {
// A BF16 converter with a hand-written answer per input (make_nan_corpus's records): exact where
// the comment says, and departing from the recipe's NaN in one way each elsewhere.
class NanTarget : public Target {
 public:
  bool start(std::string*) override { return true; }
  Response call(const Request& r) override {
    static const std::map<std::string, std::string> kAnswer = {
        {"3f800000", "3f80"},  // exact
        {"7fc00000", "7fc0"},  // exact
        {"ffc00000", "7fc0"},  // the NaN sign dropped: only nan-any allows it
        {"ff812345", "ffc0"},  // the payload dropped, the sign kept: nan-payload
        {"7fa00000", "7fa0"},  // kept signalling (quiet bit clear), payload and sign kept: nan-payload
        {"7f800001", "7f81"},  // kept signalling; a signalling NaN needs a payload bit: nan-payload
    };
    Response resp;
    resp.line = "ok";
    for (std::string_view in : split(std::string_view(r.elements).substr(1), ' '))
      resp.line += " " + kAnswer.at(std::string(in));
    resp.index_tokens();
    return resp;
  }
  std::string name() const override { return "nan-target"; }
  std::string version() const override { return "1"; }
};
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("passes under a policy: qualified verdicts everywhere, the returned words, the departure profile",
          "[replay][policy]") {
  NanTarget t;
  ReplayOptions o;
  o.corpus_dir = make_nan_corpus();
  ReplayResult r;
  std::string why;
  REQUIRE(replay(t, o, &r, &why));
  REQUIRE(r.suites.size() == 1);
  const SuiteResult& s = r.suites[0];
  CHECK(count(s, Verdict::Pass) == 2);
  CHECK(count(s, Verdict::PassUnderPolicy) == 4);
  CHECK(s.failed() == 0);
  // The latitude split: only the sign-dropping case needed nan-any; the others kept the sign.
  CHECK(s.policies_used == std::set<std::string>{"nan-any", "nan-payload"});
  REQUIRE(s.policy_passes.size() == 4);
  std::map<std::string, std::pair<std::string, std::string>> by_input;  // inputs -> (policy, actual)
  for (const CaseResult& c : s.policy_passes) by_input[c.inputs] = {c.policy, c.actual};
  CHECK(by_input["src=ffc00000"] == std::pair<std::string, std::string>{"nan-any", "7fc0"});
  CHECK(by_input["src=ff812345"] == std::pair<std::string, std::string>{"nan-payload", "ffc0"});
  CHECK(by_input["src=7fa00000"] == std::pair<std::string, std::string>{"nan-payload", "7fa0"});
  CHECK(by_input["src=7f800001"] == std::pair<std::string, std::string>{"nan-payload", "7f81"});
  const auto d = s.departures();
  CHECK(d == std::vector<std::pair<std::string, uint64_t>>{
                 {"NaN sign dropped", 1}, {"signalling NaN kept signalling", 2}, {"NaN payload dropped", 1}});
  CHECK(departure_profile(d) == "signalling NaN kept signalling (2), NaN sign dropped (1), NaN payload dropped (1)");

  // Conformant (exit 0) but never plainly: every summary carries the qualifier.
  CHECK(r.conformant());
  const std::string q = "under policies nan-any, nan-payload";
  // The fixture corpus is not the official one, which every verdict line and certificate says.
  const std::string modified = " (on a MODIFIED corpus, manifest sha256 " + r.manifest_sha256 + ")";
  CHECK(verdict_line(r, true) == "CONFORMANT " + q + " for convert.F32_TO_BF16_RNE (6 cases)" + modified);
  const nlohmann::json json = nlohmann::json::parse(report_json(r));
  CHECK(json["overall"] == "conformant " + q);
  CHECK(json["verdict"] == "CONFORMANT " + q + " for convert.F32_TO_BF16_RNE (6 cases)" + modified);
  CHECK(json["suites"][0]["policy_passes"].size() == 4);
  CHECK(json["suites"][0]["departure_profile"] == departure_profile(d));
  const std::string junit = report_junit(r);
  CHECK(has(junit, "<property name=\"overall\" value=\"conformant " + q + "\"/>"));
  CHECK(has(junit, "<system-out>4 cases passed " + q + ": signalling NaN kept signalling (2)"));
  const std::string md = certificate_markdown(r, {}, "t", 2);
  CHECK(has(md, "| overall | conformant " + q + " (MODIFIED corpus) |"));
  CHECK(has(md, "| verdict | CONFORMANT " + q + " for"));
  CHECK(has(md, "- convert.F32_TO_BF16_RNE: 4 under policy nan-any, nan-payload; signalling NaN kept signalling (2)"));
  CHECK(has(md, "actual `7fc0` (NaN sign dropped)"));
  CHECK(has(md, "Counted but not listed: 2 (certificate.json lists at most 2 a suite"));
  const nlohmann::json cert = nlohmann::json::parse(certificate_json(r, {}, "t", 2));
  CHECK(cert["conformant"] == true);
  CHECK(cert["overall"] == "conformant " + q + " (MODIFIED corpus)");
  CHECK(cert["capabilities"][size_t(Capability::Convert)]["verdict"] == "conformant " + q);
  const auto& js = cert["suites"][0];
  CHECK(js["policy_passes_total"] == 4);
  CHECK(js["policy_passes"].size() == 2);  // capped like failures
  // The digest pins all four IDs in record (ID) order.
  std::vector<std::string> ids;
  for (const CaseResult& c : s.policy_passes) ids.push_back(c.id);
  std::sort(ids.begin(), ids.end());
  std::string joined;
  for (const std::string& id : ids) joined += id + "\n";
  CHECK(js["policy_pass_ids_sha256"] == nc::corpus::sha256_hex(joined));
  CHECK(js["departures"]["NaN sign dropped"] == 1);
}
