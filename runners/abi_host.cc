#include "runners/abi_host.h"

#include <charconv>
#include <vector>

#include "registry/registry.h"

#include "runners/tokens.h"
#include "runners/vocabulary.h"

namespace nc::runners {
namespace {

std::string error(std::string_view why) { return "error " + std::string(why); }

// hello's NAME and VERSION are single tokens: a table's spaces become '_'.
std::string single_token(const char* s, const char* fallback) {
  std::string t = s && *s ? s : fallback;
  for (char& c : t)
    if (c == ' ' || c == '\n') c = '_';
  return t;
}

// NC_EUNSUPPORTED -> "unsupported"; NC_EINVALID or anything else -> an error line.
bool status_ok(int st, std::string* line) {
  if (st == NC_OK) return true;
  *line = st == NC_EUNSUPPORTED ? "unsupported" : error("entry point returned status " + std::to_string(st));
  return false;
}

bool words_of(const std::vector<std::string_view>& t, size_t from, std::vector<uint32_t>* out) {
  out->clear();
  for (size_t i = from; i < t.size(); ++i) {
    uint64_t v;
    if (!parse_hex(t[i], &v) || v > 0xffffffffu) return false;
    out->push_back(uint32_t(v));
  }
  return true;
}

std::string decode(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.decode) return "unsupported";
  auto wt = t.size() > 1 ? word_type_token(t[1]) : std::nullopt;
  std::vector<uint32_t> in;
  if (!wt || !words_of(t, 2, &in)) return error("malformed decode request");
  std::vector<uint32_t> out(in.size());
  std::vector<uint8_t> valid(in.size());
  std::string line;
  if (!status_ok(p.decode(*wt, in.data(), in.size(), out.data(), valid.data()), &line)) return line;
  line = "ok";
  for (size_t i = 0; i < in.size(); ++i) {
    line += ' ';
    if (!valid[i]) line += "invalid";
    else if (word_type_is_float(*wt)) line += hex_word(out[i], 8);
    else line += std::to_string(int32_t(out[i]));
  }
  return line;
}

std::string validate(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.validate_word) return "unsupported";
  std::optional<nc_format> fmt;
  std::optional<nc_component> comp;
  if (t.size() > 1) {
    size_t dot = t[1].find('.');
    if (dot != std::string_view::npos) {
      fmt = format_token(t[1].substr(0, dot));
      comp = component_token(t[1].substr(dot + 1));
    }
  }
  std::vector<uint32_t> in;
  if (!fmt || !comp || !words_of(t, 2, &in)) return error("malformed validate request");
  std::vector<uint8_t> valid(in.size());
  std::string line;
  if (!status_ok(p.validate_word(*fmt, *comp, in.data(), in.size(), valid.data()), &line)) return line;
  line = "ok";
  for (uint8_t v : valid) line += v ? " valid" : " invalid";
  return line;
}

std::string parse(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.parse_format) return "unsupported";
  std::string line = "ok";
  for (size_t i = 1; i < t.size(); ++i) {
    std::string bytes;
    if (t[i] != "\"\"") {
      if (t[i].size() % 2) return error("malformed parse name");
      for (size_t j = 0; j < t[i].size(); j += 2) {
        uint64_t b;
        if (!parse_hex(t[i].substr(j, 2), &b)) return error("malformed parse name");
        bytes += char(b);
      }
    }
    int32_t f = -1;
    std::string st;
    if (!status_ok(p.parse_format(bytes.data(), bytes.size(), &f), &st)) return st;
    line += ' ';
    line += (f >= 0 && f < 9) ? std::string(format_name(nc_format(f))) : "reject";
  }
  return line;
}

