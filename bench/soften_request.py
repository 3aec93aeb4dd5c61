#!/usr/bin/env python3
"""Gives a binary AutoShardingSolverRequest a soft memory budget, for bench/soft_budget.sh.

    bench/soften_request.py IN.pb OUT.pb BUDGET COEFF

Appends memory_budget (field 2) and overbudget_coeff (field 18, a message with one double)
to the message: where a field repeats, protobuf keeps the last, so no parser is needed.
"""
import struct
import sys


def varint(n):
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    source, target, budget, coeff = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    inner = b"\x09" + struct.pack("<d", coeff)  # field 1, 64-bit
    extra = varint(2 << 3) + varint(budget) + varint((18 << 3) | 2) + varint(len(inner)) + inner
    with open(source, "rb") as f:
        data = f.read()
    with open(target, "wb") as f:
        f.write(data + extra)


if __name__ == "__main__":
    main()
