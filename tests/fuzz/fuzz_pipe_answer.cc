// libFuzzer harness: the runner's side of the pipe protocol (runners/pipe_target.cc, PIPE.md) on
// arbitrary adapter output, in text requests and in binary batches. The input is what the adapter
// writes after its hello line: byte 0 picks text (even) or binary (odd), byte 1 the element count,
// the rest is the adapter's stdout. The adapter is `cat` of that script, which then closes its
// output and drains its input, so every call ends at end of output and never waits for the
// timeout. Every answer must become Ok (one token per element, or the exact reply bytes),
// Unsupported, Error or Dead; never a crash, a hang or a token count that disagrees with the request.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runners/pipe_target.h"
#include "runners/tokens.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}

const std::string& script_path() {
  static const std::string path = [] {
    char name[] = "/tmp/nc-fuzz-pipe-XXXXXX";
    int fd = mkstemp(name);
    check(fd >= 0);
    close(fd);
    return std::string(name);
  }();
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nc::runners;
  if (size < 2) return 0;
  const bool binary_batch = data[0] & 1;
  const size_t n = 1 + data[1] % 16;
  {
    FILE* f = std::fopen(script_path().c_str(), "wb");
    check(f != nullptr);
    std::fputs("ok fuzz-adapter 1\n", f);
    std::fwrite(data + 2, 1, size - 2, f);
    std::fclose(f);
  }
  PipeTarget t("cat " + shell_quote(script_path()) + "; exec >&-; exec cat >/dev/null", 5);
  std::string why;
  check(t.start(&why));
  if (binary_batch) {
    if (!t.binary()) return 0;
    std::vector<uint8_t> payload(4 * n, 0x5a), reply(5 * n);
    Response r = t.call_binary("bin decode E4M3FN " + std::to_string(n), payload.data(), payload.size(), reply.data(), reply.size());
    check(r.tokens.empty());
    check((r.kind == Response::Kind::Error || r.kind == Response::Kind::Dead) ? !r.message.empty() : true);
  } else {
    Request req{Capability::Decode, "E4M3FN", {}};
    for (size_t k = 0; k < n; ++k) req.elements.push_back(hex_word(k, 2));
    Response r = t.call(req);
    if (r.kind == Response::Kind::Ok) {
      check(r.tokens.size() == n);
      // What replay does next with a token: parse it as a result word.
      for (const std::string& tok : r.tokens) {
        uint64_t w;
        (void)parse_hex(tok, &w);
        (void)is_binary32_token(tok);
      }
    } else if (r.kind != Response::Kind::Unsupported) {
      check(!r.message.empty());
    }
  }
  t.finish_suite();
  return 0;
}
