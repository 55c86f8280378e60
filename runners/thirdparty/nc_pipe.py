"""The pipe protocol (runners/PIPE.md) loop shared by the Python adapters.

An adapter supplies its name, version and a dict of request handlers; each handler takes the
request's tokens after the op and returns the response tokens, or None for `unsupported`. This
module knows no library's conventions: those stay in each adapter file.

numpy (and each adapter's library) is imported on the first request that needs it, not at
start-up: the runner starts a fresh adapter per suite, and most suites are requests these
adapters answer `unsupported`, so start-up cost would dominate a certification.
"""
import sys


def hex_words(tokens):
    """Hex tokens -> uint32 array (any case, no 0x)."""
    import numpy as np
    return np.array([int(t, 16) for t in tokens], dtype=np.uint32)


def fmt_words(words, digits):
    """uint array -> lowercase fixed-width hex tokens."""
    return [format(int(w), "0%dx" % digits) for w in words.tolist()]


def serve(name, version, handlers):
    """handlers: op -> (selectors, fn). A request whose first argument is not in selectors is
    answered `unsupported` without calling fn (and so without importing anything)."""
    out = sys.stdout
    for line in sys.stdin:
        tokens = line.rstrip("\n").split(" ")
        op, args = tokens[0], tokens[1:]
        if op == "hello":
            reply = "ok %s %s" % (name, version)
        elif op in handlers and args and args[0] in handlers[op][0]:
            try:
                import numpy as np
                with np.errstate(all="ignore"):  # NaN casts are the point, not a problem
                    result = handlers[op][1](args)
                reply = "unsupported" if result is None else " ".join(["ok"] + result)
            except Exception as e:  # one bad request must not kill the session
                reply = "error " + " ".join(("%s: %s" % (type(e).__name__, e)).split())
        else:
            reply = "unsupported"
        out.write(reply + "\n")
        out.flush()
