#include "runners/abi_host.h"

#include <charconv>
#include <vector>

#include "registry/registry.h"

#include "runners/tokens.h"
#include "runners/vocabulary.h"

namespace nc::runners {
namespace {

// Each entry point writes its answer onto the caller's line, which a caller reuses from request to
// request; result words are written in place, never through temporaries (replay sends millions).
using Tokens = std::vector<std::string_view>;

void error(std::string* line, std::string_view why) {
  line->assign("error ");
  *line += why;
}

void unsupported(std::string* line) { line->assign("unsupported"); }

template <typename Int>
void append_decimal(std::string* line, Int v) {
  char digits[24];
  line->append(digits, size_t(std::to_chars(digits, digits + sizeof digits, v).ptr - digits));
}

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
  if (st == NC_EUNSUPPORTED) unsupported(line);
  else error(line, "entry point returned status " + std::to_string(st));
  return false;
}

bool words_of(const Tokens& t, size_t from, std::vector<uint32_t>* out) {
  out->clear();
  for (size_t i = from; i < t.size(); ++i) {
    uint64_t v;
    if (!parse_hex(t[i], &v) || v > 0xffffffffu) return false;
    out->push_back(uint32_t(v));
  }
  return true;
}

void decode(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.decode) return unsupported(line);
  auto wt = t.size() > 1 ? word_type_token(t[1]) : std::nullopt;
  std::vector<uint32_t> in;
  if (!wt || !words_of(t, 2, &in)) return error(line, "malformed decode request");
  std::vector<uint32_t> out(in.size());
  std::vector<uint8_t> valid(in.size());
  if (!status_ok(p.decode(*wt, in.data(), in.size(), out.data(), valid.data()), line)) return;
  line->assign("ok");
  for (size_t i = 0; i < in.size(); ++i) {
    *line += ' ';
    if (!valid[i]) *line += "invalid";
    else if (word_type_is_float(*wt)) append_hex_word(line, out[i], 8);
    else append_decimal(line, int32_t(out[i]));
  }
}

void validate(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.validate_word) return unsupported(line);
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
  if (!fmt || !comp || !words_of(t, 2, &in)) return error(line, "malformed validate request");
  std::vector<uint8_t> valid(in.size());
  if (!status_ok(p.validate_word(*fmt, *comp, in.data(), in.size(), valid.data()), line)) return;
  line->assign("ok");
  for (uint8_t v : valid) *line += v ? " valid" : " invalid";
}

void parse(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.parse_format) return unsupported(line);
  line->assign("ok");
  for (size_t i = 1; i < t.size(); ++i) {
    std::string bytes;
    if (t[i] != "\"\"") {
      if (t[i].size() % 2) return error(line, "malformed parse name");
      for (size_t j = 0; j < t[i].size(); j += 2) {
        uint64_t b;
        if (!parse_hex(t[i].substr(j, 2), &b)) return error(line, "malformed parse name");
        bytes += char(b);
      }
    }
    int32_t f = -1;
    if (!status_ok(p.parse_format(bytes.data(), bytes.size(), &f), line)) return;
    *line += ' ';
    *line += (f >= 0 && f < 9) ? format_name(nc_format(f)) : "reject";
  }
}

