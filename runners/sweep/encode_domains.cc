// encode.* domains: N seeded random groups per scheme through the canonical encoder, against the
// integer model in oracle/fastref/encoder.h. Group i is generated from SplitMix64 seeded by
// (scheme, i) alone, so any shard or stride of the domain reproduces the same groups.
#include <string>

#include "generator/splitmix64.h"
#include "oracle/fastref/encoder.h"
#include "registry/registry.h"
#include "runners/sweep/families.h"

namespace nc::sweep {

namespace {

// The distributions groups are drawn from, written with integer operations on the words so the
// stream is the same everywhere. Each keeps amax/qmax inside binary16's range.
enum class Distribution { NearOne, WideExponents, HeavyTail, Outlier, Count };
const char* distribution_name(Distribution d) {
  switch (d) {
    case Distribution::NearOne:
      return "near-one";
    case Distribution::WideExponents:
      return "wide-exponents";
    case Distribution::HeavyTail:
      return "heavy-tail";
    case Distribution::Outlier:
      return "outlier";
    default:
      return "?";
  }
}

uint32_t draw(Distribution d, gen::SplitMix64& rng, bool outlier) {
  uint64_t r = rng.next();
  uint32_t sign = uint32_t(r >> 63) << 31, mant = uint32_t(r) & 0x7fffffu;
  uint32_t e;
  switch (d) {
    case Distribution::NearOne:
      e = 124 + uint32_t((r >> 32) % 6);
      break;  // [2^-3, 2^3)
    case Distribution::WideExponents:
      e = uint32_t((r >> 32) % 143);
      break;  // subnormal .. 2^15
    case Distribution::HeavyTail: {
      uint32_t g = uint32_t(__builtin_ctzll((r >> 24) | (uint64_t(1) << 39)));  // geometric
      e = 127 - std::min<uint32_t>(g, 120) + ((r >> 33) & 1 ? 0 : 2);
      break;
    }
    default:
      e = 125 + uint32_t((r >> 32) % 3);
      break;  // Outlier: near one...
  }
  if (outlier) e += 9;  // ...and one element 2^9 larger
  return sign | (e << 23) | mant;
}

struct EncodeDomain : Domain {
  Format format;
  int qmin, qmax;
  uint32_t group;
  uint64_t groups;
  std::string name() const override { return "encode." + std::string(info(format).name); }
  std::string op() const override { return "encode " + std::string(info(format).name); }
  uint64_t size() const override { return groups; }

  void run(const nc_plugin_v1& t, uint64_t begin, uint64_t end, uint64_t stride, size_t keep, const Calls& /*calls*/,
           Tally& tally, CellCounts& /*cells*/) const override {
    std::vector<uint32_t> x(group);
    std::vector<uint64_t> src(group);
    std::vector<int32_t> codes(group), want_codes(group);
    uint32_t scale = 0, want_scale = 0;
    for (uint64_t i = begin; i < end; i += stride) {
      gen::SplitMix64 rng((uint64_t(format) << 56) ^ (i * 0xd1b54a32d192ed03ull));
      Distribution d = Distribution(i % uint64_t(Distribution::Count));
      // One group in eight is a partial final group of 1..G-1 values.
      uint32_t k = (rng.next() & 7) == 0 ? 1 + uint32_t(rng.next() % (group - 1)) : group;
      uint32_t outlier_at = uint32_t(rng.next() % k);
      for (uint32_t j = 0; j < k; ++j) {
        x[j] = draw(d, rng, d == Distribution::Outlier && j == outlier_at);
        src[j] = x[j];
      }
      int32_t outcome = -1;
      int rc = t.encode ? t.encode(nc_format(int(format)), NC_SRC_FP32, src.data(), 1, k, &scale, codes.data(), nullptr,
                                   &outcome)
                        : NC_EUNSUPPORTED;
      if (rc == NC_EUNSUPPORTED) {
        ++tally.unsupported;
        continue;
      }
      if (rc != NC_OK) {
        tally.target_error = "target returned status " + std::to_string(rc) + " at group " + std::to_string(i);
        return;
      }
      ++tally.covered;
      fastref::EncodeOutcome want = fastref::encode_group(qmin, qmax, x.data(), k, &want_scale, want_codes.data());
      auto render = [&](int32_t oc, uint32_t s, const std::vector<int32_t>& c) {
        if (oc == NC_ENCODE_FAIL_NONFINITE) return std::string("!nonfinite");
        if (oc == NC_ENCODE_FAIL_SCALE_OVERFLOW) return std::string("!scale-overflow");
        if (oc != NC_ENCODE_OK) return "outcome " + std::to_string(oc);
        std::string out = hex_word(s, 4) + "/";
        for (uint32_t j = 0; j < k; ++j) {  // piecewise: GCC 12 -Wrestrict misfires on "," + string
          if (j) out += ',';
          out += std::to_string(c[j]);
        }
        return out;
      };
      int32_t want_oc = want == fastref::EncodeOutcome::Ok          ? NC_ENCODE_OK
                        : want == fastref::EncodeOutcome::NonFinite ? NC_ENCODE_FAIL_NONFINITE
                                                                    : NC_ENCODE_FAIL_SCALE_OVERFLOW;
      std::string expected = render(want_oc, want_scale, want_codes), actual = render(outcome, scale, codes);
      if (expected == actual) continue;
      std::string what = outcome != want_oc ? "outcome" : scale != want_scale ? "scale" : "codes";
      std::string words;
      for (uint32_t j = 0; j < k; ++j) {
        if (j) words += ',';
        words += hex_word(x[j], 8);
      }
      tally.count({i,
                   std::string(distribution_name(d)) + ":" + what,
                   {"FP32", "1x" + std::to_string(k), words},
                   expected,
                   actual},
                  keep);
    }
  }
};

constexpr Format kSchemes[] = {Format::Q4G64_F16S, Format::Q5G64_F16S, Format::Q6G64_F16S, Format::W8G32_F16S};

}  // namespace

Family encode_family() {
  return {[] {
            std::vector<std::string> names;
            for (Format f : kSchemes) names.push_back("encode." + std::string(info(f).name));
            return names;
          },
          [](const std::string& name) -> std::unique_ptr<Domain> {
            for (Format f : kSchemes) {
              if (name != "encode." + std::string(info(f).name)) continue;
              auto d = std::make_unique<EncodeDomain>();
              d->format = f;
              int bits = int(info(f).code_bits);
              d->qmax = (1 << (bits - 1)) - 1;
              d->qmin = f == Format::W8G32_F16S ? -127 : -(1 << (bits - 1));  // spec 5
              d->group = info(f).group_size;
              d->groups = encode_groups();
              return d;
            }
            return nullptr;
          }};
}

}  // namespace nc::sweep
