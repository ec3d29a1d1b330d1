"""Shared paths and helpers of the tracerd Python tests (run by `make check-python`)."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# One sample trace per format and kind of input (files, CTF directories, a CTF stream file).
SAMPLES = {
    "xray-fdr-v5-le": DATA / "xray" / "fdr-v5-le.xray",
    "xray-fdr-v1-le": DATA / "xray" / "fdr-v1-le.xray",
    "xray-fdr-v5-be": DATA / "xray" / "demo-synthetic-fdr-v5-be.xray",
    "xray-basic": DATA / "xray" / "real" / "basic_threads.xray",
    "xray-fdr-real": DATA / "xray" / "real" / "fdr_events.xray",
    "fxt": DATA / "fxt" / "demo.fxt",
    "ctf-dir-lttng": DATA / "ctf" / "demo-lttng-ust",
    "ctf-dir-bt2": DATA / "ctf" / "bt2-sink-ctf",
    "ctf-stream": DATA / "ctf" / "bt2-python" / "stream",
    "xtrace": DATA / "xtrace" / "demo-xtrace.1718000000.4242.hint9.xinsndata.bin",
}
# Not an event-view input: only tracerd.xtrace reads register snapshot files.
XTRACE_SNAPSHOT = DATA / "xtrace" / "demo-xtrace.1718000000.4242.hint9.xsnapshot.bin"
FILE_SAMPLES = {k: v for k, v in SAMPLES.items() if v.is_file()}


@pytest.fixture(params=sorted(SAMPLES), ids=sorted(SAMPLES))
def sample(request):
    return SAMPLES[request.param]


@pytest.fixture(params=sorted(FILE_SAMPLES), ids=sorted(FILE_SAMPLES))
def file_sample(request):
    return FILE_SAMPLES[request.param]


def event_tuple(ev):
    """Every field of an event, for exact comparisons between paths."""
    return tuple(sorted(ev.asdict().items(), key=lambda kv: kv[0]))


def feed_args(path):
    """Reader options for feeding the bytes of a sample file yourself."""
    name = os.fspath(path)
    if name.endswith(".xinsndata.bin"):
        return {"format": "xtrace"}
    meta = pathlib.Path(name).parent / "metadata"
    if meta.is_file():
        return {"metadata": meta.read_bytes()}
    return {}


def feed_all(reader, data, step, convert=lambda x: x):
    """Feeds data in pieces of `step` bytes as a socket reader would: takes what feed()
    accepts, drains the events after each piece, finishes. Checks the back-pressure bound."""
    got, pos = [], 0
    while pos < len(data):
        n = reader.feed(data[pos:pos + step])
        assert 0 <= n <= step
        pos += n
        got += [convert(e) for e in reader]
    while not reader.finish():
        got += [convert(e) for e in reader]
    got += [convert(e) for e in reader]
    return got
