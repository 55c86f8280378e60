// The text-to-ABI translation over the real codec table, on cases whose answers come from the spec
// (and PIPE.md's own example), not from the codec.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "codec/codec_plugin.h"
#include "runners/abi_host.h"
#include "runners/target.h"
#include "tests/runners/scribbling_table.h"

namespace {
// The answer on a fresh line, checked against the same request answered onto a line that holds an
// earlier, longer answer: a caller's reused buffer must keep nothing of it.
std::string answer(const nc_plugin_v1& t, std::string_view request) {
  std::string fresh, reused = "ok 3f800000 3f800000 3f800000 3f800000 3f800000 3f800000 3f800000";
  nc::runners::abi_answer(t, request, &fresh);
  nc::runners::abi_answer(t, request, &reused);
  CHECK(reused == fresh);
  return fresh;
}
}  // namespace

TEST_CASE("abi_answer translates each request kind", "[abi]") {
  const nc_plugin_v1& t = *nc_codec_plugin_table();
  // E4M3FN 7e = 1.75 * 2^8 = 448, 01 = 2^-9 (spec 3.3; PIPE.md example).
  CHECK(answer(t, "decode E4M3FN 7e 01") == "ok 43e00000 3b000000");
  CHECK(answer(t, "decode W8G32_F16S.code 80 81") == "ok invalid -127");
  CHECK(answer(t, "validate NVFP4.scale 00 80") == "ok valid invalid");
  // "NVFP4" and "nvfp4" as the hex of their bytes, and the empty name.
  CHECK(answer(t, "parse 4e56465034 6e76667034 \"\"") == "ok NVFP4 reject reject");
  // W8 code 2 times scale 1.0 (3c00) is 2.0; 0x80 has no value and is refused alone.
  CHECK(answer(t, "reconstruct W8G32_F16S 02:3c00 80:3c00") == "ok 40000000 invalid");
  // Refused elements at the ends and side by side, among values: code 1 is 1.0, code -1 (ff) -1.0.
  CHECK(answer(t, "reconstruct W8G32_F16S 80:3c00 01:3c00 80:3c00 80:3c00 ff:3c00 02:3c00 80:3c00") ==
        "ok invalid 3f800000 invalid invalid bf800000 40000000 invalid");
  // Words wider than 32 bits, empty words and a missing selector are malformed, not truncated.
  CHECK(answer(t, "decode E4M3FN 100000000").rfind("error ", 0) == 0);
  CHECK(answer(t, "decode E4M3FN 7e  01").rfind("error ", 0) == 0);
  CHECK(answer(t, "decode E4M3FN 7e ").rfind("error ", 0) == 0);
  CHECK(answer(t, "decode").rfind("error ", 0) == 0);
  CHECK(answer(t, "decode E4M3FN 000000007e") == "ok 43e00000");
  // A rank-1 [2] source: amax 2.72e-6 -> scale word 0006 (6 * 2^-24), codes 7 and -8 (spec 7).
  CHECK(answer(t, "encode Q4G64_F16S FP32 2 36360000,b6360000") == "ok 0006/7,-8");
  CHECK(answer(t, "encode Q4G64_F16S FP32 1x2 7f800000,00000000") == "ok !nonfinite");
  CHECK(answer(t, "decode NOPE 00").rfind("error ", 0) == 0);
  CHECK(answer(t, "frobnicate 1") == "unsupported");
}

TEST_CASE("abi_answer: layout offsets, and a version 1 table reports the layout op as not provided", "[abi]") {
  const nc_plugin_v1& t = *nc_codec_plugin_table();
  // By hand from the 128x4 tile (FORMAT.md): a [300, 272] matrix has 17 block columns -> 5 tiles
  // per tile row, 3 tile rows, plane 15 * 512 = 7680. Scale (0, 0) is byte 0; (32, 4) sits in tile
  // 1 (512), line 0, group 1 (4): 516; (299, 16) in tile 2 * 5 + 4 = 14 (7168), line 299 % 32 = 11
  // (176), group (299 % 128) / 32 = 1 (4), column 0: 7348.
  CHECK(answer(t, "layout NVFP4 blockscale-k16-m128x4-v1 300x272:0:0 300x272:32:4 300x272:299:16") ==
        "ok 0/7680 516/7680 7348/7680");
  CHECK(answer(t, "layout NVFP4 no-such-layout 300x272:0:0").rfind("error ", 0) == 0);
  CHECK(answer(t, "layout Q4G64_F16S blockscale-k16-m128x4-v1 300x272:0:0") == "unsupported");
  // A coordinate outside the logical scale matrix, or K not a multiple of 16, is refused alone
  // (FORMAT.md "Layout refusals"): the runner judges `invalid` against the record's !index/!shape.
  CHECK(answer(t, "layout NVFP4 blockscale-k16-m128x4-v1 300x272:300:0") == "ok invalid");
  CHECK(answer(t, "layout NVFP4 blockscale-k16-m128x4-v1 300x272:0:0 300x270:0:0 300x272:0:17 300x272:32:4") ==
        "ok 0/7680 invalid invalid 516/7680");
  // A version 1 plugin's table ends before layout_offsets: whatever lies there is never called.
  nc_plugin_v1 v1 = t;
  v1.abi_version = 1;
  CHECK(answer(v1, "layout NVFP4 blockscale-k16-m128x4-v1 300x272:0:0") == "unsupported");
}

