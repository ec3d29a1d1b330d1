"""The examples of python/README.md run, and what they print is right."""
import collections
import os
import pathlib
import subprocess
import sys

import pytest
import tracerd
from conftest import DATA, ROOT, SAMPLES

EXAMPLES = ROOT / "python" / "examples"


def run(script, *args):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(tracerd.__file__)))
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)], env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout


def test_readme_shows_the_examples_as_they_are():
    readme = (ROOT / "python" / "README.md").read_text()
    for script in ("count_names.py", "xray_durations.py"):
        body = (EXAMPLES / script).read_text()
        assert body.split('"""', 2)[2].strip() in readme, script


def test_count_names(sample):
    out = run("count_names.py", sample)
    want = collections.Counter(e.name for e in tracerd.open(sample)).most_common(10)
    got = [(line[9:], int(line[:8])) for line in out.splitlines()]
    assert sorted(got) == sorted(want)


def stack_durations(path):
    """Per function: durations of begin/end pairs matched with a stack per thread."""
    stacks, out = collections.defaultdict(list), collections.defaultdict(list)
    for e in tracerd.open(path):
        if e.kind == "span-begin":
            stacks[e.tid].append(e)
        elif e.kind == "span-end" and stacks[e.tid]:
            b = stacks[e.tid].pop()
            out[b.name].append(e.time - b.time)
    return out


@pytest.mark.parametrize("trace", ["fdr_threads", "basic_threads", "fdr_args", "fdr_midcall"])
def test_xray_durations(trace):
    pytest.importorskip("pandas")
    path = DATA / "xray" / "real" / f"{trace}.xray"
    out = run("xray_durations.py", path).splitlines()
    want = stack_durations(path)
    got = {}
    for line in out[2:]:
        name, count, total, _mean, mx = line.split()
        got[name] = (int(count), int(total), int(mx))
    assert got == {n: (len(d), sum(d), max(d)) for n, d in want.items()}


def test_top_readme_python_snippet(capsys):
    readme = (ROOT / "README.md").read_text()
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    code = code.replace('"trace.xray"', repr(str(SAMPLES["xray-fdr-v5-le"])))
    code = code.replace('"trace.fxt"', repr(str(SAMPLES["fxt"])))
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "500 span-begin fn#1 42 {}"
    assert out[-1] == "18 render-thread"
