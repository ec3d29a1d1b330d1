#!/usr/bin/env python3
"""Writes demo.fxt, the small FXT archive `make demo` shows (little-endian):
magic, provider info, initialization, strings, a thread, events of several
types with arguments, a kernel object, a log record and a blob.
Usage: python3 tests/data/fxt/make_demo.py tests/data/fxt/demo.fxt"""
import struct
import sys

out = bytearray()


def word(v):
    out.extend(struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF))


def stream(b):
    out.extend(b + b"\0" * (-len(b) % 8))


def words(b):
    return (len(b) + 7) // 8


def string(index, s):
    b = s.encode()
    word(2 | (1 + words(b)) << 4 | index << 16 | len(b) << 32)
    stream(b)


def event(etype, thread, cat, name, ticks, args, extra=None):
    body = [ticks]
    argw = b"".join(args)
    size = 2 + len(argw) // 8 + (1 if extra is not None else 0)
    word(4 | size << 4 | etype << 16 | (len(args)) << 20 | thread << 24 | cat << 32 | name << 48)
    for v in body:
        word(v)
    out.extend(argw)
    if extra is not None:
        word(extra)


def arg_i32(name, v):
    return struct.pack("<Q", 1 | 1 << 4 | name << 16 | (v & 0xFFFFFFFF) << 32)


def arg_u64(name, v):
    return struct.pack("<QQ", 4 | 2 << 4 | name << 16, v)


def arg_str(name, v):
    return struct.pack("<Q", 6 | 1 << 4 | name << 16 | v << 32)


def arg_double(name, v):
    return struct.pack("<Qd", 5 | 2 << 4 | name << 16, v)


word(0x0016547846040010)                       # magic
name = b"demo-provider"
word(0 | (1 + words(name)) << 4 | 1 << 16 | 42 << 20 | len(name) << 52)
stream(name)                                   # provider info 42
word(1 | 2 << 4)                               # initialization: 1 GHz
word(1000000000)
for i, s in enumerate(["gfx", "frame", "draw", "count", "status", "ok", "fps", "bytes"], 1):
    string(i, s)
word(3 | 3 << 4 | 1 << 16)                     # thread 1 = pid 1000 / tid 1001
word(1000)
word(1001)
kname = b"render-thread"                       # kernel object: thread 1001, arg process=1000
word(7 | (5 + words(kname)) << 4 | 2 << 16 | (0x8000 | len(kname)) << 24 | 1 << 40)
word(1001)
stream(kname)
word(8 | 3 << 4 | (0x8000 | 7) << 16)          # koid argument, inline name "process"
stream(b"process")
word(1000)
for f in range(3):
    t = 1000000 + f * 16666667
    event(2, 1, 1, 2, t, [arg_i32(4, f)])                           # frame begin
    event(2, 1, 1, 3, t + 1000, [arg_str(5, 6)])                    # draw begin
    event(3, 1, 1, 3, t + 9000, [])                                 # draw end
    event(1, 1, 1, 7, t + 9500, [arg_double(7, 60.0 - f), arg_u64(8, 4096 * f)], extra=1)
    event(3, 1, 1, 2, t + 12000, [])                                # frame end
msg = b"frame loop finished"
word(9 | (2 + words(msg)) << 4 | len(msg) << 16 | 1 << 32)
word(60000000)
stream(msg)
blob = bytes(range(12))
word(5 | (2 + words(blob)) << 4 | (0x8000 | 4) << 16 | len(blob) << 32 | 1 << 48)
stream(b"blob")
stream(blob)

with open(sys.argv[1], "wb") as f:
    f.write(out)
