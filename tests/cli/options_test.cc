// The shared argument grammar (cli/options.h), word by word.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/options.h"

using nc::cli::Options;
using nc::cli::OptionSpec;
using T = OptionSpec::Takes;

namespace {
constexpr OptionSpec kSpec[] = {{"--target", T::Value}, {"--require", T::Values}, {"--check", T::Nothing}};

// Parses the words; "" when they are accepted, else the reason.
std::string parse(std::vector<std::string> words, Options& o, bool operands = true) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  std::string why;
  return o.parse(int(argv.size()), argv.data(), kSpec, operands, &why) ? "" : why;
}
}  // namespace

TEST_CASE("options: values, flags, repeats and operands are read as given", "[cli]") {
  Options o;
  REQUIRE(parse({"a", "--target", "cpu", "--require=decode", "--check", "b", "--require", "x,y"}, o) == "");
  CHECK(o.get("--target") == "cpu");
  CHECK(o.has("--check"));
  CHECK(o.all("--require") == std::vector<std::string>{"decode", "x,y"});
  CHECK(o.operands() == std::vector<std::string>{"a", "b"});
  CHECK(o.get("--missing", "default") == "default");
  CHECK_FALSE(o.has("--missing"));
  // `-` is a value (standard output), and so is a word with one dash; `=` splits at the first.
  REQUIRE(parse({"--target", "-"}, o) == "");
  CHECK(o.get("--target") == "-");
  REQUIRE(parse({"--target", "-x"}, o) == "");
  CHECK(o.get("--target") == "-x");
  REQUIRE(parse({"--target=pipe:a=b --c"}, o) == "");
  CHECK(o.get("--target") == "pipe:a=b --c");
  REQUIRE(parse({"--target="}, o) == "");
  CHECK(o.has("--target"));
  CHECK(o.get("--target", "unset") == "");
  // A second parse starts afresh.
  REQUIRE(parse({}, o) == "");
  CHECK_FALSE(o.has("--target"));
}

TEST_CASE("options: every mistake is refused with its reason", "[cli]") {
  Options o;
  CHECK(parse({"--bogus"}, o) == "unknown option '--bogus'");
  CHECK(parse({"--bogus=1"}, o) == "unknown option '--bogus'");
  CHECK(parse({"-t"}, o) == "unknown option '-t'");
  CHECK(parse({"--target"}, o) == "--target needs a value");
  CHECK(parse({"--target", "--check"}, o) == "--target needs a value (found the option --check)");
  CHECK(parse({"--target", "a", "--target", "b"}, o) == "--target given twice");
  CHECK(parse({"--target=a", "--target=a"}, o) == "--target given twice");
  CHECK(parse({"--check", "--check"}, o) == "--check given twice");
  CHECK(parse({"--check=yes"}, o) == "--check takes no value");
  CHECK(parse({"stray"}, o, false) == "unexpected argument 'stray' (this command takes only options)");
}

TEST_CASE("options: count takes whole decimal numbers in range only", "[cli]") {
  Options o;
  std::string why;
  uint64_t n = 7;
  REQUIRE(parse({}, o) == "");
  CHECK(o.count("--target", 1, 4, &n, &why));  // not given: the default stays
  CHECK(n == 7);
  for (const char* bad : {"0", "5", "", "1.0", "+2", " 2", "2x", "-1", "0x2", "99999999999999999999"}) {
    REQUIRE(parse({"--target", bad}, o) == "");
    CHECK_FALSE(o.count("--target", 1, 4, &n, &why));
    CHECK(why == std::string("--target takes a whole number from 1 to 4, not '") + bad + "'");
    CHECK(n == 7);
  }
  REQUIRE(parse({"--target=4"}, o) == "");
  CHECK(o.count("--target", 1, 4, &n, &why));
  CHECK(n == 4);
  REQUIRE(parse({"--target=18446744073709551615"}, o) == "");
  CHECK(o.count("--target", 0, nc::cli::kNoLimit, &n, &why));
  CHECK(n == UINT64_MAX);
  REQUIRE(parse({"--target=x"}, o) == "");
  CHECK_FALSE(o.count("--target", 2, nc::cli::kNoLimit, &n, &why));
  CHECK(why == "--target takes a whole number of at least 2, not 'x'");
}
