"""The event view through every path (iterator, batch, feed at every split, file object,
socket) gives the same events on the sample trace of every format."""
import io
import socket
import threading

import pytest
import tracerd
from conftest import DATA, SAMPLES, event_tuple, feed_all, feed_args


def all_events(path, **options):
    with tracerd.open(path, **options) as r:
        return [event_tuple(e) for e in r]


def test_every_sample_has_events(sample):
    with tracerd.open(sample) as r:
        evs = list(r)
        assert len(evs) > 0
        assert r.format in ("xray", "fxt", "ctf", "xtrace")
        assert all(e.format == r.format for e in evs)
        assert all(isinstance(e.name, str) and e.name for e in evs if e.kind != "mark")


def test_iterator_equals_small_pending(sample):
    # A callback pauses the C reader every `max_pending` events: nothing lost or repeated.
    assert all_events(sample) == all_events(sample, max_pending=1)
    assert all_events(sample) == all_events(sample, max_pending=7, chunk_size=64)


def test_feed_every_chunk_size(file_sample):
    data = file_sample.read_bytes()
    want = all_events(file_sample)
    for step in sorted({1, 2, 3, 5, 8, 13, 64, 100, 4096, len(data)}):
        r = tracerd.Reader(max_pending=3, **feed_args(file_sample))

        def checked(e):
            assert r.pending <= 2  # back-pressure: never more than max_pending waiting
            return event_tuple(e)

        assert feed_all(r, data, step, checked) == want, f"chunk size {step}"
        r.close()


def test_feed_backpressure_takes_fewer_bytes():
    data = SAMPLES["fxt"].read_bytes()
    r = tracerd.Reader(max_pending=2)
    n = r.feed(data)
    assert 0 < n < len(data)          # paused once two events were queued
    assert r.pending == 2
    assert r.feed(data[n:]) == 0      # nothing taken while the queue is full
    assert len(list(r)) == 2
    assert r.feed(data[n:]) > 0


def test_file_object_and_bytes(file_sample):
    want = all_events(file_sample)
    opts = feed_args(file_sample)
    data = file_sample.read_bytes()
    with open(file_sample, "rb") as f:
        assert all_events(f, **opts) == want
    assert all_events(io.BytesIO(data), **opts) == want
    assert all_events(data, **opts) == want

    class ReadOnly:  # an object with read() only
        def __init__(self):
            self.f = io.BytesIO(data)

        def read(self, n):
            return self.f.read(min(n, 5))

    assert all_events(ReadOnly(), **opts) == want


def test_socket():
    path = SAMPLES["xray-fdr-real"]
    data = path.read_bytes()
    a, b = socket.socketpair()

    def send():
        for i in range(0, len(data), 7):
            a.sendall(data[i:i + 7])
        a.close()

    t = threading.Thread(target=send)
    t.start()
    try:
        got = all_events(b, chunk_size=64)
    finally:
        t.join()
        b.close()
    assert got == all_events(path)


def test_batch_equals_iterator(sample):
    evs = list(tracerd.open(sample))
    for n in (1, 3, 1000):
        with tracerd.open(sample) as r:
            rows = []
            for b in r.batches(n):
                assert 1 <= len(b.times) <= n
                for col in (b.end_times, b.kinds, b.names, b.categories, b.pids, b.tids,
                            b.cpus):
                    assert len(col) == len(b.times)
                for i in range(len(b.times)):
                    rows.append((b.times[i], b.end_times[i], tracerd.KINDS[b.kinds[i]],
                                 b.name_table[b.names[i]], b.category_table[b.categories[i]],
                                 b.pids[i], b.tids[i], b.cpus[i]))
            assert r.read_batch(n) is None
        want = [((e.time or 0), e.end_time or 0, e.kind, e.name, e.category,
                 -1 if e.pid is None else e.pid, -1 if e.tid is None else e.tid,
                 -1 if e.cpu is None else e.cpu) for e in evs]
        assert rows == want


def test_batch_after_some_events_and_feed_mode():
    path = SAMPLES["fxt"]
    with tracerd.open(path) as r:
        first = next(r)
        b = r.read_batch(1000)
        assert b.name_table[b.names[0]] != "" and len(b.times) == len(list(tracerd.open(path))) - 1
        assert first.name == "render-thread"
    r = tracerd.Reader()
    r.feed(path.read_bytes())
    assert r.finish()
    b = r.read_batch(5)
    assert len(b.times) == 5
    assert r.read_batch(1000) is not None
    assert r.read_batch(1000) is None


def test_batch_buffer_protocol():
    with tracerd.open(SAMPLES["xray-fdr-real"]) as r:
        b = r.read_batch(100)
        assert b.name_table == r.name_table
    fmts = {"times": "Q", "end_times": "Q", "kinds": "B", "names": "I", "categories": "I",
            "pids": "q", "tids": "q", "cpus": "i"}
    for name, fmt in fmts.items():
        mv = getattr(b, name)
        assert isinstance(mv, memoryview)
        assert mv.format == fmt and mv.ndim == 1 and mv.c_contiguous
        assert len(mv.tolist()) == len(b.times)


def test_name_ids_are_stable_across_batches():
    with tracerd.open(SAMPLES["xray-fdr-real"]) as r:
        names = []
        for b in r.batches(2):
            names += [b.name_table[i] for i in b.names]
    assert names == [e.name for e in tracerd.open(SAMPLES["xray-fdr-real"])]


def test_detect():
    assert tracerd.detect(SAMPLES["fxt"].read_bytes()[:64]) == ("fxt", 100)
    assert tracerd.detect(b"\0" * 64)[0] is None


def test_ctf_stream_needs_metadata():
    stream = SAMPLES["ctf-stream"]
    # Given alone with its metadata beside it: found; fed without metadata: an error.
    assert len(list(tracerd.open(stream))) > 0
    assert list(tracerd.open(stream, metadata=DATA / "ctf" / "bt2-python" / "metadata")) != []
    r = tracerd.Reader()
    with pytest.raises(tracerd.Error):
        r.feed(stream.read_bytes())
        r.finish()
