#include "runners/sweep/pipe_table.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "runners/pipe_target.h"
#include "runners/tokens.h"
#include "runners/vocabulary.h"

namespace nc::sweep {
namespace {

using runners::Capability;
using runners::PipeTarget;
using runners::Response;

constexpr size_t kTextElements = 4096;  // PIPE.md: at most this many elements per text request

struct Shared {
  std::mutex mu;
  std::string command, name, version, first_error;
  uint32_t first_error_word = 0;  // the first input word of first_error's batch
  double timeout_s = 10;
  unsigned generation = 0;  // bumped by each pipe_table(): threads drop adapters of older tables
} g;

struct ThreadAdapter {
  unsigned generation = 0;
  std::unique_ptr<PipeTarget> target;
};
thread_local ThreadAdapter t_adapter;

int fail(uint32_t first_word, const std::string& why) {
  std::lock_guard<std::mutex> lock(g.mu);
  if (g.first_error.empty() || first_word < g.first_error_word) {
    g.first_error = why;
    g.first_error_word = first_word;
  }
  return NC_EINVALID;
}

// This thread's adapter for the current table, started (or restarted after a death) on demand.
PipeTarget* adapter(std::string* why) {
  unsigned generation;
  std::string command;
  double timeout_s;
  {
    std::lock_guard<std::mutex> lock(g.mu);
    generation = g.generation, command = g.command, timeout_s = g.timeout_s;
  }
  if (!t_adapter.target || t_adapter.generation != generation) {
    t_adapter.target = std::make_unique<PipeTarget>(command, timeout_s);
    t_adapter.generation = generation;
  }
  if (!t_adapter.target->start(why)) return nullptr;
  return t_adapter.target.get();
}

int from_response(const Response& r, const std::string& request, uint32_t first_word) {
  switch (r.kind) {
    case Response::Kind::Ok:
      return NC_OK;
    case Response::Kind::Unsupported:
      return NC_EUNSUPPORTED;
    case Response::Kind::Error:
      return fail(first_word, "adapter answered error to '" + request + "': " + r.message);
    case Response::Kind::Dead:
      return fail(first_word, "adapter failed on '" + request + "': " + r.message);
  }
  return NC_EINVALID;
}

// One batch of a word request ("decode WT" or "convert RECIPE"): out[k] the result word, and for
// decode valid[k] (nullptr for convert). in_digits: hex width of the input words in text requests.
int word_request(Capability cap, const std::string& selector, int in_digits, const uint32_t* in, size_t n,
                 uint32_t* out, uint8_t* valid, bool decimal_results) {
  if (n == 0) return NC_OK;
  std::string why;
  PipeTarget* a = adapter(&why);
  if (!a) return fail(in[0], why);
  const std::string request = std::string(runners::capability_verb(cap)) + " " + selector;
  if (a->binary()) {
    // Kept per thread: a fresh megabyte per batch costs page faults that show in the sweep's time.
    thread_local std::vector<uint8_t> payload, reply;
    payload.resize(4 * n);
    reply.resize(4 * n + (valid ? n : 0));
    if constexpr (std::endian::native == std::endian::little)  // the wire's byte order: a copy
      std::memcpy(payload.data(), in, 4 * n);
    else
      for (size_t k = 0; k < n; ++k)
        for (int b = 0; b < 4; ++b) payload[4 * k + size_t(b)] = uint8_t(in[k] >> (8 * b));
    const std::string header = "bin " + request + " " + std::to_string(n);
    Response r = a->call_binary(header, payload.data(), payload.size(), reply.data(), reply.size());
    if (int rc = from_response(r, header, in[0]); rc != NC_OK) return rc;
    if constexpr (std::endian::native == std::endian::little) std::memcpy(out, reply.data(), 4 * n);
    else
      for (size_t k = 0; k < n; ++k)
        out[k] = uint32_t(reply[4 * k]) | uint32_t(reply[4 * k + 1]) << 8 | uint32_t(reply[4 * k + 2]) << 16 |
                 uint32_t(reply[4 * k + 3]) << 24;
    if (valid)
      for (size_t k = 0; k < n; ++k) valid[k] = reply[4 * n + k] != 0;
    return NC_OK;
  }
  for (size_t start = 0; start < n; start += kTextElements) {
    runners::Request req{cap, selector, {}};
    for (size_t k = start; k < std::min(n, start + kTextElements); ++k)
      runners::append_hex_word(&req.add_element(), in[k], in_digits);
    Response r = a->call(req);
    if (int rc = from_response(r, request, in[0]); rc != NC_OK) return rc;
    for (size_t k = 0; k < r.token_count(); ++k) {
      const std::string_view t = r.token(k);
      uint64_t word = 0;
      int64_t value = 0;
      bool invalid = valid && t == "invalid";
      bool ok = invalid || (decimal_results ? runners::parse_dec(t, &value) : runners::parse_hex(t, &word));
      if (!ok)
        return fail(in[0], "adapter answered '" + request + "' with the malformed token '" + std::string(t) + "'");
      out[start + k] = invalid ? 0 : decimal_results ? uint32_t(int32_t(value)) : uint32_t(word);
      if (valid) valid[start + k] = !invalid;
    }
  }
  return NC_OK;
}

int pipe_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  return word_request(Capability::Decode, std::string(runners::word_type_name(wt)), runners::word_type_hex_digits(wt),
                      words, n, out, valid, !runners::word_type_is_float(wt));
}

int pipe_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  return word_request(Capability::Convert, std::string(runners::recipe_name(recipe)), 8, src, n, out, nullptr, false);
}

