"""The pipe protocol (runners/PIPE.md) loop shared by the Python adapters, text and binary batches.

An adapter supplies its name, version and a dict of request handlers: op -> (selectors, fn).
For `decode` and `convert`, fn(selector, words) takes the input words as a numpy uint32 array and
returns the result words as an unsigned array: binary32 bits for decode (the float word types,
every word valid), the destination word for convert. This module does the framing both ways, so
each adapter holds only its library's conventions. Any other op (`reconstruct`, `dequantize`) is
text only: fn(selector, tokens) takes the request's tokens after the selector and returns the
response tokens (strings) after `ok`.

numpy (and each adapter's library) is imported on the first request that needs it, not at
start-up: an adapter asked only for what it answers `unsupported` (most suites), or restarted after
a failure, starts at once.

The same description runs in process too (issue 31, README "From Python"): an `Adapter` is both
what `serve` answers on the pipe and a target object of the Python package, whose `decode` and
`convert` methods are the handlers themselves, so the two paths cannot drift. The token ops
(`reconstruct`, `dequantize`) are served on the pipe only.
"""
import sys

# Result width in hex digits of a text response, by op and selector (the corpus vocabulary).
CONVERT_DIGITS = {"F32_TO_BF16_RNE": 4, "F32_TO_F16_RNE": 4, "F32_TO_E4M3FN_RNE_SATFINITE": 2,
                  "F32_TO_E4M3FN_RNE_OVF_NAN": 2, "F32_TO_E2M1_RNE_SATFINITE": 1}


class UnsupportedRequest(Exception):
    """Raised by a token handler for a request its library cannot express: answered `unsupported`."""


def digits(op, selector):
    return 8 if op == "decode" else CONVERT_DIGITS[selector]


def run(handlers, op, selector, words):
    """The handler's result words as little-endian uint32, or None for `unsupported`."""
    import numpy as np
    with np.errstate(all="ignore"):  # NaN casts are the point, not a problem
        return np.asarray(handlers[op][1](selector, words)).astype("<u4")


def text_reply(handlers, op, args):
    import numpy as np
    if op not in ("decode", "convert"):  # token handlers: reconstruct, dequantize
        with np.errstate(all="ignore"):
            return " ".join(["ok"] + list(handlers[op][1](args[0], args[1:])))
    words = np.array([int(t, 16) for t in args[1:]], dtype=np.uint32)
    width = "0%dx" % digits(op, args[0])
    return " ".join(["ok"] + [format(w, width) for w in run(handlers, op, args[0], words).tolist()])


def binary_reply(handlers, op, selector, payload):
    import numpy as np
    result = run(handlers, op, selector, np.frombuffer(payload, dtype="<u4").astype(np.uint32))
    validity = b"\x01" * len(result) if op == "decode" else b""
    return b"ok\n" + result.tobytes() + validity


class Adapter:
    """One library's conversions: name, version, handlers (op -> (selectors, fn)) and info (a
    function returning {KEY: VALUE} of the configuration the conversions run in: dispatch level,
    threads, shapes; None when the library reports none). `serve(adapter)` answers the pipe;
    the object itself is an in-process target of the Python package (its decode and convert)."""

    def __init__(self, name, version, handlers, info=None):
        self.name, self.version, self.handlers, self.info = name, version, handlers, info

    def _words(self, op, selector, words):
        if op not in self.handlers or selector not in self.handlers[op][0]:
            return None  # unsupported, as on the pipe
        return run(self.handlers, op, selector, words)

    def decode(self, word_type, words):
        return self._words("decode", word_type, words)

    def convert(self, recipe, words):
        return self._words("convert", recipe, words)


def serve(adapter):
    """Answers requests on stdin until it closes. A request whose selector is not in the handler's
    selectors is answered `unsupported` without calling fn (and so without importing anything);
    `info 1` is unsupported for an adapter without info."""
    name, version, handlers, info = adapter.name, adapter.version, adapter.handlers, adapter.info
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    for raw in iter(inp.readline, b""):
        tokens = raw.decode("ascii", "replace").rstrip("\n").split(" ")
        binary = tokens[0] == "bin"
        if binary:  # `bin OP SELECTOR N` + 4N payload bytes, consumed whatever the answer
            payload = inp.read(4 * int(tokens[3])) if len(tokens) == 4 and tokens[3].isdigit() else b""
            tokens = tokens[1:3]
        op, args = tokens[0], tokens[1:]
        try:
            if op == "hello":
                reply = ("ok %s %s" % (name, version)).encode()
            elif op == "binary" and args == ["1"]:
                reply = b"ok"
            elif op == "info" and args == ["1"] and info:
                items = info()
                reply = " ".join(["ok"] + ["%s=%s" % (k, "_".join(str(v).split()) or "-") for k, v in items.items()]).encode()
            elif op in handlers and args and args[0] in handlers[op][0] and (not binary or op in ("decode", "convert")):
                if binary:
                    reply = binary_reply(handlers, op, args[0], payload)
                else:
                    reply = text_reply(handlers, op, args).encode()
            else:
                reply = b"unsupported"
        except UnsupportedRequest:
            reply = b"unsupported"
        except Exception as e:  # one bad request must not kill the session
            reply = ("error " + " ".join(("%s: %s" % (type(e).__name__, e)).split())).encode()
        out.write(reply if reply.startswith(b"ok\n") else reply + b"\n")
        out.flush()
