#!/usr/bin/env python3
"""A minimal NInfer conformance pipe adapter (runners/PIPE.md), standard library only.

It implements `decode` for every word type straight from the spec (numeric-formats.txt sections
3.1, 3.3, 5) and answers `unsupported` to everything else. Run it with

    ninfer-conform replay --target 'pipe:python3 targets/examples/pipe_adapter.py' --suite 'decode.*'
"""
import sys


def binary32_bits(sign, m, e):
    """Bits of the binary32 value (-1)^sign * m * 2^e, which must be exactly representable."""
    if m == 0:
        return sign << 31
    top = m.bit_length() - 1
    exp = top + e  # unbiased exponent of the leading bit
    if exp >= -126:
        shift = 23 - top
        frac = (m << shift if shift >= 0 else m >> -shift) & 0x7FFFFF
        return (sign << 31) | ((exp + 127) << 23) | frac
    return (sign << 31) | (m << (e + 149))  # subnormal: m * 2^e = frac * 2^-149


def quiet_nan(sign):
    return (sign << 31) | 0x7FC00000


def decode_f16(w):
    sign, e, f = w >> 15, (w >> 10) & 0x1F, w & 0x3FF
    if e == 0x1F:  # infinity or NaN: keep sign, quiet bit and payload, widened by 13 bits
        return (sign << 31) | 0x7F800000 | (f << 13)
    if e == 0:
        return binary32_bits(sign, f, -24)
    return binary32_bits(sign, 0x400 | f, e - 25)


def decode_e4m3fn(w):
    sign, e, m = w >> 7, (w >> 3) & 0xF, w & 0x7
    if e == 15 and m == 7:
        return quiet_nan(sign)  # E4M3FN has no infinities; this is its only NaN pattern
    if e == 0:
        return binary32_bits(sign, m, -9)
    return binary32_bits(sign, 8 | m, e - 10)


E2M1_HALVES = [0, 1, 2, 3, 4, 6, 8, 12]  # 0, 0.5, 1, 1.5, 2, 3, 4, 6 in units of 1/2


def decode_e2m1(w):
    return binary32_bits(w >> 3, E2M1_HALVES[w & 7], -1)


FLOAT_DECODERS = {
    "BF16": lambda w: w << 16,
    "FP32": lambda w: w,
    "F16": decode_f16,
    "E4M3FN": decode_e4m3fn,
    "E2M1": decode_e2m1,
}
CODE_WIDTHS = {"I32": 32, "Q4G64_F16S.code": 4, "Q5G64_F16S.code": 5, "Q6G64_F16S.code": 6,
               "W8G32_F16S.code": 8}


def decode_token(wt, word):
    w = int(word, 16)
    if wt in FLOAT_DECODERS:
        return "%08x" % FLOAT_DECODERS[wt](w)
    bits = CODE_WIDTHS[wt]
    if wt == "W8G32_F16S.code" and w == 0x80:
        return "invalid"  # -128 is outside W8's legal interval [-127, 127]
    return str(w - (1 << bits) if w >= 1 << (bits - 1) else w)


def answer(line):
    tokens = line.split(" ")
    if tokens[0] == "hello":
        return "ok python-example-adapter 1.0"
    if tokens[0] == "decode" and len(tokens) >= 2:
        wt = tokens[1]
        if wt not in FLOAT_DECODERS and wt not in CODE_WIDTHS:
            return "unsupported"
        try:
            return "ok " + " ".join(decode_token(wt, w) for w in tokens[2:])
        except ValueError:
            return "error malformed word"
    return "unsupported"


def main():
    for line in sys.stdin:
        sys.stdout.write(answer(line.rstrip("\n")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
