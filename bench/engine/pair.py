#!/usr/bin/env python3
"""Builds of flow side by side on bench/engine's DAG, in interleaved rounds (issue 32).

    python3 bench/engine/pair.py ROUNDS CASES NAME=BINARY...

Makes the 10,000-step layered DAG (make_dag.py 10000 100) in a temporary folder, then every round
runs each build on each case in a random order: `dag-run` (`flow run dag.yaml --log-format json`,
journal on, in a state folder of its own), `dag-val` (`flow validate dag.yaml`), and `dask` (dask's
threaded scheduler on the same graph, once a round, as bench/engine.sh runs it; its virtual
environment is the one bench/engine.sh makes). Output goes to /dev/null. Prints the medians of the
wall time and of the user+sys CPU time (wait4's rusage) and peak RSS of each, the engine's CPU a
step ((run - validate) / 10,000) and dask's time over each build's whole run.
"""
import collections
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
rounds = int(sys.argv[1])
cases = sys.argv[2].split(",")
builds = [(name, os.path.abspath(binary)) for name, binary in (arg.split("=", 1) for arg in sys.argv[3:])]
work = tempfile.mkdtemp(prefix="flow-pair-")
subprocess.run([sys.executable, os.path.join(here, "make_dag.py"), "10000", "100", "dag.yaml", "dag.json"], cwd=work,
               check=True)
dask_python = os.path.expanduser("~/.cache/flow-bench/venv-dask/bin/python")
arguments = {"dag-run": ["run", "dag.yaml", "--log-format", "json"], "dag-val": ["validate", "dag.yaml"]}
environment = dict(os.environ, FLOW_STATE_DIR=os.path.join(work, "state"))
results = collections.defaultdict(list)
for _ in range(rounds):
    order = [(build, case) for build in builds for case in cases if case != "dask"]
    if "dask" in cases:
        order.append((builds[0], "dask"))
    random.shuffle(order)
    for (name, binary), case in order:
        if case == "dask":
            out = subprocess.run([dask_python, os.path.join(here, "dask_run.py"), "dag.json"], cwd=work,
                                 capture_output=True, text=True, check=True).stdout
            results[("dask", case)].append((float(out), 0.0, 0.0))
            continue
        start = time.perf_counter()
        process = subprocess.Popen([binary] + arguments[case], cwd=work, env=environment,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(process.pid, 0)
        results[(name, case)].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
                                      usage.ru_maxrss / 1024))
medians = {}
for key in sorted(results, key=lambda key: (key[1], key[0])):
    runs = results[key]
    medians[key] = tuple(statistics.median(run[field] for run in runs) for field in range(3))
    wall, cpu, rss = medians[key]
    print(f"{key[1]:8s} {key[0]:10s} n={len(runs)} wall {wall:.3f} s  cpu {cpu:.3f} s  rss {rss:6.1f} MiB")
for name, _ in builds:
    if (name, "dag-run") in medians and (name, "dag-val") in medians:
        run, check = medians[(name, "dag-run")], medians[(name, "dag-val")]
        print(f"{name}: engine a step, CPU (run - validate) / 10,000 = {(run[1] - check[1]) * 100:.2f} us; "
              f"wall {(run[0] - check[0]) * 100:.2f} us")
    if ("dask", "dask") in medians and (name, "dag-run") in medians:
        dask = medians[("dask", "dask")][0]
        print(f"{name}: dask {dask:.3f} s / flow run {medians[(name, 'dag-run')][0]:.3f} s = "
              f"{dask / medians[(name, 'dag-run')][0]:.1f}x")
subprocess.run(["rm", "-rf", work], check=False)
