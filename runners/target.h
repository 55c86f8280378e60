// A target: one implementation under test, driven in batches over the pipe protocol's vocabulary
// (runners/PIPE.md). Every request names one capability of include/ninfer_conform/plugin.h; the
// answer distinguishes "unsupported" (cases untested) from an error (cases are target errors) and
// from a dead target (crash, hang, lying output: the rest of the suite is lost, the run goes on).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ninfer_conform/plugin.h"

namespace nc::runners {

// The capabilities of nc_plugin_v1, one per entry point, spelled as the pipe request verbs.
enum class Capability { Decode, Validate, Parse, Reconstruct, Convert, Encode, ValidateTensor, Dequantize, Layout };
inline constexpr int kCapabilityCount = 9;
const char* capability_verb(Capability c);  // "decode", "validate-tensor", ...
bool capability_from_op(const std::string& op, Capability* out);

struct Request {
  Capability cap;
  std::string selector;  // WT, FMT.COMP, FMT, RECIPE, "FMT SRCTYPE", ... ("" for parse)
  // The elements in pipe syntax, each after one space, as they end the request line (" 7e 01"):
  // one buffer for a whole batch, so an element costs an append and the line one more.
  std::string elements;
  size_t count = 0;  // elements in `elements`
  // Starts one more element: returns `elements` for the caller to append the element's text to.
  std::string& add_element() {
    ++count;
    return elements += ' ';
  }
  void clear_elements() { elements.clear(), count = 0; }
};

struct Response {
  enum class Kind { Ok, Unsupported, Error, Dead } kind = Kind::Ok;
  // Ok: the answer line ("ok 3f800000 invalid") and where each result token in it starts. Offsets,
  // not views: a view into `line` would dangle once the Response moves (a short line lives inside
  // the string object).
  std::string line;
  std::vector<size_t> token_starts;
  std::string message;  // Error / Dead: why, in one line

  // Indexes the tokens of an ok `line`: what lies between single spaces after "ok" (none in "ok").
  void index_tokens();
  size_t token_count() const { return token_starts.size(); }
  std::string_view token(size_t i) const {
    const size_t end = i + 1 < token_starts.size() ? token_starts[i + 1] - 1 : line.size();
    return std::string_view(line).substr(token_starts[i], end - token_starts[i]);
  }
};

class Target {
 public:
  virtual ~Target() = default;
  // Starts (or restarts) the implementation; false with *why on failure.
  virtual bool start(std::string* why) = 0;
  virtual Response call(const Request& r) = 0;
  // Called after each suite. Returns what the target did wrong after its last answer ("" if
  // nothing): output no request asked for, such as a second answer to the last request. A pipe
  // target's process lives on for the next suite unless it did something wrong.
  virtual std::string finish_suite() { return {}; }
  virtual std::string name() const = 0;  // self-reported, valid after start()
  virtual std::string version() const = 0;
  // What the target reports of the configuration it runs in (dispatch level, threads, shapes):
  // `KEY=VALUE` tokens, printable, "" when it reports nothing. Asked once, after start(), by
  // certify (runners/PIPE.md `info 1`); optional for every target.
  virtual std::string info() { return {}; }
};

// Request line as sent on the pipe ("decode E4M3FN 7e 01").
std::string request_line(const Request& r);

}  // namespace nc::runners
