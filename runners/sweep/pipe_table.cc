#include "runners/sweep/pipe_table.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
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
    case Response::Kind::Ok: return NC_OK;
    case Response::Kind::Unsupported: return NC_EUNSUPPORTED;
    case Response::Kind::Error: return fail(first_word, "adapter answered error to '" + request + "': " + r.message);
    case Response::Kind::Dead: return fail(first_word, "adapter failed on '" + request + "': " + r.message);
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
    if constexpr (std::endian::native == std::endian::little)
      std::memcpy(out, reply.data(), 4 * n);
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
  return word_request(Capability::Convert, std::string(runners::recipe_name(recipe)), 8, src, n, out, nullptr,
                      false);
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
  return &g_table;
}

std::string take_pipe_table_error() {
  std::lock_guard<std::mutex> lock(g.mu);
  return std::exchange(g.first_error, std::string());
}

}  // namespace nc::sweep
