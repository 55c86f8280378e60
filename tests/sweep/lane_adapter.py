#!/usr/bin/env python3
"""A pipe adapter (runners/PIPE.md) whose result depends on where an input sits in a batch, for the
batch-geometry tests: F32_TO_BF16_RNE as the recipe, except that NaNs in full groups of 8 elements
(lanes 0-7 of each 8, as an 8-lane vector loop would take them) lose their sign; the tail (the last
n mod 8 of a batch of n), done one element at a time, keeps it. Standard library only.

    --tail-truncates   the tail also rounds toward zero (a scalar path with its own bug), a real
                       mismatch that only batches whose length is not a multiple of 8 show
"""
import struct
import sys

LANES = 8
tail_truncates = "--tail-truncates" in sys.argv[1:]


def bf16_rne(w):
    if (w & 0x7FFFFFFF) > 0x7F800000:
        return (w >> 16) | 0x0040  # quiet, sign and top payload kept, as docs/recipes.md
    return (w + 0x7FFF + ((w >> 16) & 1)) >> 16


def convert(words):
    full = len(words) - len(words) % LANES
    out = []
    for i, w in enumerate(words):
        r = bf16_rne(w)
        if i < full and (w & 0x7FFFFFFF) > 0x7F800000:
            r &= 0x7FFF  # the vector path drops the NaN's sign
        elif i >= full and tail_truncates and (w & 0x7FFFFFFF) <= 0x7F800000:
            r = w >> 16
        out.append(r)
    return out


inp, out = sys.stdin.buffer, sys.stdout.buffer
for raw in iter(inp.readline, b""):
    t = raw.decode().split()
    if t[0] == "hello":
        reply = b"ok lane-bf16 0.1\n"
    elif t[0] == "binary":
        reply = b"ok\n"
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
