#!/usr/bin/python3
"""Events per second through the tracerd Python bindings (iterator and batch
paths) beside babeltrace2's Python bindings (bt2) reading the same CTF trace,
in the same run.

    make bench-python                    # builds the extension, then runs this
    TRACERD_BENCH_EVENTS=2000000 make bench-python

The trace (CTF 1.8, one stream, LTTng-like: packets of 64 KiB, a 2-byte event
id and a 64-bit timestamp in every event header, a vtid context, three event
classes with integer and string fields) is generated into a temporary folder.
Times are process CPU time, best of TRACERD_BENCH_RUNS (default 3) runs.
Every reader must see the same number of events and the same count per name.
"""
import collections
import os
import shutil
import struct
import sys
import tempfile
import time
import uuid as uuidlib

import tracerd

N = int(os.environ.get("TRACERD_BENCH_EVENTS", "1000000"))
RUNS = int(os.environ.get("TRACERD_BENCH_RUNS", "3"))
PACKET = 65536
UUID = uuidlib.UUID("4f8c1b2e-5a47-4c3d-9e61-2b7d0c9a8f13")

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
trace {
    major = 1;
    minor = 8;
    uuid = "%s";
    byte_order = le;
    packet.header := struct {
        uint32_t magic;
        uint8_t uuid[16];
        uint32_t stream_id;
    };
};
clock {
    name = monotonic;
    freq = 1000000000;
    offset_s = 1700000000;
};
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; }
    := clock_t;
stream {
    id = 0;
    packet.context := struct {
        clock_t timestamp_begin;
        clock_t timestamp_end;
        uint64_t content_size;
        uint64_t packet_size;
        uint32_t cpu_id;
    };
    event.header := struct {
        uint16_t id;
        clock_t timestamp;
    };
    event.context := struct {
        uint32_t vtid;
    };
};
event { name = "app:enter"; id = 0; stream_id = 0;
    fields := struct { uint64_t addr; int64_t value; }; };
event { name = "app:exit"; id = 1; stream_id = 0;
    fields := struct { uint64_t addr; }; };
event { name = "app:log"; id = 2; stream_id = 0;
    fields := struct { int64_t value; string msg; }; };
""" % UUID

HEADER = struct.Struct("<I16sI")
CONTEXT = struct.Struct("<QQQQI")
ENTER = struct.Struct("<HQIQq")
EXIT = struct.Struct("<HQIQ")
LOG = struct.Struct("<HQIq")
MSGS = [b"starting\0", b"a longer log message\0", b"x\0"]


def write_trace(folder, n):
    """n events: enter/exit pairs on 4 threads, a log event every 16th."""
    with open(os.path.join(folder, "metadata"), "w") as f:
        f.write(METADATA)
    head = HEADER.size + CONTEXT.size
    counts = collections.Counter()
    with open(os.path.join(folder, "stream_0"), "wb") as out:
        ts, i = 1000, 0
        while i < n:
            body = bytearray()
            begin = ts
            while i < n and head + len(body) + 64 <= PACKET:
                tid = 100 + (i >> 1) % 4
                ts += 7 + i % 5
                if i % 16 == 15:
                    body += LOG.pack(2, ts, tid, i) + MSGS[i % 3]
                    counts["app:log"] += 1
                elif i % 2 == 0:
                    body += ENTER.pack(0, ts, tid, 0x400000 + (i % 97) * 16, i)
                    counts["app:enter"] += 1
                else:
                    body += EXIT.pack(1, ts, tid, 0x400000 + ((i - 1) % 97) * 16)
                    counts["app:exit"] += 1
                i += 1
            bits = (head + len(body)) * 8
            out.write(HEADER.pack(0xC1FC1FC1, UUID.bytes, 0))
            out.write(CONTEXT.pack(begin, ts, bits, bits, 0))
            out.write(body)
    return counts


def cpu(fn):
    best, result = None, None
    for _ in range(RUNS):
        t0 = time.process_time()
        result = fn()
        dt = time.process_time() - t0
        best = dt if best is None or dt < best else best
    return best, result


def tracerd_iterate(path):
    n = 0
    for _ in tracerd.open(path):
        n += 1
    return n, None


def tracerd_iterate_names(path):
    c = collections.Counter()
    for ev in tracerd.open(path):
        c[ev.name] += 1
    return sum(c.values()), c


def tracerd_iterate_args(path):
    n = 0
    for ev in tracerd.open(path):
        ev.args  # the fields, as a dict
        n += 1
    return n, None


def tracerd_batch(path):
    n = 0
    with tracerd.open(path) as r:
        for b in r.batches(65536):
            n += len(b.times)
    return n, None


def tracerd_batch_numpy(path):
    import numpy as np

    counts = None
    with tracerd.open(path) as r:
        for b in r.batches(65536):
            c = np.bincount(np.asarray(b.names), minlength=len(b.name_table))
            counts = c if counts is None else np.pad(counts, (0, len(c) - len(counts))) + c
            table = b.name_table
    c = collections.Counter({table[i]: int(v) for i, v in enumerate(counts) if v})
    return sum(c.values()), c


def bt2_iterate(path, names):
    import bt2

    event_msg = bt2._EventMessageConst
    c = collections.Counter()
    n = 0
    for msg in bt2.TraceCollectionMessageIterator(path):
        if type(msg) is event_msg:
            n += 1
            if names:
                c[msg.event.name] += 1
    return n, (c if names else None)


def main():
    folder = tempfile.mkdtemp(prefix="tracerd-bench-ctf-")
    try:
        want = write_trace(folder, N)
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
        print(f"CTF trace: {N} events, {size / 1e6:.1f} MB ({folder}); CPU time, best of {RUNS}")
        print(f"python {sys.version.split()[0]}, tracerd {tracerd.library_version}")
        stream = os.path.join(folder, "stream_0")
        rows = []
        # tracerd reads the trace directory (CTF directory reader, streams merged by time,
        # what bt2 does) and the stream file alone (the auto reader, metadata beside it).
        for where, path in (("dir", folder), ("stream", stream)):
            rows += [
                (f"tracerd {where} iterator (count)", lambda p=path: tracerd_iterate(p)),
                (f"tracerd {where} iterator (count per name)",
                 lambda p=path: tracerd_iterate_names(p)),
                (f"tracerd {where} iterator (+ args dict)", lambda p=path: tracerd_iterate_args(p)),
                (f"tracerd {where} read_batch (count)", lambda p=path: tracerd_batch(p)),
            ]
            try:
                import numpy  # noqa: F401

                rows.append((f"tracerd {where} read_batch + numpy (per name)",
                             lambda p=path: tracerd_batch_numpy(p)))
            except ImportError:
                print("(numpy not installed: no numpy row)")
        try:
            import bt2  # noqa: F401

            rows.append(("bt2 (count)", lambda: bt2_iterate(folder, False)))
            rows.append(("bt2 (count per name)", lambda: bt2_iterate(folder, True)))
        except ImportError:
            print("(python3-bt2 not installed: no bt2 rows)")
        results = []
        for label, fn in rows:
            dt, (n, c) = cpu(fn)
            if n != N or (c is not None and c != want):
                print(f"{label}: read {n} events, want {N} (or other counts per name)")
                return 1
            results.append((label, dt))
        base = dict(results).get("bt2 (count)")
        print(f"{'path':46} {'seconds':>8} {'M events/s':>11} {'vs bt2':>7}")
        for label, dt in results:
            ratio = f"{base / dt:6.1f}x" if base else "   n/a"
            print(f"{label:46} {dt:8.3f} {N / dt / 1e6:11.2f} {ratio:>7}")
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
