#!/usr/bin/env bash
# bench/flowkit — the cost of observing a run through FlowKit's AsyncSequence of events: a
# 10,000-step layered DAG of `sleep: 0s` steps run in-process by BenchFlowKit (every event read),
# next to `flow run --no-journal --log-format json` (the CLI printing two JSON lines a step) on the
# same file. Both without a journal; both times from loading the file to the outcome (the CLI's
# is the whole process, so it also counts its start). Goal: FlowKit within 10% of the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bc
STEPS=${STEPS:-10000}
WIDTH=${WIDTH:-100}
RUNS=${RUNS:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# BUILD_FLAGS: extra flags for `swift build` (e.g. --ignore-lock where worktrees share its lock).
if ! swift build -c release ${BUILD_FLAGS:-} --product flow > "$work/build.log" 2>&1 \
    || ! swift build -c release ${BUILD_FLAGS:-} --product BenchFlowKit >> "$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 1
fi
bin="$(swift build -c release ${BUILD_FLAGS:-} --show-bin-path)"
python3 bench/engine/make_dag.py "$STEPS" "$WIDTH" "$work/dag.yaml" "$work/dag.json"

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

clis=(); kits=(); events=0
for _ in $(seq "$RUNS"); do
    clis+=("$(seconds "$bin/flow" run "$work/dag.yaml" --no-journal --log-format json)")
    read -r kit events _ < <("$bin/BenchFlowKit" "$work/dag.yaml")
    kits+=("$kit")
done
cli=$(printf '%s\n' "${clis[@]}" | median)
kit=$(printf '%s\n' "${kits[@]}" | median)
printf 'flowkit: %d-step layered DAG (width %d), medians of %d paired runs\n' "$STEPS" "$WIDTH" "$RUNS"
printf '  flow run --no-journal (whole process)   %8.3f s\n' "$cli"
printf '  FlowKit, every event read (%d events)   %8.3f s\n' "$events" "$kit"
printf '  FlowKit / CLI                           %8.3f    (goal ≤ 1.10)\n' "$(echo "$kit / $cli" | bc -l)"
