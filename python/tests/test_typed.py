"""Typed records of tracerd.fxt against the FXT suite's golden dump of demo.fxt
(tests/data/fxt/demo.gold, checked by check_fxt.c), and both typed readers through
feed() at every split."""
import re

import pytest
import tracerd
from conftest import DATA, SAMPLES, XTRACE_SNAPSHOT, feed_all

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


def test_xtrace_snapshot_typed_matches_the_cli_dump():
    """`tracerd dump` of the sample snapshot file (the CLI when make check-python gives
    TRACERD_CLI, else tests/data/xtrace/cli-snap.dump.gold, which check_xtrace.c compares
    with the CLI's output)."""
    import json
    import os
    import subprocess

    cli = os.environ.get("TRACERD_CLI")
    text = (subprocess.run([cli, "dump", str(XTRACE_SNAPSHOT)], capture_output=True, text=True,
                           check=True).stdout if cli else
            (DATA / "xtrace" / "cli-snap.dump.gold").read_text())
    gold = [json.loads(line) for line in text.splitlines()]
    recs = list(tracerd.xtrace.open(XTRACE_SNAPSHOT))
    X = tracerd.xtrace
    h = lambda s: int(s, 16)  # noqa: E731
    regs = {}  # the CLI prints register fragments: join them as the binding does
    for g in gold:
        if g["type"] == "register":
            key = (g["offset"], g["reg"], g["index"])
            regs[key] = regs.get(key, "") + g["data"]
            assert len(regs[key]) == 2 * (g["data_offset"] + len(g["data"]) // 2)
    gold = [g for g in gold if g["type"] != "register" or g["data_offset"] == 0]
    assert len(recs) == len(gold) == 1 + 1 + 3 * (1 + 32 + 16 + 1 + 1 + 1)
    for rec, g in zip(recs, gold):
        t = g["type"]
        if t == "layout":
            assert isinstance(rec, X.Layout)
            assert {k: getattr(rec, k) for k in g if k != "type"} == \
                {k: v for k, v in g.items() if k != "type"}
            assert (rec.candidates, rec.z_offset, rec.za_offset) == (1, 288, 848)
        elif t == "header":
            assert isinstance(rec, X.Header)
            assert (rec.offset, rec.header_bytes, rec.ident, rec.global_point, rec.version,
                    rec.split_type, rec.stream_type, rec.mem_order, rec.pad.hex()) == \
                (g["offset"], g["header_bytes"], h(g["ident"]), g["global_point"],
                 g["version"], g["split_type"], g["stream_type"], g["mem_order"], g["pad"])
        elif t == "snapshot":
            assert isinstance(rec, X.Snapshot)
            assert (rec.offset, rec.index, rec.file_no, rec.file_index, rec.user_insns,
                    rec.total_insns, rec.x) == \
                (g["offset"], g["index"], g["file_no"], g["file_index"], g["user_insns"],
                 g["total_insns"], tuple(h(v) for v in g["x"]))
        elif t == "register":
            assert isinstance(rec, X.Register)
            assert (rec.offset, rec.reg, rec.index) == (g["offset"], g["reg"], g["index"])
            assert rec.data.hex() == regs[(g["offset"], g["reg"], g["index"])]
            assert len(rec.data) == {"z": 16, "p": 2, "ffr": 2, "za": 256}[rec.reg]  # VL 128
        elif t == "snapshot_end":
            assert isinstance(rec, X.SnapshotEnd)
            for k, v in g.items():
                if k != "type":
                    assert getattr(rec, k) == (h(v) if isinstance(v, str) else v), k
        else:
            pytest.fail(f"unexpected dump line {g}")


def test_xtrace_snapshot_feed_every_split_errors_and_lenient():
    data = XTRACE_SNAPSHOT.read_bytes()
    want = list(tracerd.xtrace.open(XTRACE_SNAPSHOT))
    assert list(tracerd.xtrace.open(data, snapshot=True)) == want  # bytes: not by name
    for step in (1, 3, 7, 100, 1000, len(data)):  # registers cut anywhere come out whole
        r = tracerd.xtrace.SnapshotReader(max_pending=2)
        assert feed_all(r, data, step) == want, step
        assert r.format == "xtrace"
    cut = data[:-10]  # inside snapshot 2, at byte 2424
    with pytest.raises(tracerd.Error) as ei:
        list(tracerd.xtrace.open(cut, snapshot=True))
    assert ei.value.status == "E_TRUNCATED" and ei.value.offset == 2424
    assert "snapshot 2" in ei.value.reason
    seen = []
    got = list(tracerd.xtrace.open(cut, snapshot=True, lenient=True,
                                   on_warning=lambda *w: seen.append(w)))
    # Streaming: snapshot 2's start and registers came before the cut; no SnapshotEnd.
    assert got == want[:-1] and isinstance(want[-1], tracerd.xtrace.SnapshotEnd)
    assert [w[:3] for w in seen] == [("E_TRUNCATED", 2424, 1190)]
    with pytest.raises(tracerd.Error) as ei:  # an instruction stream is not a snapshot file
        list(tracerd.xtrace.open(SAMPLES["xtrace"], snapshot=True))
    assert ei.value.status in ("E_LAYOUT", "E_AMBIGUOUS", "E_TRUNCATED")


def test_xtrace_snapshot_readme_example(capsys):
    """The snapshot example of python/README.md runs on the sample."""
    from conftest import ROOT

    readme = (ROOT / "python" / "README.md").read_text()
    block = next(b.split("\n", 1)[1] for b in readme.split("```python")[1:]
                 if "xsnapshot.bin" in b.split("```")[0]).split("```")[0]
    code = block.replace('"xtrace.1718000000.4242.hint9.xsnapshot.bin"', repr(str(XTRACE_SNAPSHOT)))
    exec(compile(code, "python/README.md", "exec"), {"tracerd": tracerd})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "0 3000000 0x0" and out[1] == "  z0 = 5d5e5f606162636465666768696a6b6c"
    assert len(out) == 3 * 33 and out[33] == "1 4000000 0x100000000"
