#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "corpus/case_id.h"
#include "corpus/sha256.h"

using namespace nc::corpus;

namespace {
// Lowercase hex of a 32-byte digest, to compare with sha256_hex (OpenSSL).
std::string hex(const unsigned char* d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 32; ++i) s += kHex[d[i] >> 4], s += kHex[d[i] & 15];
  return s;
}
}  // namespace

TEST_CASE("SHA-256 matches the FIPS 180-2 test vectors", "[corpus][sha256]") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  Sha256 h;
  h.update("a");
  h.update("bc");
  CHECK(h.hex_digest() == sha256_hex("abc"));
}

TEST_CASE("case ids are stable: values computed independently with sha256sum", "[corpus][id]") {
  // printf 'decode.E4M3FN\n01' | sha256sum -> 3023f078b747...
  CHECK(case_id("decode.E4M3FN", {"01"}) == "decode.E4M3FN:3023f078b747");
  // printf 'parse\n""' | sha256sum -> 858fc3979562...
  CHECK(case_id("parse", {"\"\""}) == "parse:858fc3979562");
  // inputs are joined by exactly one space
  CHECK(case_id("s", {"a", "b"}) == "s:" + sha256_hex("s\na b").substr(0, 12));
  CHECK(case_id("s", {"a", "b"}) == case_id("s", {"a b"}));  // same hashed bytes, same id
  CHECK(case_id("s", {"ab"}) != case_id("s", {"a", "b"}));
  CHECK(case_id("s1", {"a"}) != case_id("s2", {"a"}));
}

// Sha256WithPrefix hashes every case id in the reader; OpenSSL (sha256_hex) is the independent
// implementation it must agree with, at every length around the padding boundaries (55, 56, 64)
// and wherever the prefix ends (inside the first block, on a block boundary, past it), on both
// code paths (the SHA-extension one runs where the CPU has it).
TEST_CASE("Sha256WithPrefix agrees with OpenSSL at every length up to 300 bytes, prefix of any length",
          "[corpus][sha256]") {
  unsigned char d[32];
  Sha256WithPrefix("a", true).digest("bc", d);
  CHECK(hex(d) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string msg;
  uint32_t x = 12345;
  for (size_t len = 0; len <= 300; ++len) {
    const std::string want = sha256_hex(msg);
    for (bool portable : {true, false})
      for (size_t cut : {size_t(0), len / 3, std::min<size_t>(len, 64), len - len / 5, len}) {
        std::string_view v(msg);
        const Sha256WithPrefix h(v.substr(0, cut), portable);
        h.digest(v.substr(cut), d);
        INFO("length " << len << ", prefix " << cut << (portable ? ", portable" : ", accelerated"));
        CHECK(hex(d) == want);
        h.digest(v.substr(cut), d);  // the prefix state is reused, never consumed
        CHECK(hex(d) == want);
      }
    x = x * 1103515245u + 12345u;
    msg += char(x >> 16);
  }
}

// digest_each hashes the reader's ids in batches, one-block messages four at a time; every message
// of a batch must still get its own digest, whatever the mix of one- and two-block messages and
// whatever the batch's length.
TEST_CASE("Sha256WithPrefix::digest_each agrees with OpenSSL for each message of a batch", "[corpus][sha256]") {
  std::vector<std::string> tails;
  uint32_t x = 777;
  for (size_t len = 0; len <= 150; ++len) {
    std::string t;
    for (size_t k = 0; k < len; ++k) x = x * 1103515245u + 12345u, t += char(x >> 16);
    tails.push_back(t);
  }
  const std::string prefix = "convert.F32_TO_BF16_RNE.ties\n";
  std::vector<std::string_view> views(tails.begin(), tails.end());
  std::vector<unsigned char[32]> out(views.size());
  for (bool portable : {true, false})
    for (size_t n : {size_t(1), size_t(3), size_t(4), size_t(5), views.size()}) {
      Sha256WithPrefix(prefix, portable).digest_each(views.data(), n, out.data());
      for (size_t i = 0; i < n; ++i) {
        INFO("message " << i << " of " << n << (portable ? ", portable" : ", accelerated"));
        CHECK(hex(out[i]) == sha256_hex(prefix + tails[i]));
      }
    }
}
