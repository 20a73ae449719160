#!/usr/bin/env bash
# bench/reports.sh — what the reports cost on a `for-each` over 100,000 items of `sleep: 0s`: the
# same run with `--report html`, with `--report html --report json`, with `--report json`, with
# `--report trace`, and without a report, in interleaved rounds (medians of wall and of CPU time).
# Goal: the reports add at most 20% to the run. A report whose cost grew with the square of the
# items (issue 27: 43 s against 3 s) shows here as a ratio of 10 or more.
# FLOW_BINARY=path measures a given build instead of building the release one; FLOW_BEFORE=path
# measures another build in the same rounds (each of its runs beside the same run of FLOW_BINARY),
# so a change is compared under the same load. The load average is printed before and after.
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
builds=("$flow")
[ -n "${FLOW_BEFORE:-}" ] && builds=("$FLOW_BEFORE" "$flow")

cat > "$work/items.yaml" <<YAML
version: 1
steps:
  tick:
    for-each: \${{ range(0, $ITEMS) }}
    sleep: 0s
YAML

# "wall cpu" seconds of one run (its log to /dev/null; no journal, which bench/for-each.sh
# measures), appended to the series file $1. CPU (user + system) is printed too: on a shared
# machine it moves less than wall time.
wall() {
    local series=$1 binary=$2
    shift 2
    local TIMEFORMAT='%3R %3U %3S'
    { time "$binary" run "$work/items.yaml" --no-journal --log-format json "$@" > /dev/null; } 2> "$work/time"
    awk '{printf "%s %.3f\n", $1, $2 + $3}' "$work/time" >> "$work/$series"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "load before: $(uptime | sed 's/.*load average: //')"
for _ in $(seq "$RUNS"); do
    for b in "${!builds[@]}"; do
        binary=${builds[$b]}
        wall "$b.plain" "$binary"
        wall "$b.page" "$binary" --report html "$work/page.html"
        wall "$b.html" "$binary" --report html "$work/run.html" --report json "$work/run.json"
        wall "$b.json" "$binary" --report json "$work/only.json"
        wall "$b.trace" "$binary" --report trace "$work/trace.json"
    done
done
echo "load after:  $(uptime | sed 's/.*load average: //')"
# Column 1 (wall) or 2 (CPU) of a series, its median.
column() { awk -v n="$1" '{print $n}' "$work/$2" | median; }
row() {
    local label=$1 b=$2 series=$3
    local w c pw pc
    w=$(column 1 "$b.$series") c=$(column 2 "$b.$series")
    pw=$(column 1 "$b.plain") pc=$(column 2 "$b.plain")
    printf '  %-32s%7.3f s  %5.2f×  %7.3f s  %5.2f×%s\n' "$label" "$w" "$(echo "$w / $pw" | bc -l)" \
        "$c" "$(echo "$c / $pc" | bc -l)" "${4:-}"
}
printf 'reports on a for-each over %d items of sleep: 0s (medians of %d interleaved rounds, --no-journal)\n' "$ITEMS" "$RUNS"
for b in "${!builds[@]}"; do
    [ "${#builds[@]}" -gt 1 ] && printf '%s (%s)\n' "$([ "$b" = 0 ] && echo before || echo after)" "${builds[$b]}"
    printf '                                   wall              CPU\n'
    printf '  %-32s%7.3f s          %7.3f s\n' "no report" "$(column 1 "$b.plain")" "$(column 2 "$b.plain")"
    row "--report html" "$b" page
    row "--report html --report json" "$b" html " (goal ≤ 1.20×)"
    row "--report json" "$b" json
    row "--report trace" "$b" trace
done