TEST_CASE("Response tokens: what lies between single spaces after ok, empty ones included", "[abi]") {
  nc::runners::Response r;
  r.line = "ok 3f800000 invalid";
  r.index_tokens();
  REQUIRE(r.token_count() == 2);
  CHECK(r.token(0) == "3f800000");
  CHECK(r.token(1) == "invalid");
  r.line = "ok a  b ";  // a lying adapter's doubled and trailing spaces are empty tokens
  r.index_tokens();
  REQUIRE(r.token_count() == 4);
  CHECK(r.token(0) == "a");
  CHECK(r.token(1).empty());
  CHECK(r.token(2) == "b");
  CHECK(r.token(3).empty());
  nc::runners::Response moved = std::move(r);  // offsets survive a move of a short line
  CHECK(moved.token(2) == "b");
  for (const char* none : {"ok", "ok "}) {
    r.line = none;
    r.index_tokens();
    CHECK(r.token_count() == 0);
  }
}

// Request words are read eight bytes at a time when eight bytes are there (runners/abi_host.cc);
// against the digit-by-digit rule of PIPE.md, every byte value at every place of words of 1 to 8
// digits, with a word after them (the eight-byte read) and at the end of the request (digit by
// digit). I32 decodes every word, to its signed decimal.
TEST_CASE("abi_answer reads every byte of a request word as PIPE.md says, eight at a time or not", "[abi]") {
  const nc_plugin_v1& t = *nc_codec_plugin_table();
  auto hex_value = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  const std::string base = "9aBc0d1F";
  size_t checked = 0;
  for (size_t len = 1; len <= 8; ++len)
    for (size_t at = 0; at < len; ++at)
      for (int b = 0; b < 256; ++b) {
        if (b == ' ') continue;  // a separator, not a byte of a word
        std::string word = base.substr(0, len);
        word[at] = char(b);
        // By hand: a word is valid when all its bytes are hex digits; its value is then theirs.
        bool valid = true;
        uint32_t value = 0;
        for (char c : word) valid = valid && hex_value(c) >= 0, value = value << 4 | uint32_t(valid ? hex_value(c) : 0);
        const std::string want = std::to_string(int32_t(value));
        for (bool word_first : {true, false}) {
          const std::string request = word_first ? "decode I32 " + word + " 00000001" : "decode I32 00000001 " + word;
          INFO("request `" << request << "`");
          const std::string got = answer(t, request);
          if (!valid) CHECK(got.rfind("error ", 0) == 0);
          else CHECK(got == (word_first ? "ok " + want + " 1" : "ok 1 " + want));
          ++checked;
        }
      }
  CHECK(checked == 2 * 36 * 255);
}

