#!/usr/bin/env python3
"""A pipe adapter (runners/PIPE.md) with a planted bug, for the sweep tests: F32_TO_BF16_RNE done by
truncation (round toward zero), the classic cheap conversion; NaNs as the recipe. Standard library.

    --text-only     decline `binary 1`, so the runner falls back to text requests
    --die-at WORD   exit as soon as a batch holds this input word (hex): a crash mid-sweep
"""
import struct
import sys

args = sys.argv[1:]
text_only = "--text-only" in args
die_at = int(args[args.index("--die-at") + 1], 16) if "--die-at" in args else None


def bf16_truncate(w):
    if (w & 0x7FFFFFFF) > 0x7F800000:
        return (w >> 16) | 0x0040  # quiet, sign and top payload kept, as docs/recipes.md
    return w >> 16


def convert(words):
    if die_at in words:
        sys.exit(3)
    return [bf16_truncate(w) for w in words]


inp, out = sys.stdin.buffer, sys.stdout.buffer
for raw in iter(inp.readline, b""):
    t = raw.decode().split()
    if t[0] == "hello":
        reply = b"ok truncating-bf16 0.1\n"
    elif t[0] == "binary":
        reply = b"unsupported\n" if text_only else b"ok\n"
    elif t[0] == "bin":
        n = int(t[3])
        words = list(struct.unpack("<%dI" % n, inp.read(4 * n)))
        if t[1:3] == ["convert", "F32_TO_BF16_RNE"]:
            reply = b"ok\n" + struct.pack("<%dI" % n, *convert(words))
        else:
            reply = b"unsupported\n"
    elif t[:2] == ["convert", "F32_TO_BF16_RNE"]:
        reply = ("ok " + " ".join("%04x" % r for r in convert([int(w, 16) for w in t[2:]])) + "\n").encode()
    else:
        reply = b"unsupported\n"
    out.write(reply)
    out.flush()
