#!/usr/bin/env python3
"""Writes the same layered DAG twice: as a flow workflow of `sleep: 0s` steps and as JSON for dask.

Usage: make_dag.py STEPS WIDTH OUT_YAML OUT_JSON
Each layer has WIDTH steps; every step after the first layer needs two steps of the layer before
it, chosen with a fixed seed so both tools get the identical graph.
"""
import json
import random
import sys

steps, width, out_yaml, out_json = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(42)
graph = {}
for index in range(steps):
    layer = index // width
    if layer == 0:
        graph[f"s{index}"] = []
    else:
        previous = range((layer - 1) * width, layer * width)
        graph[f"s{index}"] = sorted({f"s{n}" for n in rng.sample(previous, 2)})

with open(out_yaml, "w") as f:
    f.write("version: 1\nname: engine-bench\nconcurrency: 16\nsteps:\n")
    for step, needs in graph.items():
        if needs:
            f.write(f"  {step}: {{ sleep: 0s, needs: [{', '.join(needs)}] }}\n")
        else:
            f.write(f"  {step}: {{ sleep: 0s }}\n")
with open(out_json, "w") as f:
    json.dump(graph, f)
