#include "corpus/tag_truth.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string_view>

namespace nc::corpus {
namespace {

bool hex_u64(std::string_view s, uint64_t* v) {
  if (s.empty() || s.size() > 16) return false;
  uint64_t x = 0;
  for (char c : s) {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    x = x << 4 | uint64_t(d);
  }
  *v = x;
  return true;
}

std::vector<std::string_view> split_list(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  if (s == "-" || s.empty()) return out;
  size_t from = 0;
  for (size_t at; (at = s.find(sep, from)) != s.npos; from = at + 1) out.push_back(s.substr(from, at - from));
  out.push_back(s.substr(from));
  return out;
}

// A source word of the encode suites' types is non-finite (NaN or infinity) as written.
bool nonfinite_word(std::string_view src_type, uint64_t w) {
  if (src_type == "FP32") return ((w >> 23) & 0xff) == 0xff;
  if (src_type == "BF16") return ((w >> 7) & 0xff) == 0xff;
  if (src_type == "F16") return ((w >> 10) & 0x1f) == 0x1f;
  if (src_type == "F64") return ((w >> 52) & 0x7ff) == 0x7ff;
  return false;
}

// Encode tags that claim a wrong reading of spec 7's steps changes the result: on a record that
// fails as non-finite every reading fails alike, so the claim cannot hold.
const std::set<std::string_view> kEncodeReadingTags{"amax-abs",
                                                    "bf16-scale",
                                                    "binary64",
                                                    "clamp",
                                                    "double-rounding",
                                                    "qmax-denominator",
                                                    "qmin",
                                                    "recip-vs-div",
                                                    "rescue",
                                                    "tie",
                                                    "tie-even",
                                                    "w8-no-m128",
                                                    "f64-tie",
                                                    "f64-carry",
                                                    "f64-underflow",
                                                    "subnormal-source",
                                                    "subnormal-scale",
                                                    "zero",
                                                    "neg-zero",
                                                    "f16-tie",
                                                    "near-f16-tie",
                                                    "overflow-edge"};

// Encode tags about a group that encodes, or about choosing codes once a scale exists: on a record
// that fails scale-overflow (the failure does not depend on them) they cannot change the result.
// The scale readings (qmax-denominator, binary64, bf16-scale, double-rounding, amax-abs) may turn
// that failure into a success, so they may stand there.
const std::set<std::string_view> kAfterScaleTags{
    "clamp", "qmin",     "recip-vs-div",    "rescue",  "tie",          "tie-even",     "w8-no-m128",
    "zero",  "neg-zero", "subnormal-scale", "f16-tie", "near-f16-tie", "overflow-edge"};

}  // namespace

std::vector<Error> check_tag_truth(const SuiteFile& f, const std::string& path) {
  std::vector<Error> errs;
  const SuiteHeader& h = f.header;
  const std::string_view op = h.op_name();
  const int tags_col = h.column("tags"), expect_col = h.column("expect");
  if (tags_col < 0 || expect_col < 0) return errs;
  auto bad = [&](const Record& r, std::string_view tag, const std::string& why) {
    errs.push_back({path, r.line, std::string(r.id()), "tag " + std::string(tag) + " is not true: " + why});
  };
  const int src_col = h.column("src"), type_col = h.column("src_type");
  for (const Record& r : f.records) {
    const std::string_view expect = r.fields[size_t(expect_col)];
    for (std::string_view tag : split_list(r.fields[size_t(tags_col)], ',')) {
      if (op == "convert" && src_col >= 0) {
        uint64_t src = 0, dst = 0;
        if (!hex_u64(r.fields[size_t(src_col)], &src)) continue;
        const bool src_nonfinite = ((src >> 23) & 0xff) == 0xff;
        if (tag == "overflow" && src_nonfinite) bad(r, tag, "the source is not finite, so nothing overflows");
        // underflow: the source rounds to zero or to the smallest subnormal (word 1 of every
        // destination, sign aside); a source that becomes the smallest normal has not underflowed.
        if (tag == "underflow") {
          const size_t digits = expect.size();
          if (!hex_u64(expect, &dst) || digits == 0) continue;
          const uint64_t magnitude = dst & ~(uint64_t(1) << (digits * 4 - 1));
          if (src_nonfinite || magnitude > 1)
            bad(r, tag, "the result " + std::string(expect) + " is neither zero nor the smallest subnormal");
        }
      } else if (op == "encode" && src_col >= 0 && type_col >= 0) {
        bool any_nonfinite = false;
        for (std::string_view w : split_list(r.fields[size_t(src_col)], ',')) {
          uint64_t v = 0;
          any_nonfinite = any_nonfinite || (hex_u64(w, &v) && nonfinite_word(r.fields[size_t(type_col)], v));
        }
        const bool fails_nonfinite = expect == "!nonfinite";
        if (tag == "f64-carry") {
          // Some binary64 source's binary32 rounding (RNE) lands in a higher binade than itself.
          bool carries = false;
          for (std::string_view w : split_list(r.fields[size_t(src_col)], ',')) {
            uint64_t v = 0;
            if (r.fields[size_t(type_col)] != "F64" || !hex_u64(w, &v)) continue;
            double dv;
            std::memcpy(&dv, &v, 8);
            const float fv = static_cast<float>(dv);
            carries = carries || (std::isfinite(dv) && std::isfinite(fv) && fv != 0 && std::ilogb(fv) > std::ilogb(dv));
          }
          if (!carries) bad(r, tag, "no binary64 source rounds up into the next binade");
        }
        if (tag == "nonfinite" && !fails_nonfinite) bad(r, tag, "the record does not fail as non-finite");
        if ((tag == "f64-overflow") && !fails_nonfinite) bad(r, tag, "the record does not fail as non-finite");
        if (tag == "overflow" && expect != "!scale-overflow") bad(r, tag, "the record does not fail scale-overflow");
        if (kEncodeReadingTags.count(tag) && (fails_nonfinite || any_nonfinite))
          bad(r, tag, "the source fails as non-finite, so no reading of the later steps can change the result");
        if (kAfterScaleTags.count(tag) && expect == "!scale-overflow")
          bad(r, tag, "the encoding fails scale-overflow whatever the codes or the other groups' scales are");
      } else if (op == "reconstruct") {
        if ((tag == "illegal" || tag == "zero-scale-pair") && (expect.empty() || expect[0] != '!'))
          bad(r, tag, "the record is not a refusal");
        if (tag == "zero-scale-pair" && expect != "!zero-scale-codes")
          bad(r, tag, "the refusal is not zero-scale-codes");
        if (tag == "negative-zero" && expect != "80000000") bad(r, tag, "the result is not -0");
      } else if (op == "dequantize") {
        if (tag == "subnormal-result") {
          bool any = false;
          for (std::string_view w : split_list(expect, ',')) {
            uint64_t v = 0;
            any = any || (hex_u64(w, &v) && (v & 0x7fffffffu) != 0 && (v & 0x7f800000u) == 0);
          }
          if (!any) bad(r, tag, "no result word is a binary32 subnormal");
        }
      }
    }
  }
  return errs;
}

}  // namespace nc::corpus
