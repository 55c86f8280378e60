// Registry name parsing (spec 1, 3.2, 11): the nine canonical names are accepted exactly; every
// look-alike is rejected. The accepted list is written out here from spec section 1, not taken
// from registry/, so a typo in the shared table is caught by the corpus.
#include <cstdio>
#include <string>
#include <vector>

#include "generator/suite.h"

namespace nc::gen {
namespace {

constexpr const char* kCanonical[] = {"BF16",       "FP32",       "I32",   "Q4G64_F16S",          "Q5G64_F16S",
                                      "Q6G64_F16S", "W8G32_F16S", "NVFP4", "FP8_E4M3FN_ROW_BF16S"};

std::string hex_bytes(const std::string& s) {
  if (s.empty()) return "\"\"";
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

SuiteInfo describe() {
  SuiteInfo s;
  s.name = "parse.registry";
  s.op = "parse";
  s.about = "Format names: the nine canonical names accepted exactly, every look-alike rejected (closed registry).";
  s.spec = "1,3.2,11";
  s.tags = {
      {"canonical", "one of the nine names: catches a registry that lost or misspelt a format."},
      {"case", "a canonical name in other letter case: catches case-insensitive comparison."},
      {"whitespace", "a canonical name with surrounding or inner whitespace: catches trimming before comparison."},
      {"nul", "a canonical name with an embedded or trailing NUL byte: catches C-string comparison that stops at NUL."},
      {"control",
       "a canonical name with an ASCII control byte (0x01-0x1f, 0x7f; CR included) before or after it: catches "
       "trimming of line endings or control characters."},
      {"truncated", "a proper prefix or extension of a canonical name: catches prefix matching."},
      {"component", "familiar components in an unregistered combination (spec 1): catches parsing names as a grammar."},
      {"numeric-field",
       "a grouped name with its bit width or group size spelt as another integer (leading zero, plus "
       "sign): catches a grammar that parses the numbers as integers (spec 3.2)."},
      {"excluded", "a scheme the spec excludes (GGUF, GPTQ, AWQ, MX, NF4, other FP8/FP4): catches alias tables."},
      {"internal", "an internal or explanatory name (BF16_CTRL, INT32, Q4, the encoder profile): catches aliases."},
      {"empty", "the empty name: catches a default format."},
      {"non-ascii", "a name with a non-ASCII look-alike letter: catches normalisation."},
  };
  return s;
}

void add_reject(SuiteBuilder& b, const std::string& name, const std::string& tag, const std::string& why) {
  b.add(Case{{hex_bytes(name)}, "!unknown-format", {}, {}, {tag}, why});
}

void build(SuiteBuilder& b) {
  for (const char* n : kCanonical) b.add(Case{{hex_bytes(n)}, n, {}, {}, {"canonical"}, std::string(n) + " accepted"});
  for (const std::string n : kCanonical) {
    std::string lower, mixed;
    for (size_t i = 0; i < n.size(); ++i) {
      char c = n[i];
      char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      lower += l;
      mixed += (i % 2) ? l : c;
    }
    add_reject(b, lower, "case", "lower-case " + n);
    if (mixed != n) add_reject(b, mixed, "case", "mixed-case " + n);
    add_reject(b, " " + n, "whitespace", "leading space before " + n);
    add_reject(b, n + " ", "whitespace", "trailing space after " + n);
    add_reject(b, n + "\n", "whitespace", "trailing newline after " + n);
    add_reject(b, "\t" + n, "whitespace", "leading tab before " + n);
    add_reject(b, n + std::string(1, '\0'), "nul", "trailing NUL after " + n);
    add_reject(b, n.substr(0, 2) + std::string(1, '\0') + n.substr(2), "nul", "NUL inside " + n);
    add_reject(b, n.substr(0, n.size() - 1), "truncated", "last character of " + n + " dropped");
    add_reject(b, n + "X", "truncated", n + " with a suffix");
    add_reject(b, n + "_V1", "truncated", n + " with a version suffix");
  }
  // Every ASCII control byte around one canonical name (NUL and the space, tab and LF cases above
  // are their own classes): each byte before and after, rotating over the nine names.
  for (int byte = 0x01; byte <= 0x20; ++byte) {
    const int c = byte == 0x20 ? 0x7f : byte;
    const std::string n = kCanonical[byte % 9], ch(1, static_cast<char>(c));
    char code[8];
    std::snprintf(code, sizeof code, "0x%02x", c);
    add_reject(b, n + ch, "control", std::string("control byte ") + code + " after " + n);
    add_reject(b, ch + n, "control", std::string("control byte ") + code + " before " + n);
  }
  add_reject(b, std::string(1, '\0') + "FP32", "nul", "leading NUL before FP32");
  add_reject(b, "", "empty", "empty name");
  add_reject(b, "Q4G64 F16S", "whitespace", "inner space instead of underscore");
  add_reject(b, "Q4G64-F16S", "component", "hyphen instead of underscore");
  for (const char* n : {"FP16",
                        "F16",
                        "FP8_E4M3FN",
                        "E4M3FN",
                        "E2M1",
                        "FP64",
                        "F64",
                        "I64",
                        "I16",
                        "I8",
                        "U8",
                        "U32",
                        "UINT8",
                        "Q4G32_F16S",
                        "Q4G128_F16S",
                        "Q6G128_F16S",
                        "Q5G32_F16S",
                        "W8G64_F16S",
                        "W8G128_F16S",
                        "Q8G32_F16S",
                        "W4G64_F16S",
                        "Q2G64_F16S",
                        "Q3G64_F16S",
                        "Q4G64_BF16S",
                        "Q4G64_F32S",
                        "Q4G64_F16",
                        "W8G32_F16",
                        "W8G32_BF16S",
                        "FP8_E4M3FN_ROW_F16S",
                        "FP8_E5M2_ROW_BF16S",
                        "FP8_E4M3_ROW_BF16S",
                        "FP8_E4M3FN_COL_BF16S",
                        "NVFP4_E4M3",
                        "NVFP8",
                        "FP4",
                        "FP4_E2M1",
                        "Q4G64_F16S_ZP",
                        "Q4G64_F16S_ASYM"})
    add_reject(b, n, "component", std::string(n) + ": unregistered combination of familiar components");
  // Spec 3.2: "These four names are identifiers, not a grammar." Each name below reads as a
  // registered triple once its numbers are parsed as integers.
  for (const char* n :
       {"Q4G064_F16S", "Q04G64_F16S", "Q5G0064_F16S", "Q+6G64_F16S", "W8G032_F16S", "W08G32_F16S", "W8G+32_F16S"})
    add_reject(b, n, "numeric-field", std::string(n) + ": a registered name's number spelt another way");
  for (const char* n : {"NF4",  "MXFP4",    "MXFP6",    "MXFP8", "MXINT8", "Q4_0",   "Q4_1",    "Q5_0", "Q8_0",
                        "Q4_K", "Q4_K_M",   "Q5_K",     "Q6_K",  "Q8_K",   "IQ4_XS", "IQ2_XXS", "GPTQ", "GPTQ_INT4",
                        "AWQ",  "AWQ_INT4", "FP8_E5M2", "FP8",   "INT8",   "W8A8",   "W4A16",   "E8M0", "UE8M0"})
    add_reject(b, n, "excluded", std::string(n) + ": a scheme the registry excludes");
  for (const char* n : {"BF16_CTRL", "FP32_CTRL", "I32_CTRL", "INT32", "Q4", "Q5", "Q6", "W8", "W8G32", "Q4G64",
                        "MAXABS_F16_RECIP_RNE_V1", "row-split-k128-v1", "contiguous-le-v1"})
    add_reject(b, n, "internal", std::string(n) + ": explanatory, internal or non-format name");
  // U+0412 CYRILLIC CAPITAL LETTER VE looks like B; U+FF26 FULLWIDTH LATIN CAPITAL LETTER F.
  add_reject(b,
             "\xd0\x92"
             "F16",
             "non-ascii", "BF16 with Cyrillic VE for B");
  add_reject(b, "\xef\xbc\xa6P32", "non-ascii", "FP32 with a full-width F");
}

NC_SUITE(describe, build);

}  // namespace
}  // namespace nc::gen
