"""Nothing leaks: reading a trace over and over under tracemalloc keeps the traced memory
flat (whole reads, errors, callback exceptions, batches, closes and abandoned readers)."""
import gc
import tracemalloc

import tracerd
from conftest import SAMPLES, XTRACE_SNAPSHOT


def one_round():
    for path in SAMPLES.values():
        for ev in tracerd.open(path):
            ev.args, ev.name, ev.asdict()
        with tracerd.open(path) as r:
            for b in r.batches(5):
                bytes(b.times), b.name_table
    data = SAMPLES["fxt"].read_bytes()
    bad = bytearray(data)
    bad[-8 * 4] = 0xFF
    try:
        list(tracerd.open(bytes(bad)))
    except tracerd.Error:
        pass

    def raiser(*a):
        raise KeyError("stop")

    try:
        list(tracerd.open(bytes(bad), lenient=True, on_warning=raiser))
    except KeyError:
        pass
    r = tracerd.Reader(max_pending=2)
    r.feed(data)
    next(r)  # abandoned while paused, events queued
    list(tracerd.xray.open(SAMPLES["xray-fdr-real"]))
    list(tracerd.fxt.open(SAMPLES["fxt"]))
    list(tracerd.xtrace.open(SAMPLES["xtrace"]))
    snap = tracerd.xtrace.SnapshotReader()
    snap.feed(XTRACE_SNAPSHOT.read_bytes()[:2720])  # abandoned inside snapshot 2's Z0 (being joined)
    list(tracerd.xtrace.open(XTRACE_SNAPSHOT))
    list(tracerd.ctf.open(SAMPLES["ctf-dir-bt2"]))
    list(tracerd.ctf.open(SAMPLES["ctf-stream"]))
    try:
        list(tracerd.fxt.open(bytes(bad)))
    except tracerd.Error:
        pass


def traced_after(rounds):
    for _ in range(rounds):
        one_round()
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def test_no_growth_under_tracemalloc():
    tracemalloc.start()
    try:
        traced_after(3)  # warm up: interned strings, type caches
        base = traced_after(1)
        after = traced_after(20)
    finally:
        tracemalloc.stop()
    assert after - base < 64 * 1024, (base, after)


def test_reader_memory_is_bounded_by_max_pending():
    # The queue of a pull reader never holds more than max_pending events.
    with tracerd.open(SAMPLES["ctf-dir-lttng"], max_pending=4) as r:
        for _ in r:
            assert r.pending <= 4