std::string reconstruct(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.reconstruct) return "unsupported";
  auto fmt = t.size() > 1 ? format_token(t[1]) : std::nullopt;
  if (!fmt) return error("malformed reconstruct request");
  const bool has_div = *fmt == NC_FORMAT_NVFP4;
  std::vector<uint32_t> code, scale, div;
  for (size_t i = 2; i < t.size(); ++i) {
    auto parts = split(t[i], ':');
    uint64_t c, s, d = 0;
    if (parts.size() != (has_div ? 3u : 2u) || !parse_hex(parts[0], &c) || !parse_hex(parts[1], &s) ||
        (has_div && !parse_hex(parts[2], &d)))
      return error("malformed reconstruct element");
    code.push_back(uint32_t(c));
    scale.push_back(uint32_t(s));
    div.push_back(uint32_t(d));
  }
  std::vector<uint32_t> out(code.size());
  const uint32_t* d = has_div ? div.data() : nullptr;
  int st = p.reconstruct(*fmt, code.data(), scale.data(), d, code.size(), out.data());
  std::string line;
  if (st == NC_EINVALID) {
    // The ABI has no per-element validity for reconstruct: a batch holding one code word without
    // a value (W8 0x80) fails whole. Retry element by element; an element refused alone is
    // answered `invalid`, which the runner judges against the record's !code-illegal.
    line = "ok";
    for (size_t i = 0; i < code.size(); ++i) {
      int one = p.reconstruct(*fmt, &code[i], &scale[i], has_div ? &div[i] : nullptr, 1, &out[i]);
      if (one == NC_EINVALID) line += " invalid";
      else if (!status_ok(one, &line)) return line;
      else line += ' ' + hex_word(out[i], 8);
    }
    return line;
  }
  if (!status_ok(st, &line)) return line;
  line = "ok";
  for (uint32_t w : out) line += ' ' + hex_word(w, 8);
  return line;
}

std::string convert(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.convert) return "unsupported";
  auto r = t.size() > 1 ? recipe_token(t[1]) : std::nullopt;
  std::vector<uint32_t> in;
  if (!r || !words_of(t, 2, &in)) return error("malformed convert request");
  std::vector<uint32_t> out(in.size());
  std::string line;
  if (!status_ok(p.convert(*r, in.data(), in.size(), out.data()), &line)) return line;
  line = "ok";
  for (uint32_t w : out) line += ' ' + hex_word(w, recipe_result_hex_digits(*r));
  return line;
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

std::string encode(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.encode) return "unsupported";
  if (t.size() != 5) return error("encode takes FMT SRCTYPE SHAPE WORDS");
  auto fmt = format_token(t[1]);
  auto src = source_type_token(t[2]);
  std::vector<uint64_t> shape, words;
  if (!fmt || !src || !parse_shape(t[3], &shape) || shape.empty() || !parse_hex_list(t[4], &words))
    return error("malformed encode request");
  // Every leading coordinate is an independent row (spec 4): [K] is one row, [E,N,K] is E*N rows.
  const uint64_t k = shape.back();
  uint64_t rows = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  const uint32_t g = nc::info(Format(int(*fmt))).group_size;
  if (!g || rows * k != words.size()) return error("encode shape does not match the words");
  std::vector<uint32_t> scales(rows * ceil_div(k, g));
  std::vector<int32_t> codes(rows * k);
  int32_t outcome = -1;
  std::string line;
  if (!status_ok(p.encode(*fmt, *src, words.data(), rows, k, scales.data(), codes.data(), nullptr, &outcome), &line))
    return line;
  if (outcome == NC_ENCODE_FAIL_NONFINITE) return "ok !nonfinite";
  if (outcome == NC_ENCODE_FAIL_SCALE_OVERFLOW) return "ok !scale-overflow";
  if (outcome != NC_ENCODE_OK) return error("encode returned outcome " + std::to_string(outcome));
  line = "ok ";
  // Appends piece by piece: GCC 12 -O3 warns (-Wrestrict, falsely) on "," + std::string.
  for (size_t i = 0; i < scales.size(); ++i) {
    if (i) line += ',';
    line += hex_word(scales[i], 4);
  }
  line += '/';
  for (size_t i = 0; i < codes.size(); ++i) {
    if (i) line += ',';
    line += std::to_string(codes[i]);
  }
  return line;
}

// validate-tensor and dequantize share FMT SHAPE CODES SCALES DIVISOR.
struct Tensor {
  nc_format fmt;
  std::vector<uint64_t> shape, codes64, scales64;
  std::vector<uint32_t> codes, scales;
  uint32_t divisor = 0;
  bool has_divisor = false;
};

bool tensor_of(const std::vector<std::string_view>& t, Tensor* x) {
  if (t.size() != 6) return false;
  auto fmt = format_token(t[1]);
  if (!fmt || !parse_shape(t[2], &x->shape) || !parse_hex_list(t[3], &x->codes64) ||
      !parse_hex_list(t[4], &x->scales64))
    return false;
  x->fmt = *fmt;
  x->codes.assign(x->codes64.begin(), x->codes64.end());
  x->scales.assign(x->scales64.begin(), x->scales64.end());
  if (t[5] != "-") {
    uint64_t d;
    if (!parse_hex(t[5], &d)) return false;
    x->divisor = uint32_t(d);
    x->has_divisor = true;
  }
  return true;
}

