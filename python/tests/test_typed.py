"""Typed records of tracerd.fxt against the FXT suite's golden dump of demo.fxt
(tests/data/fxt/demo.gold, checked by check_fxt.c), and both typed readers through
feed() at every split."""
import re

import pytest
import tracerd
from conftest import DATA, SAMPLES, feed_all

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


@pytest.mark.parametrize("mod,path", [("fxt", SAMPLES["fxt"]), ("xtrace", SAMPLES["xtrace"]),
                                      ("xray", SAMPLES["xray-fdr-real"]),
                                      ("xray", SAMPLES["xray-basic"])])
def test_typed_feed_every_split(mod, path):
    m = getattr(tracerd, mod)
    want = list(m.open(path))
    data = path.read_bytes()
    for step in (1, 3, 8, 100, len(data)):
        r = m.Reader(max_pending=2)

        def checked(rec):
            assert r.pending <= 1  # one just taken: at most max_pending were waiting
            return rec

        assert feed_all(r, data, step, checked) == want, step
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


def test_xtrace_typed_matches_the_cli_dump():
    """tests/data/xtrace/cli-insn.dump.gold is `tracerd dump` of the sample (check_cli.c)."""
    import json

    gold = [json.loads(line) for line in
            (DATA / "xtrace" / "cli-insn.dump.gold").read_text().splitlines()]
    gold = [g for g in gold if g["type"] != "iov_layout"]  # the CLI's note, no record
    recs = list(tracerd.xtrace.open(SAMPLES["xtrace"]))
    assert len(recs) == len(gold)
    X = tracerd.xtrace
    h = lambda s: int(s, 16)  # noqa: E731
    for rec, g in zip(recs, gold):
        t = g["type"]
        if t == "insn":
            assert isinstance(rec, X.Insn)
            assert (rec.offset, rec.index, rec.pc, rec.opcode, rec.el, rec.explicit_pc) == \
                (g["offset"], g["index"], h(g["pc"]), h(g["opcode"]), g["el"], g["explicit_pc"])
        elif t == "mem":
            assert (rec.offset, rec.insn_count, rec.el, rec.op, rec.addr, rec.size,
                    rec.value.hex()) == (g["offset"], g["insn_count"], g["el"], g["op"],
                                         h(g["addr"]), g["size"], g["value"])
        elif t == "val":
            assert (rec.offset, rec.insn_count, rec.kind, rec.value) == \
                (g["offset"], g["insn_count"], g["kind"], h(g["value"]))
        elif t == "allgpr":
            assert rec.x == tuple(h(v) for v in g["x"]) and rec.offset == g["offset"]
        elif t == "misc_flags":
            assert rec.flags == h(g["flags"]) and rec.offset == g["offset"]
        elif t == "syscall_vec":
            assert isinstance(rec, X.SyscallVec)
            assert (rec.offset, rec.insn_count, rec.count, rec.layout) == \
                (g["offset"], g["insn_count"], g["count"], g["layout"])
        elif t == "syscall_vec_end":
            assert isinstance(rec, X.SyscallVecEnd)
            assert (rec.offset, rec.count) == (g["offset"], g["count"])
        elif t == "iov":
            assert (rec.offset, rec.iov_offset, rec.index, rec.base, rec.len) == \
                (g["offset"], g["iov_offset"], g["index"], h(g["base"]), g["len"])
        elif t == "iov_data":
            assert isinstance(rec, tracerd.Fragment)
            assert (rec.record_offset, rec.index, rec.offset, rec.total, rec.data.hex()) == \
                (g["offset"], g["index"], g["data_offset"], g["total"], g["data"])
        elif t == "time":
            assert (rec.offset, rec.insn_count, rec.value, rec.raw.hex()) == \
                (g["offset"], g["insn_count"], h(g["value"]), g["raw"])
        else:
            pytest.fail(f"unexpected dump line {g}")
