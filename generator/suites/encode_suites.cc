// Golden suites of the canonical grouped encoder MAXABS_F16_RECIP_RNE_V1 (spec 7): one suite per
// grouped scheme, `encode.<FMT>`. The inputs come from encode_cases.cc; every expectation, trace
// and norm comes from the oracle's encoder.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "generator/encode_search.h"
#include "generator/suite.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"

namespace nc::gen {
namespace {

using encsearch::EncodeCase;
using encsearch::Scheme;

std::string hex(uint64_t v, int digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

int src_digits(encsearch::Src s) {
  switch (s) {
    case encsearch::Src::FP32:
      return 8;
    case encsearch::Src::F64:
      return 16;
    default:
      return 4;
  }
}

template <class T, class F>
std::string join(const std::vector<T>& v, const char* sep, F f) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += f(v[i]);
  }
  return out;
}

std::string opt_hex(const std::optional<uint32_t>& v, int digits) { return v ? hex(*v, digits) : "-"; }

// FORMAT.md `trace`: amax32.raw_scale32.scale16.inv32 per group ("-" for a step not reached).
std::string trace_text(const oracle::EncodeResult& r, uint64_t groups) {
  std::string out;
  for (uint64_t g = 0; g < groups; ++g) {
    if (g) out += ',';
    if (g < r.trace.size()) {
      const oracle::GroupTrace& t = r.trace[g];
      out += opt_hex(t.amax32, 8) + '.' + opt_hex(t.raw_scale32, 8) + '.' + opt_hex(t.scale16, 4) + '.' +
             opt_hex(t.inv32, 8);
    } else {
      out += "-.-.-.-";
    }
  }
  return out;
}

std::string norm_text(const oracle::EncodeResult& r, uint64_t elements) {
  std::string out;
  for (uint64_t i = 0; i < elements; ++i) {
    if (i) out += ',';
    out += (i < r.normalized32.size() && r.normalized32[i]) ? hex(*r.normalized32[i], 8) : "-";
  }
  return out;
}

Case to_case(oracle::Context& ctx, Format f, const Scheme& s, const EncodeCase& e) {
  const auto src_type = *oracle::find_source_type(encsearch::src_name(e.src));
  const oracle::EncodeResult r = oracle::encode_maxabs_f16_recip_rne_v1(ctx, f, src_type, e.rows, e.k, e.src_words);
  Case c;
  const int digits = src_digits(e.src);
  c.inputs = {std::string(encsearch::src_name(e.src)), join(e.shape, "x", [](uint64_t d) { return std::to_string(d); }),
              join(e.src_words, ",", [&](uint64_t w) { return hex(w, digits); })};
  if (r.failure != oracle::EncodeFailure::None) {
    c.expect = "!" + std::string(oracle::failure_rule(r.failure));
  } else {
    c.expect = join(r.scales, ",", [](uint32_t w) { return hex(w, 4); }) + "/" +
               join(r.codes, ",", [](int32_t q) { return std::to_string(q); });
  }
  const uint64_t groups = e.rows * ((e.k + s.group - 1) / s.group);
  c.info = {trace_text(r, groups), norm_text(r, e.rows * e.k)};
  c.tags = e.tags;
  c.comment = e.comment;
  return c;
}

template <size_t I>
SuiteInfo describe() {
  const Scheme& s = encsearch::schemes()[I];
  SuiteInfo info;
  info.name = "encode." + std::string(s.name);
  info.op = "encode " + std::string(s.name);
  info.about = "Canonical encoder MAXABS_F16_RECIP_RNE_V1 on " + std::string(s.name) +
               ": ties, reciprocal-vs-division, scale rounding, rescue, overflow, clamp, "
               "non-finite and converted sources, geometry, seeded random groups (spec 7).";
  info.spec = "4 5 6 7";
  // Declare only the tags some case of this suite carries.
  for (const auto& e : encsearch::select_cases(s, suite_seed(info.name)))
    for (const auto& t : e.tags) info.tags.emplace(t, encsearch::tag_meanings().at(t));
  return info;
}

template <size_t I>
void build(SuiteBuilder& out) {
  const Scheme& s = encsearch::schemes()[I];
  const auto f = find_format(s.name);
  if (!f) throw std::logic_error("encode suites: scheme not in the registry: " + std::string(s.name));
  oracle::Context ctx;
  for (const EncodeCase& e : encsearch::select_cases(s, suite_seed("encode." + std::string(s.name))))
    out.add(to_case(ctx, *f, s, e));
}

}  // namespace

NC_SUITE(describe<0>, build<0>);
NC_SUITE(describe<1>, build<1>);
NC_SUITE(describe<2>, build<2>);
NC_SUITE(describe<3>, build<3>);

}  // namespace nc::gen
