#!/usr/bin/env python3
"""Runs the DAG from make_dag.py with dask's threaded scheduler (no-op tasks); prints seconds."""
import json
import sys
import time

import dask.threaded

with open(sys.argv[1]) as f:
    graph = json.load(f)


def noop(*_):
    return None


tasks = {step: (noop, *needs) for step, needs in graph.items()}
start = time.perf_counter()
dask.threaded.get(tasks, list(graph), num_workers=16)
print(f"{time.perf_counter() - start:.6f}")
