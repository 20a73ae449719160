#!/usr/bin/env python3
"""Writes a valid workflow of N steps with random needs and expressions, for bench/validate.

    bench/validate-generate.py STEPS OUTPUT.yaml [SEED | --chain]

Steps need 0-3 earlier steps (mostly near ones, some anywhere before), read a need's output (or,
one time in five, the output of a need's need) through an expression, and every 100th step is a `parallel: all` group of three children, so the checker
sees the DAG, groups, references and expressions a real file has, at scale. Outputs are declared
only where something reads them, so the file validates without warnings.
"""
import random
import sys


def chain(count, path):
    """A chain where every step reads the first one's output (a login token, say): the reads the
    race check must answer far from the reader."""
    out = ["version: 1", "name: chain-%d" % count, "steps:",
           "  s0: { run: x, outputs: { v: \"${{ result.stdout }}\" } }"]
    for i in range(1, count):
        out.append("  s%d: { needs: s%d, run: [echo, \"${{ steps.s0.outputs.v }}\"] }" % (i, i - 1))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    count = int(sys.argv[1])
    path = sys.argv[2]
    if len(sys.argv) > 3 and sys.argv[3] == "--chain":
        chain(count, path)
        return
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 4)
    # Top-level step i: its needs and which need's output it reads.
    needs = []
    reads = []
    groups = set()
    top_level = 0
    total = 0
    while total < count:
        i = top_level
        candidates = set()
        for _ in range(rng.randint(0, 3) if i > 0 else 0):
            if rng.random() < 0.7:
                candidates.add(rng.randint(max(0, i - 20), i - 1))
            else:
                candidates.add(rng.randint(0, i - 1))
        chosen = sorted(candidates)
        needs.append(chosen)
        source = rng.choice(chosen) if chosen and rng.random() < 0.8 else None
        # One read in five reaches further back, through a need's needs: legal, and the case
        # the checker cannot answer from the direct needs alone.
        if source is not None and needs[source] and rng.random() < 0.2:
            source = rng.choice(needs[source])
        if i % 100 == 99 and count - total >= 4:
            groups.add(i)
            total += 4
        else:
            total += 1
        # Groups and sleeps read nothing, so they must not make their source declare an output.
        reads.append(None if i in groups or i % 11 == 5 else source)
        top_level += 1
    read = {r for r in reads if r is not None}

    out = ["version: 1", "name: bench-%d" % count, "inputs:",
           "  base: { type: string, default: \"http://127.0.0.1:1\" }",
           "  token: { type: string, default: secret }",
           "defaults:", "  http: { base-url: \"${{ inputs.base }}\", timeout: 5s }",
           "  retry: { attempts: 2, delay: 100ms }", "steps:"]
    # One line a step (flow style), so that 100,000 steps fit in flow's 10 MiB file limit.
    for i in range(top_level):
        source = reads[i]
        read_it = "${{ steps.s%d.outputs.v }}" % source if source is not None else None
        fields = []
        if needs[i]:
            fields.append("needs: [%s]" % ", ".join("s%d" % n for n in needs[i]))
        if i in groups:
            children = ", ".join("s%dc%d: { sleep: 1ms }" % (i, c) for c in range(3))
            fields.append("parallel: all, steps: { %s }" % children)
        elif i % 7 == 3:
            fields.append("run: [echo, \"%s\"]" % (read_it or "x"))
        elif i % 11 == 5:
            fields.append("sleep: 10ms")
        else:
            request = "url: \"/%s\"" % read_it if read_it else "url: /i/%d" % i
            if i % 10 == 0:
                request = "method: POST, " + request + ", headers: { Authorization: \"Bearer ${{ inputs.token }}\" }"
            fields.append("http: { %s }" % request)
            if i % 5 == 0:
                fields.append("expect: { status: 2xx }")
            if read_it and i % 3 == 0:
                fields.append("if: \"${{ steps.s%d.outputs.v != '' }}\"" % source)
        if i in read:
            if i in groups:
                fields.append("outputs: { v: \"${{ steps.s%dc0.status }}\" }" % i)
            elif i % 7 == 3:
                fields.append("outputs: { v: \"${{ result.stdout }}\" }")
            elif i % 11 == 5:
                fields.append("outputs: { v: done }")
            else:
                fields.append("outputs: { v: \"${{ result.status }}\" }")
        out.append("  s%d: { %s }" % (i, ", ".join(fields)))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