void reconstruct(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.reconstruct) return unsupported(line);
  auto fmt = t.size() > 1 ? format_token(t[1]) : std::nullopt;
  if (!fmt) return error(line, "malformed reconstruct request");
  const bool has_div = *fmt == NC_FORMAT_NVFP4;
  std::vector<uint32_t> code, scale, div;
  for (size_t i = 2; i < t.size(); ++i) {
    // C:S, or C:S:D for NVFP4; found in place, as one request holds thousands.
    const std::string_view e = t[i];
    const size_t c1 = e.find(':'), c2 = c1 == e.npos ? e.npos : e.find(':', c1 + 1);
    const size_t s_end = has_div ? c2 : e.size();
    uint64_t c, s, d = 0;
    if (c1 == e.npos || (has_div ? c2 == e.npos || e.find(':', c2 + 1) != e.npos : c2 != e.npos) ||
        !parse_hex(e.substr(0, c1), &c) || !parse_hex(e.substr(c1 + 1, s_end - c1 - 1), &s) ||
        (has_div && !parse_hex(e.substr(c2 + 1), &d)))
      return error(line, "malformed reconstruct element");
    code.push_back(uint32_t(c));
    scale.push_back(uint32_t(s));
    div.push_back(uint32_t(d));
  }
  std::vector<uint32_t> out(code.size());
  const uint32_t* d = has_div ? div.data() : nullptr;
  int st = p.reconstruct(*fmt, code.data(), scale.data(), d, code.size(), out.data());
  if (st == NC_EINVALID) {
    // The ABI has no per-element validity for reconstruct: a batch holding one code word without
    // a value (W8 0x80) fails whole. Retry element by element; an element refused alone is
    // answered `invalid`, which the runner judges against the record's !code-illegal.
    line->assign("ok");
    for (size_t i = 0; i < code.size(); ++i) {
      int one = p.reconstruct(*fmt, &code[i], &scale[i], has_div ? &div[i] : nullptr, 1, &out[i]);
      if (one == NC_EINVALID) *line += " invalid";
      else if (!status_ok(one, line)) return;
      else *line += ' ', append_hex_word(line, out[i], 8);
    }
    return;
  }
  if (!status_ok(st, line)) return;
  line->assign("ok");
  for (uint32_t w : out) *line += ' ', append_hex_word(line, w, 8);
}

void convert(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.convert) return unsupported(line);
  auto r = t.size() > 1 ? recipe_token(t[1]) : std::nullopt;
  std::vector<uint32_t> in;
  if (!r || !words_of(t, 2, &in)) return error(line, "malformed convert request");
  std::vector<uint32_t> out(in.size());
  if (!status_ok(p.convert(*r, in.data(), in.size(), out.data()), line)) return;
  line->assign("ok");
  const int digits = recipe_result_hex_digits(*r);
  for (uint32_t w : out) *line += ' ', append_hex_word(line, w, digits);
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

void encode(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.encode) return unsupported(line);
  if (t.size() != 5) return error(line, "encode takes FMT SRCTYPE SHAPE WORDS");
  auto fmt = format_token(t[1]);
  auto src = source_type_token(t[2]);
  std::vector<uint64_t> shape, words;
  if (!fmt || !src || !parse_shape(t[3], &shape) || shape.empty() || !parse_hex_list(t[4], &words))
    return error(line, "malformed encode request");
  // Every leading coordinate is an independent row (spec 4): [K] is one row, [E,N,K] is E*N rows.
  const uint64_t k = shape.back();
  uint64_t rows = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  const uint32_t g = nc::info(Format(int(*fmt))).group_size;
  if (!g || rows * k != words.size()) return error(line, "encode shape does not match the words");
  std::vector<uint32_t> scales(rows * ceil_div(k, g));
  std::vector<int32_t> codes(rows * k);
  int32_t outcome = -1;
  if (!status_ok(p.encode(*fmt, *src, words.data(), rows, k, scales.data(), codes.data(), nullptr, &outcome), line))
    return;
  if (outcome == NC_ENCODE_FAIL_NONFINITE) return void(line->assign("ok !nonfinite"));
  if (outcome == NC_ENCODE_FAIL_SCALE_OVERFLOW) return void(line->assign("ok !scale-overflow"));
  if (outcome != NC_ENCODE_OK) return error(line, "encode returned outcome " + std::to_string(outcome));
  line->assign("ok ");
  for (size_t i = 0; i < scales.size(); ++i) {
    if (i) *line += ',';
    append_hex_word(line, scales[i], 4);
  }
  *line += '/';
  for (size_t i = 0; i < codes.size(); ++i) {
    if (i) *line += ',';
    append_decimal(line, codes[i]);
  }
}

// validate-tensor and dequantize share FMT SHAPE CODES SCALES DIVISOR.
struct Tensor {
  nc_format fmt;
  std::vector<uint64_t> shape, codes64, scales64;
  std::vector<uint32_t> codes, scales;
  uint32_t divisor = 0;
  bool has_divisor = false;
};

