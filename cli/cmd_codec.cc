// Codec subcommands: formats, format, decode, encode. Everything printed comes from nc_codec;
// bad input is one line on stderr and exit 2, an encoder failure exit 1.
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <bit>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/options.h"
#include "codec/format_name.h"
#include "codec/grouped.h"
#include "codec/maxabs_f16_recip_rne_v1.h"
#include "codec/words.h"
#include "registry/registry.h"
#include "runners/tokens.h"

namespace nc::cli {
namespace {
using namespace nc::codec;

int usage_error(const char* cmd, const std::string& msg) {
  std::fprintf(stderr, "ninfer-conform %s: %s\n", cmd, msg.c_str());
  return kExitUsage;
}

std::string_view category_name(Category c) {
  switch (c) {
    case Category::Direct:
      return "direct";
    case Category::GroupedInt:
      return "grouped-int";
    case Category::BlockScaledFloat:
      return "block-scaled-float";
    case Category::RowScaledFloat:
      return "row-scaled-float";
  }
  return "?";
}

std::string opt_name(std::optional<WordType> w) { return w ? std::string(info(*w).name) : "-"; }

std::string group_text(const FormatInfo& f) {
  if (f.category == Category::Direct) return "-";
  if (f.category == Category::RowScaledFloat) return "row";
  return std::to_string(f.group_size);
}

// A word: hex digits with an optional 0x prefix, at most 16 digits (the corpus token rules).
std::optional<uint64_t> parse_hex(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  uint64_t v;
  if (!nc::runners::parse_hex(s, &v)) return std::nullopt;
  return v;
}

// The registry's value-class tokens, which begin in codec's ValueClass order.
static_assert(int(ValueClass::NaN) == 4 && nc::kValueClassTokens[4] == "nan");
std::string_view class_name(ValueClass c) { return nc::kValueClassTokens[size_t(c)]; }

// Exact decimal expansion of a finite binary32 (glibc prints exact digits; 160 fraction digits
// cover 2^-149), trailing zeros removed.
std::string exact_decimal(float x) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%.160f", double(x));
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

int cmd_formats(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::printf("usage: ninfer-conform formats\nLists the nine registered formats and their parts.\n");
    return kExitOk;
  }
  if (argc) return usage_error("formats", "takes no arguments");
  std::printf("%-22s %-19s %-16s %-7s %-8s %s\n", "format", "category", "code", "scale", "divisor", "group");
  for (const FormatInfo& f : kFormats)
    std::printf("%-22.*s %-19.*s %-16.*s %-7s %-8s %s\n", int(f.name.size()), f.name.data(),
                int(category_name(f.category).size()), category_name(f.category).data(), int(info(f.code).name.size()),
                info(f.code).name.data(), opt_name(f.scale).c_str(), opt_name(f.divisor).c_str(),
                group_text(f).c_str());
  return kExitOk;
}

int cmd_format(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform format NAME\nPrints one registered format's card; a name "
        "outside the closed registry is an error (exit 2).\n");
    return kExitOk;
  }
  if (argc != 1) return usage_error("format", "expects exactly one NAME");
  auto f = parse_format(argv[0]);
  if (!f) return usage_error("format", f.error().text());
  const FormatInfo& fi = info(*f);
  std::printf("name      %.*s\ncategory  %.*s\ncode      %.*s (%u bits)\n", int(fi.name.size()), fi.name.data(),
              int(category_name(fi.category).size()), category_name(fi.category).data(), int(info(fi.code).name.size()),
              info(fi.code).name.data(), fi.code_bits);
  std::printf("scale     %s\ndivisor   %s\ngroup     %s\n", opt_name(fi.scale).c_str(), opt_name(fi.divisor).c_str(),
              group_text(fi).c_str());
  if (auto g = grouped_scheme(*f))
    std::printf("codes     [%d, %d], encoder qmax %d, profile %.*s\n", g->qmin, g->qmax, g->qmax,
                int(kCanonicalEncoderProfile.size()), kCanonicalEncoderProfile.data());
  return kExitOk;
}

