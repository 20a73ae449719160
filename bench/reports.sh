#!/usr/bin/env bash
# bench/reports.sh — what the reports cost on a `for-each` over 100,000 items of `sleep: 0s`: the
# same run with `--report html --report json`, with `--report trace`, and without a report, in
# interleaved rounds (medians). Goal: the reports add at most 20% to the run. A report whose cost
# grew with the square of the items (issue 27: 43 s against 3 s) shows here as a ratio of 10 or more.
# FLOW_BINARY=path measures a given build instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
ITEMS=${ITEMS:-100000}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${FLOW_BINARY:-}" ]; then
    flow=$FLOW_BINARY
else
    if ! swift build -c release --product flow > "$work/build.log" 2>&1; then
        cat "$work/build.log" >&2
        exit 1
    fi
    flow="$(swift build -c release --show-bin-path)/flow"
fi

cat > "$work/items.yaml" <<YAML
version: 1
steps:
  tick:
    for-each: \${{ range(0, $ITEMS) }}
    sleep: 0s
YAML

# Wall seconds of one run (its log to /dev/null; no journal, which bench/for-each.sh measures).
wall() {
    local start end
    start=$(date +%s.%N)
    "$flow" run "$work/items.yaml" --no-journal --log-format json "$@" > /dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

plain=() html=() trace=()
for _ in $(seq "$RUNS"); do
    plain+=("$(wall)")
    html+=("$(wall --report html "$work/run.html" --report json "$work/run.json")")
    trace+=("$(wall --report trace "$work/trace.json")")
done
p=$(printf '%s\n' "${plain[@]}" | median)
h=$(printf '%s\n' "${html[@]}" | median)
t=$(printf '%s\n' "${trace[@]}" | median)
printf 'reports on a for-each over %d items of sleep: 0s (medians of %d interleaved rounds, --no-journal)\n' "$ITEMS" "$RUNS"
printf '  no report                       %7.3f s\n' "$p"
printf '  --report html --report json     %7.3f s  %5.2f× (goal ≤ 1.20×)\n' "$h" "$(echo "$h / $p" | bc -l)"
printf '  --report trace                  %7.3f s  %5.2f×\n' "$t" "$(echo "$t / $p" | bc -l)"
