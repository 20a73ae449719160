#!/usr/bin/env python3
"""Builds of flow side by side on many small requests at once (issue 32, round eight).

    python3 bench/engine/requests-pair.py ROUNDS ITEMS CONCURRENCY NAME=BINARY...

Starts `flow sandbox --port 0` (the first build's) and writes one `for-each` step of ITEMS GETs to
its `/echo?i=N` at CONCURRENCY at once; then every round runs `flow run FILE --no-journal` of
each build in a random order, output to /dev/null. Prints the medians of wall time, user+sys CPU
(wait4's rusage) and peak RSS. This is the case that one malloc arena for all threads made 10–14%
dearer in CPU (round seven: the HTTP threads waiting on the arena's lock), so a change of
allocator is measured here beside the DAG.
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

rounds, items, concurrency = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
builds = [(name, os.path.abspath(binary)) for name, binary in (arg.split("=", 1) for arg in sys.argv[4:])]
work = tempfile.mkdtemp(prefix="flow-requests-pair-")
sandbox = subprocess.Popen([builds[0][1], "sandbox", "--port", "0"], stdout=subprocess.PIPE, text=True)
try:
    base = sandbox.stdout.readline().split()[-1]
    file = os.path.join(work, "requests.yaml")
    with open(file, "w") as out:
        out.write(f"version: 1\nconcurrency: {concurrency}\ndefaults:\n  http: {{ base-url: {base} }}\n"
                  f"steps:\n  get:\n    for-each: ${{{{ range(0, {items}) }}}}\n"
                  f"    concurrency: {concurrency}\n    http: {{ url: \"/echo?i=${{{{ index }}}}\" }}\n")
    results = {name: [] for name, _ in builds}
    for _ in range(rounds):
        order = list(builds)
        random.shuffle(order)
        for name, binary in order:
            start = time.perf_counter()
            process = subprocess.Popen([binary, "run", file, "--no-journal"], cwd=work,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(process.pid, 0)
            if status != 0:
                sys.exit(f"requests-pair: {name} failed ({status})")
            results[name].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
                                  usage.ru_maxrss / 1024))
    for name, runs in results.items():
        wall, cpu, rss = (statistics.median(run[field] for run in runs) for field in range(3))
        print(f"{name:10s} n={len(runs)} wall {wall:.3f} s  cpu {cpu:.3f} s  rss {rss:6.1f} MiB")
finally:
    sandbox.terminate()
    sandbox.wait()
    subprocess.run(["rm", "-rf", work], check=False)
