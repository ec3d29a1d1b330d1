"""Typed records of tracerd.fxt against the FXT suite's golden dump of demo.fxt
(tests/data/fxt/demo.gold, checked by check_fxt.c), and both typed readers through
feed() at every split."""
import re

import pytest
import tracerd
from conftest import DATA, SAMPLES

GOLD = DATA / "fxt" / "demo.gold"


def gold_lines():
    return [line for line in GOLD.read_text().splitlines() if line != "end OK"]


def test_fxt_typed_matches_the_golden_dump():
    recs = list(tracerd.fxt.open(SAMPLES["fxt"]))
    lines = gold_lines()
    assert len(recs) == len(lines)
    for rec, line in zip(recs, lines):
        kind, offset = re.match(r"(\w+)@(\d+)", line).groups()
        assert rec.offset == int(offset), line
        if kind == "meta":
            assert isinstance(rec, tracerd.fxt.Metadata)
            assert f"provider={rec.provider_id}" in line
            if rec.type == "provider-info":
                assert f'name="{rec.name}"' in line
            else:
                assert rec.type == "trace-info" and f"order={rec.byte_order}" in line
        elif kind == "init":
            assert line.endswith(f"provider={rec.provider_id} tps={rec.ticks_per_second}")
        elif kind == "string":
            assert line.endswith(f'provider={rec.provider_id} index={rec.index} s="{rec.string}"')
        elif kind == "thread":
            assert line.endswith(f"index={rec.index} pid={rec.pid} tid={rec.tid}")
        elif kind == "kernel":
            assert f'koid={rec.koid} objtype={rec.object_type} name="{rec.name}"' in line
            assert rec.args == {"process": 1000}
        elif kind == "event":
            assert isinstance(rec, tracerd.fxt.Event)
            head = (f"provider={rec.provider_id} {rec.type} ticks={rec.ticks} ns={rec.ns} "
                    f"thread=1:{rec.pid}/{rec.tid} cat=\"{rec.category}\" name=\"{rec.name}\"")
            assert head in line
            assert line.endswith(f"id={rec.id} end={rec.end_ticks}/{rec.end_ns}")
            for name, value in rec.args.items():
                assert f'n="{name}"' in line
                m = re.search(rf'n="{name}" (\w)=([^ ,\]]+)', line)
                want = {"i": int, "u": int, "d": float, "s": lambda s: s.strip('"')}[m.group(1)]
                assert value == want(m.group(2))
        elif kind == "log":
            assert line.endswith(f'thread=1:{rec.pid}/{rec.tid} msg="{rec.message}"')
            assert f"ticks={rec.ticks} ns={rec.ns}" in line
        elif kind == "blob":
            assert f'type={rec.blob_type} name="{rec.name}"' in line
            assert line.endswith(":" + rec.payload.hex())
        else:
            pytest.fail(f"unexpected golden line {line}")


@pytest.mark.parametrize("mod,path", [("fxt", SAMPLES["fxt"]),
                                      ("xray", SAMPLES["xray-fdr-real"]),
                                      ("xray", SAMPLES["xray-basic"])])
def test_typed_feed_every_split(mod, path):
    m = getattr(tracerd, mod)
    want = list(m.open(path))
    data = path.read_bytes()
    for step in (1, 3, 8, 100, len(data)):
        r = m.Reader(max_pending=2)
        got, pos = [], 0
        while pos < len(data):
            pos += r.feed(data[pos:pos + step])
            assert r.pending <= 2
            got += list(r)
        while not r.finish():
            got += list(r)
        got += list(r)
        assert got == want, step
        assert r.format == mod


def test_typed_errors_and_lenient_warnings():
    data = bytearray(SAMPLES["fxt"].read_bytes())
    data[-8 * 4] = 0xFF
    with pytest.raises(tracerd.Error) as ei:
        list(tracerd.fxt.open(bytes(data)))
    assert ei.value.status == "E_LIMIT" and ei.value.offset == len(data) - 32
    seen = []
    recs = list(tracerd.fxt.open(bytes(data), lenient=True,
                                 on_warning=lambda *w: seen.append(w)))
    assert seen and seen[0][0] == "E_LIMIT" and len(recs) > 0
    with pytest.raises(TypeError):  # a typed reader has its format
        tracerd.fxt.open(SAMPLES["fxt"], format="xray")
    with pytest.raises(ValueError):
        tracerd.fxt.Reader("xray")
