#!/usr/bin/env python3
"""bench/validate's floor comparison (issue 19): `flow validate` next to libyaml alone parsing the
same file to events (bench/yaml-floor/yaml-events.c), each also on a five-step file for the
start-up, so that both are compared beyond start-up.

    bench/validate-floor.py RUNS FLOW YAML_EVENTS SMALL.yaml NAME=BIG.yaml [NAME=BIG.yaml ...]

FLOW is a flow binary, or several as LABEL=PATH,LABEL=PATH (a build before a change and after
it, measured in the same rounds). The commands take turns in each round (a burst of load hits
all alike). Each is spawned from this process (posix_spawn, output to /dev/null) and timed from
the spawn to the end of its wait; its CPU time (user + system, from wait4) is given beside, the
steadier figure on a shared machine. Prints a Markdown table of medians with each flow's time
beyond start-up as a multiple of the floor's (goal: at most 3×).
"""
import os
import statistics
import sys
import time

runs, flows, events, small = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
files = [argument.split("=", 1) for argument in sys.argv[5:]]
flows = [item.split("=", 1) if "=" in item else ["flow", item] for item in flows.split(",")]
devnull = os.open(os.devnull, os.O_WRONLY)
actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]


def once(argv):
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench/validate-floor: {' '.join(argv)} failed ({status})")
    return elapsed * 1000, (usage.ru_utime + usage.ru_stime) * 1000


# (tool, file) -> argv; the five-step file first.
commands = {}
for name, path in [("small", small)] + files:
    commands[("floor", name)] = [events, path]
    for label, binary in flows:
        commands[(label, name)] = [binary, "validate", path]
for argv in commands.values():  # warm the page cache
    once(argv)
wall = {key: [] for key in commands}
cpu = {key: [] for key in commands}
for _ in range(runs):
    for key, argv in commands.items():
        elapsed, used = once(argv)
        wall[key].append(elapsed)
        cpu[key].append(used)
med = {key: statistics.median(values) for key, values in wall.items()}
cpu_med = {key: statistics.median(values) for key, values in cpu.items()}

tools = ["floor"] + [label for label, _ in flows]
names = {"floor": "libyaml events (floor)"} | {label: f"`flow validate` ({label})" for label, _ in flows}
print("| file | tool | wall | CPU | wall beyond start-up | CPU beyond start-up | × floor (wall, CPU) |")
print("|---|---|---:|---:|---:|---:|---:|")
for tool in tools:
    print(f"| five steps (start-up) | {names[tool]} | {med[(tool, 'small')]:.1f} ms | {cpu_med[(tool, 'small')]:.1f} ms | | | |")
for name, _ in files:
    floor = med[("floor", name)] - med[("floor", "small")]
    floor_cpu = cpu_med[("floor", name)] - cpu_med[("floor", "small")]
    for tool in tools:
        beyond = med[(tool, name)] - med[(tool, "small")]
        beyond_cpu = cpu_med[(tool, name)] - cpu_med[(tool, "small")]
        ratio = "1" if tool == "floor" else f"**{beyond / floor:.1f}×**, {beyond_cpu / floor_cpu:.1f}×"
        print(
            f"| {name} | {names[tool]} | {med[(tool, name)]:.1f} ms | {cpu_med[(tool, name)]:.1f} ms "
            f"| {beyond:.1f} ms | {beyond_cpu:.1f} ms | {ratio} |"
        )
print(f"\nmedians of {runs} rounds; goal: flow's time beyond start-up at most 3× the floor's")
