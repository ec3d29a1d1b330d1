#!/usr/bin/env python3
"""Checks a file against the rules of the Chrome Trace Event Format that
Perfetto's UI and chrome://tracing rely on. Used by tests/check_cli.c.

Rules: valid JSON; an object with a traceEvents array; every event has a
known "ph" and the keys its phase requires (ts numbers, pid/tid integers,
names, ids for async and flow events, numeric counter values, M events with
args.name); per (pid, tid), B/E pairs balance in file order and never end
before they begin. Prints "ok N" or the first problem; exit 0 or 1. Takes any number of files."""
import json
import sys

PHASES = set("BEXiICbnesftMPON")


CURRENT = ""


def fail(msg):
    print("chrome_check: %s: %s" % (CURRENT, msg))
    sys.exit(1)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def main(path):
    global CURRENT
    CURRENT = path
    with open(path, "rb") as f:
        raw = f.read()
    try:
        doc = json.loads(raw.decode("utf-8"))
    except Exception as e:  # noqa: BLE001
        fail("not valid JSON: %s" % e)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("top level is not an object with a traceEvents array")
    stacks = {}
    for i, ev in enumerate(doc["traceEvents"]):
        where = "event %d %r" % (i, ev)
        if not isinstance(ev, dict):
            fail(where + ": not an object")
        ph = ev.get("ph")
        if ph not in PHASES:
            fail(where + ": unknown ph")
        if not isinstance(ev.get("pid"), int) or not isinstance(ev.get("tid"), int):
            fail(where + ": pid/tid must be integers")
        if ph == "M":
            if ev.get("name") not in ("process_name", "thread_name", "process_sort_index",
                                      "thread_sort_index", "process_labels"):
                fail(where + ": unknown metadata name")
            if not isinstance(ev.get("args"), dict) or "name" not in ev["args"] and \
                    ev["name"].endswith("_name"):
                fail(where + ": metadata without args.name")
            continue
        if not is_num(ev.get("ts")):
            fail(where + ": ts must be a number")
        if ph != "E" and not isinstance(ev.get("name"), str):
            fail(where + ": name must be a string")
        if "args" in ev and not isinstance(ev["args"], dict):
            fail(where + ": args must be an object")
        key = (ev["pid"], ev["tid"])
        if ph == "B":
            stacks.setdefault(key, []).append(ev["ts"])
        elif ph == "E":
            st = stacks.get(key)
            if not st:
                fail(where + ": E without a matching B on its thread")
            begin = st.pop()
            if ev["ts"] < begin:
                fail(where + ": E before its B (%r < %r)" % (ev["ts"], begin))
        elif ph == "X":
            if not is_num(ev.get("dur")) or ev["dur"] < 0:
                fail(where + ": X needs a non-negative dur")
        elif ph in "iI":
            if "s" in ev and ev["s"] not in ("g", "p", "t"):
                fail(where + ": bad instant scope")
        elif ph == "C":
            args = ev.get("args")
            if not isinstance(args, dict) or not all(is_num(v) for v in args.values()):
                fail(where + ": counter args must be numbers")
        elif ph in "bnesft":
            if "id" not in ev or not isinstance(ev.get("cat"), str):
                fail(where + ": async/flow events need id and cat")
    for key, st in stacks.items():
        if st:
            fail("thread %r: %d spans never end" % (key, len(st)))
    print("ok %d %s" % (len(doc["traceEvents"]), path))


if __name__ == "__main__":
    for p in sys.argv[1:]:
        main(p)
