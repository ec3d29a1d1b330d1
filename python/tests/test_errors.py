"""Errors are tracerd.Error with status, offset and reason; a callback's exception stops the
reader cleanly; misuse is a Python exception, never a crash."""
import io

import pytest
import tracerd
from conftest import DATA, SAMPLES


def test_truncated_xray():
    data = (DATA / "xray" / "real" / "fdr_args.xray").read_bytes()
    good = list(tracerd.open(data))
    r = tracerd.open(data[:-3])
    got = []
    with pytest.raises(tracerd.Error) as ei:
        for ev in r:
            got.append(ev)
    e = ei.value
    assert (e.status, e.code, e.offset) == ("E_TRUNCATED", -3, len(data) - 8)
    assert e.reason == "function record: input ended after 5 of 8 bytes"
    assert e.path is None
    assert str(e) == f"E_TRUNCATED at byte {len(data) - 8}: {e.reason}"
    # Every event before the damage was delivered first; the error is sticky.
    assert len(got) == len(good) - 1
    with pytest.raises(tracerd.Error):
        next(r)


def test_unknown_format_is_e_magic():
    with pytest.raises(tracerd.Error) as ei:
        list(tracerd.open(b"\x01" * 100))
    assert ei.value.status == "E_MAGIC" and ei.value.offset == 0
    assert tracerd.status_codes()["E_MAGIC"] == ei.value.code


def test_empty_input_is_truncated():
    with pytest.raises(tracerd.Error) as ei:
        list(tracerd.open(b""))
    assert ei.value.status == "E_TRUNCATED"


def test_feed_error_raised_at_once_events_kept():
    data = SAMPLES["fxt"].read_bytes()
    bad = bytearray(data)
    bad[-8 * 4] = 0xFF  # damage the last records' header word: record type 15
    r = tracerd.Reader()
    with pytest.raises(tracerd.Error) as ei:
        r.feed(bytes(bad))
    assert ei.value.offset > 0 and ei.value.reason
    # The events decoded before the damage can still be taken, then the error again.
    got = []
    with pytest.raises(tracerd.Error):
        for ev in r:
            got.append(ev.name)
    assert got == [ev.name for ev in tracerd.open(data)][:-1]
    with pytest.raises(tracerd.Error):
        r.feed(b"")


def test_ctf_directory_error_names_the_file(tmp_path):
    src = DATA / "ctf" / "bt2-sink-ctf"
    for f in src.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    chan = tmp_path / "chan_0"
    chan.write_bytes(chan.read_bytes()[:-5])
    with pytest.raises(tracerd.Error) as ei:
        list(tracerd.open(tmp_path))
    assert ei.value.path is not None and ei.value.path.endswith("chan_0")
    assert ei.value.status.startswith("E_")


def test_warning_callback_exception_stops_the_reader():
    # A lenient FXT reader warns about a damaged record; the callback raises: the exception
    # comes out of the iteration, after the events before it, and stays.
    data = bytearray(SAMPLES["fxt"].read_bytes())
    data[-8 * 4] = 0xFF
    seen = []

    class Stop(Exception):
        pass

    def on_warning(status, offset, skipped, reason):
        seen.append((status, offset, reason))
        raise Stop("enough")

    r = tracerd.open(bytes(data), lenient=True, on_warning=on_warning)
    with pytest.raises(Stop):
        list(r)
    assert len(seen) == 1
    with pytest.raises(Stop):
        next(r)
    r.close()
    # Without a raising callback the lenient reader reads on and counts the warning.
    r = tracerd.open(bytes(data), lenient=True, on_warning=lambda *a: None)
    assert len(list(r)) > 0 and r.warning_count >= 1


def test_source_exception_propagates_and_reader_goes_on():
    data = SAMPLES["fxt"].read_bytes()
    f = io.BytesIO(data)
    calls = [0]

    def readinto(buf):
        calls[0] += 1
        if calls[0] == 2:
            raise OSError("network hiccup")
        return f.readinto(buf[:100])

    class Src:
        pass

    src = Src()
    src.readinto = readinto
    r = tracerd.open(src, max_pending=1)
    got = []
    with pytest.raises(OSError):
        for ev in r:
            got.append(ev.name)
    got += [ev.name for ev in r]  # the next read works: nothing lost
    assert got == [ev.name for ev in tracerd.open(data)]


def test_misuse():
    r = tracerd.open(SAMPLES["fxt"])
    with pytest.raises(TypeError):
        r.feed(b"x")
    with pytest.raises(TypeError):
        r.finish()
    with pytest.raises(ValueError):
        r.read_batch(0)
    r.close()
    with pytest.raises(ValueError):
        next(r)
    with pytest.raises(ValueError):
        tracerd.open(SAMPLES["fxt"], format="pdf")
    with pytest.raises(ValueError):
        tracerd.open(SAMPLES["fxt"], byte_order="middle")
    f = tracerd.Reader()
    with pytest.raises(tracerd.Error) as ei:
        f.finish()
    assert ei.value.status == "E_TRUNCATED" and ei.value.offset == 0
    f = tracerd.Reader()
    f.feed(SAMPLES["fxt"].read_bytes())
    assert f.finish() is True
    with pytest.raises(ValueError):
        f.feed(b"more")
    with pytest.raises(TypeError):
        tracerd.open(12)
    with pytest.raises(tracerd.Error) as ei:
        tracerd.open(SAMPLES["fxt"], xray_names=b"not an ELF file")
    assert ei.value.status == "E_MAGIC"


def test_reader_used_from_its_callback():
    data = bytearray(SAMPLES["fxt"].read_bytes())
    data[-8 * 4] = 0xFF
    holder = {}

    def on_warning(*a):
        next(holder["r"])

    holder["r"] = r = tracerd.open(bytes(data), lenient=True, on_warning=on_warning)
    with pytest.raises(RuntimeError):
        list(r)
    holder.clear()


def test_context_manager_closes_the_file():
    with tracerd.open(SAMPLES["fxt"]) as r:
        next(r)
    assert r.closed