bool tensor_of(const Tokens& t, Tensor* x) {
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

void validate_tensor(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.validate_tensor) return unsupported(line);
  Tensor x;
  if (!tensor_of(t, &x)) return error(line, "malformed validate-tensor request");
  int32_t rule = -1;
  int64_t where = -1;
  if (!status_ok(p.validate_tensor(x.fmt, x.shape.size(), x.shape.data(), x.codes.data(), x.codes.size(),
                                   x.scales.data(), x.scales.size(), x.has_divisor ? &x.divisor : nullptr, &rule,
                                   &where),
                 line))
    return;
  if (rule == NC_RULE_NONE) return void(line->assign("ok valid"));
  line->assign("ok !");
  *line += rule_name(nc_rule(rule));
  *line += '@';
  const char plane = rule_plane(nc_rule(rule));
  if (plane && where >= 0) *line += plane, append_decimal(line, where);
  else *line += '-';
}

void dequantize(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  if (!p.dequantize) return unsupported(line);
  Tensor x;
  if (!tensor_of(t, &x)) return error(line, "malformed dequantize request");
  std::vector<uint32_t> out(x.codes.size());
  if (!status_ok(p.dequantize(x.fmt, x.shape.size(), x.shape.data(), x.codes.data(), x.codes.size(), x.scales.data(),
                              x.scales.size(), x.has_divisor ? &x.divisor : nullptr, out.data()),
                 line))
    return;
  line->assign("ok ");
  for (size_t i = 0; i < out.size(); ++i) {
    if (i) *line += ',';
    append_hex_word(line, out[i], 8);
  }
}

bool parse_decimal(std::string_view s, uint64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// layout FMT LAYOUT NxK:ROW:BLOCK... -> ok OFFSET/PLANE_BYTES... A version 1 table has no
// layout_offsets field (its memory ends before it), so it is not read there.
void layout(const nc_plugin_v1& p, const Tokens& t, std::string* line) {
  auto fn = p.abi_version >= 2 ? p.layout_offsets : nullptr;
  if (!fn) return unsupported(line);
  auto fmt = t.size() > 2 ? format_token(t[1]) : std::nullopt;
  auto lay = t.size() > 2 ? layout_token(t[2]) : std::nullopt;
  if (!fmt || !lay) return error(line, "malformed layout request");
  const size_t n = t.size() - 3;
  std::vector<uint64_t> rows(n), k(n), row(n), block(n), offset(n), plane(n);
  for (size_t i = 0; i < n; ++i) {
    auto parts = split(t[3 + i], ':');
    std::vector<uint64_t> shape;
    if (parts.size() != 3 || !parse_shape(parts[0], &shape) || shape.size() != 2 || !parse_decimal(parts[1], &row[i]) ||
        !parse_decimal(parts[2], &block[i]))
      return error(line, "malformed layout element");
    rows[i] = shape[0], k[i] = shape[1];
  }
  if (!status_ok(fn(*fmt, *lay, rows.data(), k.data(), row.data(), block.data(), n, offset.data(), plane.data()), line))
    return;
  line->assign("ok");
  for (size_t i = 0; i < n; ++i) {
    *line += ' ';
    append_decimal(line, offset[i]);
    *line += '/';
    append_decimal(line, plane[i]);
  }
}

}  // namespace

void abi_answer(const nc_plugin_v1& table, std::string_view request, std::string* line) {
  const Tokens t = split(request, ' ');
  const std::string_view verb = t[0];
  if (verb == "hello") {
    line->assign("ok ");
    *line += single_token(table.name, "unnamed");
    *line += ' ';
    *line += single_token(table.version, "0");
    return;
  }
  if (verb == "decode") return decode(table, t, line);
  if (verb == "validate") return validate(table, t, line);
  if (verb == "parse") return parse(table, t, line);
  if (verb == "reconstruct") return reconstruct(table, t, line);
  if (verb == "convert") return convert(table, t, line);
  if (verb == "encode") return encode(table, t, line);
  if (verb == "validate-tensor") return validate_tensor(table, t, line);
  if (verb == "dequantize") return dequantize(table, t, line);
  if (verb == "layout") return layout(table, t, line);
  unsupported(line);
}

}  // namespace nc::runners
