#!/usr/bin/env python3
"""bench/slow-link/floor.py — the least time scenario.yaml can take over a link of RTT seconds a
round trip (issue 32), computed from the workflow itself:

    floor.py WORKFLOW FILE-SIZE [RTT]      prints "dag SECONDS ROUND-TRIPS" and "sequential SECONDS ROUND-TRIPS"

A request is one round trip; a tus upload is its creation POST plus one PATCH a chunk (a
Content-Range upload one PUT a chunk); `run` and `sleep` steps none. Each host (the input its URL
starts with, or `defaults.http.base-url`'s) costs one connection set-up, one round trip, the first
time a path reaches it; the connection is reused after. `dag`: the longest chain of `needs` (an
`any` group costs its cheapest child, an `all` group its dearest). `sequential`: every step in
the file's order, one after another (an `any` group's first child only: it answers), each host
set up once. Bytes cost nothing: the proxy adds no bandwidth limit to loopback's.
"""
import math
import re
import sys

import yaml


def chunk_bytes(text):
    match = re.fullmatch(r"(\d+)\s*(KiB|MiB|B)?", str(text))
    return int(match.group(1)) * {"KiB": 1024, "MiB": 1024 * 1024, None: 1, "B": 1}[match.group(2)]


def host(url, base):
    """The input a URL's host comes from (`api`), or the base URL's for a path."""
    match = re.match(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", str(url))
    if match:
        return match.group(1)
    return host(base, "") if base else "?"


def main():
    workflow = yaml.safe_load(open(sys.argv[1]))
    size = int(sys.argv[2])
    rtt = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    base = workflow.get("defaults", {}).get("http", {}).get("base-url", "")

    def trips(step):
        """(round trips, host) of a step that is not a group."""
        if "http" in step:
            return 1, host(step["http"]["url"], base)
        if "upload" in step:
            upload = step["upload"]
            chunks = math.ceil(size / chunk_bytes(upload.get("chunk-size", "8MiB")))
            return chunks + (1 if upload.get("protocol", "tus") == "tus" else 0), host(upload["url"], base)
        return 0, None

    def cost(step, hosts):
        """(round trips, hosts reached) of a step run after a path that reached `hosts`."""
        if "parallel" in step:
            children = [cost(child, hosts) for child in step["steps"].values()]
            pick = min if step["parallel"] == "any" else max
            return pick(children, key=lambda pair: pair[0])
        count, reached = trips(step)
        if reached is None:
            return 0, hosts
        return count + (0 if reached in hosts else 1), hosts | {reached}

    steps = workflow["steps"]
    done = {}

    def finish(name):
        """(round trips to the end of `name`, hosts on that path): the longest path to it."""
        if name not in done:
            needs = steps[name].get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            before = max((finish(need) for need in needs), key=lambda pair: pair[0], default=(0, frozenset()))
            count, hosts = cost(steps[name], before[1])
            done[name] = (before[0] + count, hosts)
        return done[name]

    dag = max(finish(name)[0] for name in steps)
    sequential, hosts = 0, frozenset()
    for step in steps.values():
        if step.get("parallel") == "any":
            step = next(iter(step["steps"].values()))
        count, hosts = cost(step, hosts)
        sequential += count
    print(f"dag {dag * rtt:.3f} {dag}")
    print(f"sequential {sequential * rtt:.3f} {sequential}")


main()
