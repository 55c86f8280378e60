// Hostile targets (issue 17): a plugin printing answer lines to its own stdout, adapters that
// answer twice or before being asked, and targets writing terminal escape sequences. None may hang
// the runner, be judged on answers nobody asked for, or reach the terminal raw. Each run is wrapped
// in `timeout 120`, so a hang shows as exit 124 rather than a stuck test.
#include <catch2/catch.hpp>

#include "corpus_fixture.h"

using namespace nc::runners::test;

namespace {
std::string replay(const std::string& corpus, const std::string& target, const std::string& dir) {
  return std::string("timeout 120 '") + NC_TEST_CLI + "' replay --timeout 5 --corpus " + corpus + " --target '" +
         target + "' --json " + dir + "/r.json >" + dir + "/out.txt 2>" + dir + "/err.txt";
}
std::string hostile(const std::string& mode) { return std::string("pipe:sh ") + NC_TEST_HOSTILE_ADAPTER + " " + mode; }
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("a plugin printing answer lines to its stdout is heard on stderr, never as an answer", "[hostile]") {
  const std::string corpus = make_corpus();
  CHECK(run_status(replay(corpus, std::string("plugin:") + NC_TEST_PLUGIN_STDOUT, corpus)) == 0);
  const std::string err = read_text(corpus + "/err.txt");
  CHECK(err.find("[target stderr] ok 00000000 00000000") != std::string::npos);
  CHECK(err.find("[target stderr] \\x1b[2J\\x1b[Hplugin stderr") != std::string::npos);
  CHECK(err.find('\033') == std::string::npos);
  CHECK(read_text(corpus + "/out.txt").find("\nCONFORMANT") != std::string::npos);
}

TEST_CASE("an adapter answering every request twice is out of step in every suite, and the run goes on", "[hostile]") {
  const std::string corpus = make_corpus();
  CHECK(run_status(replay(corpus, hostile("twice"), corpus)) == 1);
  const std::string json = read_text(corpus + "/r.json");
  CHECK(count(json, "\"suite\":") == 3);
  CHECK(count(json, "\"target_problem\": \"protocol out of step") == 3);
}

TEST_CASE("an adapter answering hello twice cannot start: a run error, not a misjudged run", "[hostile]") {
  const std::string corpus = make_corpus();
  CHECK(run_status(replay(corpus, hostile("hello2"), corpus)) == 2);
  CHECK(read_text(corpus + "/err.txt").find("did not answer hello: protocol out of step") != std::string::npos);
}

// The committed corpus's decode.BF16 takes 16 requests of 4096 words (36 KiB answers): doubled
// answers fill the pipe back to the runner while it is still writing the next request. This hung
// the runner on both writes before requests were written under poll() and the deadline.
TEST_CASE("doubled answers to large requests do not deadlock the runner", "[hostile]") {
  const std::string dir = make_corpus();
  CHECK(run_status(replay(std::string(NC_DEFAULT_CORPUS_DIR) + " --suite decode.BF16", hostile("twice"), dir)) == 1);
  const std::string json = read_text(dir + "/r.json");
  CHECK(json.find("\"target_problem\": \"protocol out of step") != std::string::npos);
  CHECK(json.find("on the request starting at case decode.BF16:") != std::string::npos);
}

TEST_CASE("escape sequences a target writes are repeated escaped, on the terminal and in reports", "[hostile]") {
  const std::string corpus = make_corpus();
  CHECK(run_status(replay(corpus, hostile("escape"), corpus)) == 1);
  const std::string out = read_text(corpus + "/out.txt"), err = read_text(corpus + "/err.txt");
  const std::string json = read_text(corpus + "/r.json");
  for (const std::string* text : {&out, &err, &json}) {
    CHECK(text->find('\033') == std::string::npos);
    CHECK(text->find("\\u001b") == std::string::npos);  // JSON's escape of a raw ESC
  }
  CHECK(out.find("target \\x1b[2Jevil 1\\x1b]0;title") != std::string::npos);
  CHECK(out.find("\\x1b[2Jcleared \\x1b[1;1Hscreen") != std::string::npos);
  CHECK(err.find("[target stderr] \\x1b[2J\\x1b[31mred stderr") != std::string::npos);
}