int cmd_decode(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform decode WORDTYPE WORD...\n"
        "Decodes component words (hex, 0x optional) and prints exact value and class.\n"
        "WORDTYPE: BF16 FP32 I32 F16 E4M3FN E2M1 Q4G64_F16S.code Q5G64_F16S.code "
        "Q6G64_F16S.code W8G32_F16S.code\nexit 1 if a word is illegal in its type (W8 0x80).\n");
    return kExitOk;
  }
  if (argc < 2) return usage_error("decode", "expects WORDTYPE and at least one WORD");
  auto wt = parse_word_type(argv[0]);
  if (!wt) return usage_error("decode", wt.error().text());
  std::vector<uint32_t> words;
  for (int i = 1; i < argc; ++i) {
    auto v = parse_hex(argv[i]);
    if (!v) return usage_error("decode", std::string("malformed word '") + argv[i] + "' (expected hex)");
    if (*v > 0xffffffffu || !check_word(*wt, uint32_t(*v)))
      return usage_error("decode", std::string("word '") + argv[i] + "' does not fit " + std::string(info(*wt).name) +
                                       " (" + std::to_string(info(*wt).bits) + " bits)");
    words.push_back(uint32_t(*v));
  }
  int rc = kExitOk;
  const std::string name(info(*wt).name);
  const int digits = int((info(*wt).bits + 3) / 4);
  for (uint32_t w : words) {
    if (is_float_word(*wt)) {
      const uint32_t b = float_word_to_f32(*wt, w);
      const float x = std::bit_cast<float>(b);
      const ValueClass c = float_word_class(*wt, w);
      if (c == ValueClass::NaN)
        std::printf("%s 0x%0*x %snan binary32=0x%08x %s\n", name.c_str(), digits, w, (b >> 31) ? "-" : "", b,
                    class_name(c).data());
      else if (c == ValueClass::Inf)
        std::printf("%s 0x%0*x %sinf binary32=0x%08x %s\n", name.c_str(), digits, w, (b >> 31) ? "-" : "", b,
                    class_name(c).data());
      else
        std::printf("%s 0x%0*x %a %s binary32=0x%08x %s\n", name.c_str(), digits, w, double(x),
                    exact_decimal(x).c_str(), b, class_name(c).data());
    } else {
      auto v = int_word_value(*wt, w);
      if (v) {
        std::printf("%s 0x%0*x %" PRId32 " int\n", name.c_str(), digits, w, *v);
      } else {
        std::printf("%s 0x%0*x illegal (%s)\n", name.c_str(), digits, w, v.error().text().c_str());
        rc = kExitNonConformant;
      }
    }
  }
  return rc;
}

int cmd_encode(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform encode SCHEME WORD... [--src FP32|BF16|F16|F64]\n"
        "Runs MAXABS_F16_RECIP_RNE_V1 on one group of source words (hex, default FP32)\n"
        "and prints the binary16 scale word, the codes and the trace.\n"
        "SCHEME: Q4G64_F16S Q5G64_F16S Q6G64_F16S W8G32_F16S\n"
        "exit 1 when the encoder fails (non-finite source, scale overflow), 2 on bad input.\n");
    return kExitOk;
  }
  static constexpr OptionSpec kSpec[] = {{"--src", OptionSpec::Takes::Value}};
  Options o;
  if (std::string why; !o.parse(argc, argv, kSpec, true, &why)) return usage_error("encode", why);
  const std::vector<std::string>& args = o.operands();
  const std::string src_name = o.get("--src", "FP32");
  SourceType src = SourceType::FP32;
  unsigned src_bits = 32;
  if (src_name == "BF16") src = SourceType::BF16, src_bits = 16;
  else if (src_name == "F16") src = SourceType::F16, src_bits = 16;
  else if (src_name == "F64") src = SourceType::F64, src_bits = 64;
  else if (src_name != "FP32")
    return usage_error("encode", "unknown --src '" + src_name + "' (FP32, BF16, F16 or F64)");
  if (args.size() < 2) return usage_error("encode", "expects SCHEME and at least one WORD");
  auto f = parse_format(args[0]);
  if (!f) return usage_error("encode", f.error().text());
  const auto scheme = grouped_scheme(*f);
  if (!scheme)
    return usage_error("encode",
                       std::string(info(*f).name) +
                           " has no canonical encoder (MAXABS_F16_RECIP_RNE_V1 covers the four grouped schemes)");
  std::vector<uint64_t> words;
  for (size_t i = 1; i < args.size(); ++i) {
    auto v = parse_hex(args[i]);
    if (!v) return usage_error("encode", std::string("malformed word '") + args[i] + "' (expected hex)");
    if (src_bits < 64 && (*v >> src_bits))
      return usage_error("encode",
                         std::string("word '") + args[i] + "' does not fit " + std::to_string(src_bits) + " bits");
    words.push_back(*v);
  }
  if (words.size() > scheme->group)
    return usage_error("encode", std::to_string(words.size()) +
                                     " words is longer than one group (G = " + std::to_string(scheme->group) + ")");
  auto r = maxabs_f16_recip_rne_v1(*f, src, words, 1, words.size());
  if (!r) return usage_error("encode", r.error().text());
  const Encoding& e = *r;
  const GroupTrace& t = e.trace[0];
  auto w = [](std::optional<uint32_t> v, int digits) {
    char b[16];
    if (!v) return std::string("-");
    std::snprintf(b, sizeof b, "0x%0*x", digits, *v);
    return std::string(b);
  };
  std::printf("trace amax32=%s raw_scale32=%s scale16=%s inv32=%s\n", w(t.amax32, 8).c_str(),
              w(t.raw_scale32, 8).c_str(), w(t.scale16, 4).c_str(), w(t.inv32, 8).c_str());
  if (e.failure) {
    std::printf("failed: %s\n", e.failure->text().c_str());
    return kExitNonConformant;
  }
  std::printf("normalized32");
  for (const auto& n : e.normalized32) std::printf(" %s", w(n, 8).c_str());
  std::printf("\nscale 0x%04x\ncodes", e.scales[0]);
  for (int32_t c : e.codes) std::printf(" %d", c);
  std::printf("\n");
  return kExitOk;
}

}  // namespace

NC_COMMAND("formats", "list the nine registered formats and their parts", cmd_formats);
NC_COMMAND("format", "print one registered format's card", cmd_format);
NC_COMMAND("decode", "decode component words to exact values", cmd_decode);
NC_COMMAND("encode", "run the canonical encoder on one group", cmd_encode);

}  // namespace nc::cli