// One text request of one element; Ok: *token the answer's single token.
int one_element_request(runners::Request& req, uint32_t first_word, std::string* token) {
  std::string why;
  PipeTarget* a = adapter(&why);
  if (!a) return fail(first_word, why);
  const std::string line = runners::request_line(req);
  const std::string shown = line.size() > 200 ? line.substr(0, 200) + "..." : line;
  Response r = a->call(req);
  if (int rc = from_response(r, shown, first_word); rc != NC_OK) return rc;
  if (r.token_count() != 1)
    return fail(first_word,
                "adapter answered '" + shown + "' with " + std::to_string(r.token_count()) + " tokens, not 1");
  *token = std::string(r.token(0));
  return NC_OK;
}

// `parse HEX` (PIPE.md): the canonical name or `reject`.
int pipe_parse(const char* name, size_t len, int32_t* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  runners::Request req{Capability::Parse, "", {}};
  std::string& e = req.add_element();
  if (len == 0) e += "\"\"";
  for (size_t i = 0; i < len; ++i) e += kHex[uint8_t(name[i]) >> 4], e += kHex[uint8_t(name[i]) & 15];
  std::string token;
  if (int rc = one_element_request(req, 0, &token); rc != NC_OK) return rc;
  if (token == "reject") return *out = -1, NC_OK;
  const std::optional<nc_format> f = runners::format_token(token);
  if (!f) return fail(0, "adapter answered parse with the malformed token '" + token + "'");
  *out = int32_t(*f);
  return NC_OK;
}

// `validate-tensor FMT SHAPE CODES SCALES DIVISOR` (PIPE.md): `valid` or `!RULE@WHERE`.
int pipe_validate_tensor(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                         const uint32_t* scales, size_t n_scales, const uint32_t* divisor, int32_t* rule,
                         int64_t* where) {
  runners::Request req{Capability::ValidateTensor, std::string(runners::format_name(fmt)), {}};
  std::string& e = req.add_element();
  for (size_t i = 0; i < rank; ++i) {
    if (i) e += 'x';
    e += std::to_string(shape[i]);
  }
  // Word widths of the plane types (vectors/FORMAT.md): codes E2M1 1, E4M3FN and W8 2, Q4..Q6 2;
  // scales E4M3FN 2, binary16 and BF16 4.
  const int code_digits = fmt == NC_FORMAT_NVFP4 ? 1 : 2, scale_digits = fmt == NC_FORMAT_NVFP4 ? 2 : 4;
  auto plane = [&](const uint32_t* w, size_t n, int digits) {
    e += ' ';
    if (n == 0) return void(e += '-');
    for (size_t i = 0; i < n; ++i) {
      if (i) e += ',';
      runners::append_hex_word(&e, w[i], digits);
    }
  };
  plane(codes, n_codes, code_digits);
  plane(scales, n_scales, scale_digits);
  e += ' ';
  if (divisor) runners::append_hex_word(&e, *divisor, 8);
  else e += '-';
  std::string token;
  if (int rc = one_element_request(req, n_scales ? scales[0] : 0, &token); rc != NC_OK) return rc;
  if (token == "valid") return *rule = NC_RULE_NONE, *where = -1, NC_OK;
  const size_t at = token.find('@');
  if (token.size() < 3 || token[0] != '!' || at == std::string::npos)
    return fail(0, "adapter answered validate-tensor with the malformed token '" + token + "'");
  const std::string name = token.substr(1, at - 1), loc = token.substr(at + 1);
  for (int r = NC_RULE_SHAPE; r <= NC_RULE_DIVISOR; ++r)
    if (runners::rule_name(nc_rule(r)) == name) {
      *rule = r;
      *where = -1;
      int64_t v = 0;
      if (loc.size() > 1 && loc[0] == runners::rule_plane(nc_rule(r)) && runners::parse_dec(loc.substr(1), &v) &&
          v >= 0)
        *where = v;
      else if (loc != "-") return fail(0, "adapter answered validate-tensor with the malformed place '" + token + "'");
      return NC_OK;
    }
  return fail(0, "adapter answered validate-tensor with the unknown rule '" + token + "'");
}

nc_plugin_v1 g_table{};

}  // namespace

const nc_plugin_v1* pipe_table(const std::string& command, double timeout_s, std::string* why) {
  {
    std::lock_guard<std::mutex> lock(g.mu);
    g.command = command;
    g.timeout_s = timeout_s;
    g.first_error.clear();
    ++g.generation;
  }
  PipeTarget* a = adapter(why);  // the calling thread's adapter, kept for its first batches
  if (!a) return nullptr;
  g.name = a->name();
  g.version = a->version();
  g_table = nc_plugin_v1{};
  g_table.abi_version = NC_PLUGIN_ABI_VERSION;
  g_table.name = g.name.c_str();
  g_table.version = g.version.c_str();
  g_table.decode = pipe_decode;
  g_table.convert = pipe_convert;
  g_table.parse_format = pipe_parse;
  g_table.validate_tensor = pipe_validate_tensor;
  return &g_table;
}

std::string take_pipe_table_error() {
  std::lock_guard<std::mutex> lock(g.mu);
  return std::exchange(g.first_error, std::string());
}

}  // namespace nc::sweep
