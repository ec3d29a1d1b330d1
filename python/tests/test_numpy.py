"""The batch columns wrap into NumPy and pandas without a copy (both optional)."""
import pytest
import tracerd
from conftest import SAMPLES

np = pytest.importorskip("numpy")


def test_numpy_wraps_without_copy():
    with tracerd.open(SAMPLES["fxt"]) as r:
        b = r.read_batch(100)
    times = np.asarray(b.times)
    assert times.dtype == np.uint64 and len(times) == len(b.times)
    # The array uses the column's memory: a write through the memoryview shows in it.
    b.times[0] = 12345
    assert times[0] == 12345
    assert np.asarray(b.pids).dtype == np.int64
    assert np.asarray(b.kinds).dtype == np.uint8
    names = np.asarray(b.name_table, dtype=object)[np.asarray(b.names)]
    assert list(names) == [e.name for e in tracerd.open(SAMPLES["fxt"])]


def test_pandas_dataframe_and_xray_durations():
    pd = pytest.importorskip("pandas")
    with tracerd.open(SAMPLES["xray-fdr-real"]) as r:
        df = pd.concat([tracerd.dataframe(b) for b in r.batches(4)], ignore_index=True)
    evs = list(tracerd.open(SAMPLES["xray-fdr-real"]))
    assert list(df["name"]) == [e.name for e in evs]
    assert list(df["kind"]) == [e.kind for e in evs]
    assert list(df["times"]) == [e.time for e in evs]
    # Durations per function: pair each span-end with the begin before it on its thread.
    spans = df[df["kind"].isin(["span-begin", "span-end"])]
    durations = {}
    stacks = {}
    for t, kind, name, tid in zip(spans["times"], spans["kind"], spans["name"], spans["tids"]):
        st = stacks.setdefault(tid, [])
        if kind == "span-begin":
            st.append((name, t))
        elif st:
            n, t0 = st.pop()
            durations.setdefault(n, []).append(int(t) - int(t0))
    assert durations and all(d >= 0 for v in durations.values() for d in v)
