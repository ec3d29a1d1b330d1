"""Counts the events of a trace per name (any format: XRay, FXT, CTF, xtrace)."""
import collections
import sys

import tracerd

counts = collections.Counter()
with tracerd.open(sys.argv[1]) as reader:
    for event in reader:
        counts[event.name] += 1
for name, n in counts.most_common(10):
    print(f"{n:8} {name}")
