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
`convert` methods are the handlers themselves, so the two paths cannot drift. Its `reconstruct`
and `dequantize` methods take the arrays the package passes, write the request's tokens as the
runner writes them on the pipe (the corpus's fixed-width hex words, PIPE.md "Requests"), call the
same token handler `serve` calls, and read its answer tokens back into words: one handler, both
paths.
"""
import sys
import threading

# Result width in hex digits of a text response, by op and selector (the corpus vocabulary).
CONVERT_DIGITS = {"F32_TO_BF16_RNE": 4, "F32_TO_F16_RNE": 4, "F32_TO_E4M3FN_RNE_SATFINITE": 2,
                  "F32_TO_E4M3FN_RNE_OVF_NAN": 2, "F32_TO_E2M1_RNE_SATFINITE": 1}


# Hex digits of a format's code and scale words in reconstruct and dequantize requests (the
# corpus's widths: vectors/FORMAT.md; a divisor is a binary32 word, 8 digits).
TOKEN_DIGITS = {"Q4G64_F16S": (2, 4), "Q5G64_F16S": (2, 4), "Q6G64_F16S": (2, 4), "W8G32_F16S": (2, 4),
                "NVFP4": (1, 2), "FP8_E4M3FN_ROW_BF16S": (2, 4)}


class UnsupportedRequest(Exception):
    """Raised by a token handler for a request its library cannot express: answered `unsupported`."""


def digits(op, selector):
    return 8 if op == "decode" else CONVERT_DIGITS[selector]


def run(handlers, op, selector, words):
    """The handler's result words as the array it returned (in process the package reads any
    unsigned width as it is: no widening copy)."""
    import numpy as np
    with np.errstate(all="ignore"):  # NaN casts are the point, not a problem
        return np.asarray(handlers[op][1](selector, words))


def run_u4(handlers, op, selector, words):
    """The handler's result words as little-endian uint32, as the pipe carries them."""
    return run(handlers, op, selector, words).astype("<u4")


def token_answer(handlers, op, selector, tokens):
    """A token handler's answer tokens (strings after `ok`) to a request's tokens after the selector."""
    import numpy as np
    with np.errstate(all="ignore"):
        return list(handlers[op][1](selector, tokens))


def text_reply(handlers, op, args):
    import numpy as np
    if op not in ("decode", "convert"):  # token handlers: reconstruct, dequantize
        return " ".join(["ok"] + token_answer(handlers, op, args[0], args[1:]))
    words = np.array([int(t, 16) for t in args[1:]], dtype=np.uint32)
    width = "0%dx" % digits(op, args[0])
    return " ".join(["ok"] + [format(w, width) for w in run_u4(handlers, op, args[0], words).tolist()])


def binary_reply(handlers, op, selector, payload):
    import numpy as np
    result = run_u4(handlers, op, selector, np.frombuffer(payload, dtype="<u4").astype(np.uint32))
    validity = b"\x01" * len(result) if op == "decode" else b""
    return b"ok\n" + result.tobytes() + validity


class Adapter:
    """One library's conversions: name, version, handlers (op -> (selectors, fn)) and info (a
    function returning {KEY: VALUE} of the configuration the conversions run in: dispatch level,
    threads, shapes; None when the library reports none). `serve(adapter)` answers the pipe;
    the object itself is an in-process target of the Python package (its decode and convert, and
    reconstruct and dequantize through the token handlers).

    In process the runner's threads call it at once, where a pipe adapter process answers one
    request at a time. So the token handlers, and the first call of each decode or convert (where
    an adapter imports its library lazily), run one at a time under a lock: two threads importing
    torchao's modules at once stop with a _DeadlockError, and torchao's Float8Tensor dequantize,
    called from two threads at once, answered wrong words (8,330 of 20,320 reconstruct records
    failed, against 252 through the pipe). Later decode and convert calls run unlocked, so a cast
    that releases the GIL runs beside the runner's other thread."""

    def __init__(self, name, version, handlers, info=None):
        self.name, self.version, self.handlers, self.info = name, version, handlers, info
        self._lock, self._warm = threading.Lock(), set()

    def _words(self, op, selector, words):
        if op not in self.handlers or selector not in self.handlers[op][0]:
            return None  # unsupported, as on the pipe
        if (op, selector) in self._warm:
            return run(self.handlers, op, selector, words)
        with self._lock:
            result = run(self.handlers, op, selector, words)
            self._warm.add((op, selector))
            return result

    def decode(self, word_type, words):
        return self._words("decode", word_type, words)

    def convert(self, recipe, words):
        return self._words("convert", recipe, words)

    def _tokens(self, op, selector, tokens):
        """The token handler's answer to the request tokens the pipe would carry, or None for
        `unsupported` (a selector not served, or UnsupportedRequest), as `serve` answers."""
        if op not in self.handlers or selector not in self.handlers[op][0]:
            return None
        try:
            with self._lock:
                return token_answer(self.handlers, op, selector, tokens)
        except UnsupportedRequest:
            return None

    def reconstruct(self, fmt, code, scale, divisor):
        """`reconstruct FMT C:S[:D]...`; returns the binary32 words, with their validity where an
        answer is `invalid` (a pair without a value)."""
        import numpy as np
        c, s = TOKEN_DIGITS.get(fmt, (8, 8))
        pattern = "%%0%dx:%%0%dx" % (c, s)
        if divisor is None:
            tokens = [pattern % (a, b) for a, b in zip(code.tolist(), scale.tolist())]
        else:
            tokens = [(pattern + ":%08x") % e for e in zip(code.tolist(), scale.tolist(), divisor.tolist())]
        answer = self._tokens("reconstruct", fmt, tokens)
        if answer is None:
            return None
        valid = np.array([t != "invalid" for t in answer], dtype=np.uint8)
        bits = np.array([answer_word(t) if t != "invalid" else 0 for t in answer], dtype=np.uint32)
        return bits if valid.all() else (bits, valid)

    def dequantize(self, fmt, shape, codes, scales, divisor):
        """`dequantize FMT SHAPE CODES SCALES DIVISOR`; returns the binary32 words, row-major."""
        import numpy as np
        c, s = TOKEN_DIGITS.get(fmt, (8, 8))
        tokens = ["x".join(map(str, shape)), ",".join("%0*x" % (c, w) for w in codes.tolist()),
                  ",".join("%0*x" % (s, w) for w in scales.tolist()), "-" if divisor is None else "%08x" % divisor]
        answer = self._tokens("dequantize", fmt, tokens)
        if answer is None:
            return None
        if len(answer) != 1:
            raise ValueError("dequantize answered %d tokens, not one comma list" % len(answer))
        return np.array([answer_word(t) for t in answer[0].split(",")] if answer[0] else [], dtype=np.uint32)


def answer_word(token):
    """A binary32 answer word as the runner reads one (8 lowercase hex digits: PIPE.md)."""
    if len(token) != 8 or token != token.lower():
        raise ValueError("protocol error: answer word %r is not 8 lowercase hex digits" % token)
    return int(token, 16)


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