std::string validate_tensor(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.validate_tensor) return "unsupported";
  Tensor x;
  if (!tensor_of(t, &x)) return error("malformed validate-tensor request");
  int32_t rule = -1;
  int64_t where = -1;
  std::string line;
  if (!status_ok(p.validate_tensor(x.fmt, x.shape.size(), x.shape.data(), x.codes.data(), x.codes.size(),
                                   x.scales.data(), x.scales.size(), x.has_divisor ? &x.divisor : nullptr, &rule,
                                   &where),
                 &line))
    return line;
  if (rule == NC_RULE_NONE) return "ok valid";
  const char plane = rule_plane(nc_rule(rule));
  std::string at = "-";
  if (plane && where >= 0) {
    at.assign(1, plane);
    at += std::to_string(where);
  }
  return "ok !" + std::string(rule_name(nc_rule(rule))) + "@" + at;
}

std::string dequantize(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  if (!p.dequantize) return "unsupported";
  Tensor x;
  if (!tensor_of(t, &x)) return error("malformed dequantize request");
  std::vector<uint32_t> out(x.codes.size());
  std::string line;
  if (!status_ok(p.dequantize(x.fmt, x.shape.size(), x.shape.data(), x.codes.data(), x.codes.size(), x.scales.data(),
                              x.scales.size(), x.has_divisor ? &x.divisor : nullptr, out.data()),
                 &line))
    return line;
  line = "ok ";
  for (size_t i = 0; i < out.size(); ++i) {
    if (i) line += ',';
    line += hex_word(out[i], 8);
  }
  return line;
}

bool parse_decimal(std::string_view s, uint64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// layout FMT LAYOUT NxK:ROW:BLOCK... -> ok OFFSET/PLANE_BYTES... A version 1 table has no
// layout_offsets field (its memory ends before it), so it is not read there.
std::string layout(const nc_plugin_v1& p, const std::vector<std::string_view>& t) {
  auto fn = p.abi_version >= 2 ? p.layout_offsets : nullptr;
  if (!fn) return "unsupported";
  auto fmt = t.size() > 2 ? format_token(t[1]) : std::nullopt;
  auto lay = t.size() > 2 ? layout_token(t[2]) : std::nullopt;
  if (!fmt || !lay) return error("malformed layout request");
  const size_t n = t.size() - 3;
  std::vector<uint64_t> rows(n), k(n), row(n), block(n), offset(n), plane(n);
  for (size_t i = 0; i < n; ++i) {
    auto parts = split(t[3 + i], ':');
    std::vector<uint64_t> shape;
    if (parts.size() != 3 || !parse_shape(parts[0], &shape) || shape.size() != 2 || !parse_decimal(parts[1], &row[i]) ||
        !parse_decimal(parts[2], &block[i]))
      return error("malformed layout element");
    rows[i] = shape[0], k[i] = shape[1];
  }
  std::string line;
  if (!status_ok(fn(*fmt, *lay, rows.data(), k.data(), row.data(), block.data(), n, offset.data(), plane.data()), &line))
    return line;
  line = "ok";
  for (size_t i = 0; i < n; ++i) {  // piece by piece: GCC 12 -O3 -Wrestrict, as above
    line += ' ';
    line += std::to_string(offset[i]);
    line += '/';
    line += std::to_string(plane[i]);
  }
  return line;
}

}  // namespace

std::string abi_answer(const nc_plugin_v1& table, std::string_view request) {
  auto t = split(request, ' ');
  const std::string_view verb = t[0];
  if (verb == "hello") return "ok " + single_token(table.name, "unnamed") + " " + single_token(table.version, "0");
  if (verb == "decode") return decode(table, t);
  if (verb == "validate") return validate(table, t);
  if (verb == "parse") return parse(table, t);
  if (verb == "reconstruct") return reconstruct(table, t);
  if (verb == "convert") return convert(table, t);
  if (verb == "encode") return encode(table, t);
  if (verb == "validate-tensor") return validate_tensor(table, t);
  if (verb == "dequantize") return dequantize(table, t);
  if (verb == "layout") return layout(table, t);
  return "unsupported";
}

}  // namespace nc::runners
