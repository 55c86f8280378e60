// Tests of the built encode.* suites: the examples.md groups carry the hand-worked expectations,
// and over every selected case the oracle's encoder (MPFR) and the search probe (hardware
// binary32) agree: two independent derivations of spec 7, so a tag never describes a case the
// oracle encodes differently.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "generator/encode_search.h"
#include "generator/suite.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"

using namespace nc::gen;

namespace {

const SuiteBuilder& built(const std::string& name) {
  static std::map<std::string, SuiteBuilder> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  for (const SuiteRegistration& r : registered_suites()) {
    SuiteInfo info = r.describe();
    if (info.name != name) continue;
    SuiteBuilder b(std::move(info));
    r.build(b);
    return cache.emplace(name, std::move(b)).first->second;
  }
  FAIL("suite not registered: " << name);
  throw;
}

const Case* find(const SuiteBuilder& b, const std::string& src_type, const std::string& src) {
  for (const Case& c : b.cases())
    if (c.inputs.size() == 3 && c.inputs[0] == src_type && c.inputs[2] == src) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("encode suites: examples.md groups have the worked expectations", "[encsuites]") {
  struct Ex {
    const char *suite, *src, *expect, *trace;
  };
  // Expectations written from /work/shared/spec/examples.md by hand.
  const Ex ex[] = {
      {"encode.Q4G64_F16S", "3f800000,bf000000,3e800000", "3092/7,-4,2", "3f800000.3e124925.3092.40e00e01"},
      {"encode.Q4G64_F16S", "40400000,bfc00000,3f400000,be4ccccd", "36db/7,-4,2,0", "40400000.3edb6db7.36db.40155eab"},
      {"encode.W8G32_F16S", "3f800000,bf800000,3f000000", "2008/127,-127,64", "3f800000.3c010204.2008.42fe03f8"},
      {"encode.Q6G64_F16S", "00000000,80000000", "0000/0,0", nullptr},
      {"encode.Q5G64_F16S", "00000005,80000002", "0001/0,0", "00000005.00000000.0001.4b800000"},
      {"encode.W8G32_F16S", "4afe213e", "!scale-overflow", nullptr},
      {"encode.Q4G64_F16S", "7fc00000,3f800000", "!nonfinite", nullptr},
  };
  for (const Ex& e : ex) {
    const Case* c = find(built(e.suite), "FP32", e.src);
    INFO(e.suite << " " << e.src);
    REQUIRE(c != nullptr);
    CHECK(c->expect == e.expect);
    if (e.trace) CHECK(c->info.at(0) == e.trace);
    CHECK(std::find(c->tags.begin(), c->tags.end(), "example") != c->tags.end());
  }
}

TEST_CASE("encode suites: oracle and search probe agree on every selected case", "[encsuites]") {
  nc::oracle::Context ctx;
  for (const encsearch::Scheme& s : encsearch::schemes()) {
    const auto f = *nc::find_format(s.name);
    size_t compared = 0;
    for (const encsearch::EncodeCase& e : encsearch::select_cases(s, 7)) {
      const auto st = *nc::oracle::find_source_type(encsearch::src_name(e.src));
      const auto r = nc::oracle::encode_maxabs_f16_recip_rne_v1(ctx, f, st, e.rows, e.k, e.src_words);
      // The probe, group by group, on the converted words.
      // Spec 7 converts every source before group processing, so a non-finite source anywhere
      // fails the whole tensor before any scale can overflow.
      std::vector<uint32_t> x;
      encsearch::Outcome first_failure = encsearch::Outcome::Ok;
      for (uint64_t w : e.src_words) {
        const auto cv = encsearch::to_f32(e.src, w);
        if (!cv.f32) first_failure = encsearch::Outcome::Nonfinite;
        x.push_back(cv.f32.value_or(0));
      }
      std::vector<uint32_t> scales;
      std::vector<int32_t> codes;
      for (uint64_t row = 0; row < e.rows && first_failure == encsearch::Outcome::Ok; ++row)
        for (uint64_t g0 = 0; g0 < e.k; g0 += s.group) {
          const size_t n = static_cast<size_t>(std::min<uint64_t>(s.group, e.k - g0));
          encsearch::GroupProbe p;
          const auto o = encsearch::probe_group(s, std::span<const uint32_t>(x.data() + row * e.k + g0, n), p);
          if (o != encsearch::Outcome::Ok) {
            first_failure = o;
            break;
          }
          scales.push_back(p.scale16);
          // Codes are row-major over [rows, k]; groups within a row are consecutive.
          codes.insert(codes.end(), p.codes.begin(), p.codes.end());
        }
      INFO(s.name << ": " << e.comment);
      using F = nc::oracle::EncodeFailure;
      const F want = first_failure == encsearch::Outcome::Ok          ? F::None
                     : first_failure == encsearch::Outcome::Nonfinite ? F::Nonfinite
                                                                      : F::ScaleOverflow;
      CHECK(r.failure == want);
      if (r.failure == F::None && want == F::None) {
        CHECK(r.scales == scales);
        CHECK(r.codes == codes);
        ++compared;
      }
    }
    CHECK(compared > 500);
  }
}

TEST_CASE("encode suites: every expected code is legal, W8 never -128", "[encsuites]") {
  for (const encsearch::Scheme& s : encsearch::schemes()) {
    const SuiteBuilder& b = built("encode." + std::string(s.name));
    size_t m127 = 0, qmin_seen = 0;
    for (const Case& c : b.cases()) {
      if (c.expect.empty() || c.expect[0] == '!') continue;
      const std::string codes = c.expect.substr(c.expect.find('/') + 1);
      bool has_m127 = false;
      size_t pos = 0;
      while (pos <= codes.size()) {
        const size_t end = std::min(codes.find(',', pos), codes.size());
        const long q = std::stol(codes.substr(pos, end - pos));
        INFO(s.name << ": " << c.comment);
        CHECK(q >= s.qmin);
        CHECK(q <= s.qmax);
        has_m127 |= q == -127;
        qmin_seen += q == s.qmin;
        pos = end + 1;
      }
      if (std::find(c.tags.begin(), c.tags.end(), "w8-no-m128") != c.tags.end()) {
        CHECK(has_m127);
        ++m127;
      }
    }
    INFO(s.name);
    CHECK(qmin_seen > 0);
    if (s.qmin == -127) CHECK(m127 >= 20);
  }
}