// index_tokens looks at 16 bytes at a time; against a plain split on single spaces, on answer
// lines of up to 200 bytes whose spaces fall anywhere, doubled and trailing ones included.
TEST_CASE("Response tokens agree with a plain split on random answer lines", "[abi]") {
  uint32_t x = 2891336453u;
  auto next = [&] { return x ^= x << 13, x ^= x >> 17, x ^= x << 5; };
  for (int n = 0; n < 5000; ++n) {
    nc::runners::Response r;
    r.line = "ok ";
    for (size_t len = next() % 200; len > 0; --len) r.line += next() % 4 == 0 ? ' ' : char('a' + next() % 26);
    std::vector<std::string> want;  // by hand: what lies between the spaces after "ok "
    if (r.line.size() > 3)
      for (size_t start = 3;;) {
        const size_t sp = r.line.find(' ', start);
        want.push_back(r.line.substr(start, sp == std::string::npos ? std::string::npos : sp - start));
        if (sp == std::string::npos) break;
        start = sp + 1;
      }
    r.index_tokens();
    INFO("line `" << r.line << "`");
    REQUIRE(r.token_count() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(r.token(i) == want[i]);
  }
}

namespace {
// Entry points that return NC_OK and leave every output as they found it (issue 35, item 10): the
// answers below are what the host must say of them, whatever the buffers held before the call.
int unwritten_parse(const char*, size_t, int32_t*) { return NC_OK; }
int encode_outcome_only(nc_format, nc_source_type, const uint64_t*, size_t, size_t, uint32_t*, int32_t*, uint32_t*,
                        int32_t* outcome) {
  *outcome = NC_ENCODE_OK;  // claims success, writes no scale and no code
  return NC_OK;
}
int encode_codes_only(nc_format, nc_source_type, const uint64_t*, size_t rows, size_t k, uint32_t*, int32_t* codes,
                      uint32_t*, int32_t* outcome) {
  for (size_t i = 0; i < rows * k; ++i) codes[i] = 0;
  *outcome = NC_ENCODE_OK;
  return NC_OK;
}
int encode_nothing(nc_format, nc_source_type, const uint64_t*, size_t, size_t, uint32_t*, int32_t*, uint32_t*,
                   int32_t*) {
  return NC_OK;
}
int unwritten_validate_tensor(nc_format, size_t, const uint64_t*, const uint32_t*, size_t, const uint32_t*, size_t,
                              const uint32_t*, int32_t*, int64_t*) {
  return NC_OK;
}
int rule_without_place(nc_format, size_t, const uint64_t*, const uint32_t*, size_t, const uint32_t*, size_t,
                       const uint32_t*, int32_t* rule, int64_t*) {
  *rule = 1;  // some broken rule, its place not written
  return NC_OK;
}
int unwritten_layout(nc_format, nc_layout, const uint64_t*, const uint64_t*, const uint64_t*, const uint64_t*, size_t,
                     uint64_t*, uint64_t*) {
  return NC_OK;
}
int unwritten_dequantize(nc_format, size_t, const uint64_t*, const uint32_t*, size_t, const uint32_t*, size_t,
                         const uint32_t*, uint32_t*) {
  return NC_OK;
}
int unwritten_reconstruct(nc_format, const uint32_t*, const uint32_t*, const uint32_t*, size_t, uint32_t*) {
  return NC_OK;
}
bool unwritten(const std::string& answer) { return answer.rfind("error unwritten output: ", 0) == 0; }
}  // namespace

TEST_CASE("abi_answer: an output an entry point left unwritten is a target error of every op, never a value",
          "[abi][hostile]") {
  nc_plugin_v1 t{};
  t.abi_version = NC_PLUGIN_ABI_VERSION;
  t.parse_format = unwritten_parse;
  t.encode = encode_outcome_only;
  t.validate_tensor = unwritten_validate_tensor;
  t.dequantize = unwritten_dequantize;
  t.reconstruct = unwritten_reconstruct;
  t.layout_offsets = unwritten_layout;
  // Before: "ok reject", "ok 0000/0,0" (judged as zeros), "ok !..." of whatever rule -1 named,
  // offsets 0/0.
  CHECK(unwritten(answer(t, "parse 4e56465034")));
  CHECK(unwritten(answer(t, "encode Q4G64_F16S FP32 2 36360000,b6360000")));
  CHECK_THAT(answer(t, "encode Q4G64_F16S FP32 2 36360000,b6360000"), Catch::Contains("without writing 3 of its 3"));
  t.encode = encode_codes_only;
  CHECK_THAT(answer(t, "encode Q4G64_F16S FP32 2 36360000,b6360000"), Catch::Contains("without writing 1 of its 3"));
  t.encode = encode_nothing;
  CHECK_THAT(answer(t, "encode Q4G64_F16S FP32 2 36360000,b6360000"), Catch::Contains("without writing its outcome"));
  CHECK(unwritten(answer(t, "validate-tensor W8G32_F16S 2 01,02 3c00 -")));
  t.validate_tensor = rule_without_place;
  CHECK_THAT(answer(t, "validate-tensor W8G32_F16S 2 01,02 3c00 -"), Catch::Contains("where the rule is broken"));
  CHECK(unwritten(answer(t, "dequantize W8G32_F16S 2 01,02 3c00 -")));
  CHECK(unwritten(answer(t, "reconstruct W8G32_F16S 02:3c00 01:3c00")));
  CHECK(unwritten(answer(t, "layout NVFP4 blockscale-k16-m128x4-v1 300x272:0:0")));
}

// A batch with a refused element is asked again in halves: each call must be handed the request's
// words, not what the call before left in the buffer (before: the retries of the reconstruct below
// were asked about code 0 under scale 0 and answered 0 for 1.0).
TEST_CASE("abi_answer: a table that writes into its inputs is asked about the request's words on every call",
          "[abi][hostile]") {
  const nc_plugin_v1 t = nc::test::scribbling_codec_table();
  // As in "abi_answer translates each request kind" and the layout case above, worked from the spec.
  CHECK(answer(t, "reconstruct W8G32_F16S 80:3c00 01:3c00 80:3c00 80:3c00 ff:3c00 02:3c00 80:3c00") ==
        "ok invalid 3f800000 invalid invalid bf800000 40000000 invalid");
  CHECK(answer(t, "layout NVFP4 blockscale-k16-m128x4-v1 300x272:0:0 300x270:0:0 300x272:0:17 300x272:32:4") ==
        "ok 0/7680 invalid invalid 516/7680");
}
