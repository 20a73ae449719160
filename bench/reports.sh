#!/usr/bin/env bash
# bench/reports.sh — what the reports cost on a `for-each` over 100,000 items of `sleep: 0s`: the
# same run with `--report html`, with `--report html --report json`, with `--report trace`, and
# without a report, in interleaved rounds (medians of wall and of CPU time). Goal: the reports add
# at most 20% to the run. A report whose cost grew with the square of the items (issue 27: 43 s
# against 3 s) shows here as a ratio of 10 or more.
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

# "wall cpu" seconds of one run (its log to /dev/null; no journal, which bench/for-each.sh
# measures). CPU (user + system) is printed too: on a shared machine it moves less than wall time.
wall() {
    local TIMEFORMAT='%3R %3U %3S'
    { time "$flow" run "$work/items.yaml" --no-journal --log-format json "$@" > /dev/null; } 2> "$work/time"
    awk '{printf "%s %.3f\n", $1, $2 + $3}' "$work/time"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

plain=() html=() page=() trace=()
for _ in $(seq "$RUNS"); do
    plain+=("$(wall)")
    page+=("$(wall --report html "$work/page.html")")
    html+=("$(wall --report html "$work/run.html" --report json "$work/run.json")")
    trace+=("$(wall --report trace "$work/trace.json")")
done
# Column 1 (wall) or 2 (CPU) of a series, its median.
column() { local n=$1; shift; printf '%s\n' "$@" | awk -v n="$n" '{print $n}' | median; }
p=$(column 1 "${plain[@]}") pc=$(column 2 "${plain[@]}")
h=$(column 1 "${html[@]}") hc=$(column 2 "${html[@]}")
g=$(column 1 "${page[@]}") gc=$(column 2 "${page[@]}")
t=$(column 1 "${trace[@]}") tc=$(column 2 "${trace[@]}")
printf 'reports on a for-each over %d items of sleep: 0s (medians of %d interleaved rounds, --no-journal)\n' "$ITEMS" "$RUNS"
printf '                                   wall              CPU\n'
printf '  no report                       %7.3f s          %7.3f s\n' "$p" "$pc"
printf '  --report html                   %7.3f s  %5.2f×  %7.3f s  %5.2f×\n' \
    "$g" "$(echo "$g / $p" | bc -l)" "$gc" "$(echo "$gc / $pc" | bc -l)"
printf '  --report html --report json     %7.3f s  %5.2f×  %7.3f s  %5.2f× (goal ≤ 1.20×)\n' \
    "$h" "$(echo "$h / $p" | bc -l)" "$hc" "$(echo "$hc / $pc" | bc -l)"
printf '  --report trace                  %7.3f s  %5.2f×  %7.3f s  %5.2f×\n' \
    "$t" "$(echo "$t / $p" | bc -l)" "$tc" "$(echo "$tc / $pc" | bc -l)"
