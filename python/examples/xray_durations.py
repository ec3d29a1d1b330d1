"""Time per XRay function with the batch path and pandas: count, total, mean and max
duration of every function. Usage: xray_durations.py TRACE [INSTRUMENTED_BINARY]"""
import sys

import numpy as np
import pandas as pd

import tracerd

options = {"xray_names": sys.argv[2]} if len(sys.argv) > 2 else {}
with tracerd.open(sys.argv[1], **options) as reader:
    df = pd.concat([tracerd.dataframe(b) for b in reader.batches(1 << 16)], ignore_index=True)

spans = df[df.kind.isin(["span-begin", "span-end"])]
step = np.where(spans.kind == "span-begin", 1, -1)
# Nesting depth per thread; an end belongs to the depth of the span it closes.
depth = pd.Series(step, index=spans.index).groupby(spans.tids.to_numpy()).cumsum().to_numpy()
depth = np.where(step == 1, depth, depth + 1)
order = np.lexsort((np.arange(len(spans)), depth, spans.tids.to_numpy()))
tids, depth, step = spans.tids.to_numpy()[order], depth[order], step[order]
times, names = spans.times.to_numpy()[order], spans.name.to_numpy()[order]
# At one (thread, depth), begins and ends alternate: pair each begin with the next row.
pair = (step[:-1] == 1) & (step[1:] == -1) & (tids[:-1] == tids[1:]) & (depth[:-1] == depth[1:])
durations = pd.DataFrame({"function": names[:-1][pair],
                          "ns": times[1:][pair].astype("int64") - times[:-1][pair].astype("int64")})
table = durations.groupby("function").ns.agg(["count", "sum", "mean", "max"])
print(table.sort_values("sum", ascending=False).to_string())
