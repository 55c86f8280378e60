// libFuzzer harness: the runner's side of the pipe protocol (runners/pipe_target.cc, PIPE.md) on
// arbitrary adapter output, in text requests and in binary batches. The input is what the adapter
// writes after its hello line: byte 0 picks text or binary for each of up to 8 requests, byte 1
// the element count, the rest is the adapter's stdout. The adapter answers hello, waits
// for the first request, writes the rest of that script, then closes its output and drains its
// input, so every call ends at end of output and never waits for the timeout. Every answer must become Ok (one token
// per element, or the exact reply bytes), Unsupported, Error or Dead; never a crash, a hang or a token count that
// disagrees with the request.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runners/pipe_target.h"
#include "runners/target_factory.h"
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
  const size_t n = 1 + data[1] % 16;
  {
    FILE* f = std::fopen(script_path().c_str(), "wb");
    check(f != nullptr);
    std::fputs("ok fuzz-adapter 1\n", f);
    std::fwrite(data + 2, 1, size - 2, f);
    std::fclose(f);
  }
  // The hello answer once hello has arrived, the rest once the first request has: an adapter that
  // answers before it is asked is out of step, and start() rightly refuses it.
  const std::string s = shell_quote(script_path());
  PipeTarget t("read -r _; head -n 1 " + s + "; read -r _; tail -n +2 " + s + "; exec >&-; exec cat >/dev/null", 5);
  std::string why;
  if (!t.start(&why)) {  // an error return (a hello timeout on a loaded machine) is allowed; say it
    std::fprintf(stderr, "fuzz_pipe_answer: start refused: %s\n", why.c_str());
    return 0;
  }
  // Up to 8 requests on one adapter, until it is dead: bit i of byte 0 makes request i a binary
  // batch, so answers left over from one request (a desynchronised adapter) meet the next.
  for (int i = 0; i < 8; ++i) {
    Response r;
    if ((data[0] >> i) & 1) {
      if (!t.binary()) break;
      std::vector<uint8_t> payload(4 * n, 0x5a), reply(5 * n);
      r = t.call_binary("bin decode E4M3FN " + std::to_string(n), payload.data(), payload.size(), reply.data(),
                        reply.size());
      check(r.token_count() == 0);
    } else {
      Request req{Capability::Decode, "E4M3FN", {}};
      for (size_t k = 0; k < n; ++k) append_hex_word(&req.add_element(), k, 2);
      r = t.call(req);
      if (r.kind == Response::Kind::Ok) {
        check(r.token_count() == n);
        for (size_t k = 0; k < n; ++k) {  // what replay does next with a token
          const std::string_view tok = r.token(k);
          uint64_t w;
          (void)parse_hex(tok, &w);
          (void)is_binary32_token(tok);
        }
      }
    }
    if (r.kind == Response::Kind::Error || r.kind == Response::Kind::Dead) check(!r.message.empty());
    if (r.kind == Response::Kind::Dead) break;
  }
  t.finish_suite();
  return 0;
}
