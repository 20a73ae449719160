#!/usr/bin/env bash
# bench/for-each.sh — `for-each` at scale: 100,000 items of `sleep: 0s`, and 10,000 GETs to the
# sandbox 32 at once, next to the plain 10,000-step DAG of bench/engine.sh. Per-item engine
# overhead = (flow run − flow validate of the same file) / items; peak RSS from /usr/bin/time -v.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bc time
ITEMS=${ITEMS:-100000}
GETS=${GETS:-10000}
STEPS=${STEPS:-10000}
RUNS=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${sandbox_pid:-}" ] && kill "$sandbox_pid" 2>/dev/null || true' EXIT

if ! swift build -c release --product flow > "$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 1
fi
flow="$(swift build -c release --show-bin-path)/flow"

cat > "$work/sleeps.yaml" <<YAML
version: 1
steps:
  tick:
    for-each: \${{ range(0, $ITEMS) }}
    sleep: 0s
YAML
python3 bench/engine/make_dag.py "$STEPS" 100 "$work/dag.yaml" "$work/dag.json"

# Seconds (wall) and peak RSS (KiB) of one command, its output thrown away.
measure() {
    /usr/bin/time -v "$@" > /dev/null 2> "$work/time.txt" || true
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    echo "$wall $rss"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Medians of RUNS: run and validate of a file; prints "run validate rss".
bench_file() {
    local runs=() validates=() rsses=() line
    for _ in $(seq "$RUNS"); do
        line=$(measure "$flow" run "$1" --log-format json)
        runs+=("${line% *}"); rsses+=("${line#* }")
        line=$(measure "$flow" validate "$1")
        validates+=("${line% *}")
    done
    echo "$(printf '%s\n' "${runs[@]}" | median) $(printf '%s\n' "${validates[@]}" | median) $(printf '%s\n' "${rsses[@]}" | median)"
}

read -r dag_run dag_validate dag_rss <<< "$(bench_file "$work/dag.yaml")"
read -r each_run each_validate each_rss <<< "$(bench_file "$work/sleeps.yaml")"
printf 'for-each: medians of %d runs (/usr/bin/time -v; log as JSON to /dev/null)\n' "$RUNS"
printf '  plain %d-step DAG of sleep: 0s      run %7.3f s  validate %6.3f s  %6.2f µs a step   peak RSS %6.1f MiB\n' \
    "$STEPS" "$dag_run" "$dag_validate" "$(echo "($dag_run - $dag_validate) * 1000000 / $STEPS" | bc -l)" \
    "$(echo "$dag_rss / 1024" | bc -l)"
printf '  for-each over %d sleep: 0s       run %7.3f s  validate %6.3f s  %6.2f µs an item   peak RSS %6.1f MiB (goal < 200)\n' \
    "$ITEMS" "$each_run" "$each_validate" "$(echo "($each_run - $each_validate) * 1000000 / $ITEMS" | bc -l)" \
    "$(echo "$each_rss / 1024" | bc -l)"

"$flow" sandbox --port 0 > "$work/sandbox.out" 2>&1 &
sandbox_pid=$!
for _ in $(seq 50); do grep -q listening "$work/sandbox.out" 2>/dev/null && break; sleep 0.1; done
url=$(head -1 "$work/sandbox.out" | sed 's/listening on //')
cat > "$work/gets.yaml" <<YAML
version: 1
concurrency: 32
steps:
  fetch:
    for-each: \${{ range(0, $GETS) }}
    concurrency: 32
    http: { url: "$url/health" }
YAML
read -r get_run get_validate get_rss <<< "$(bench_file "$work/gets.yaml")"
printf '  for-each over %d GETs, 32 at once   run %7.3f s  validate %6.3f s  %6.2f µs an item   peak RSS %6.1f MiB\n' \
    "$GETS" "$get_run" "$get_validate" "$(echo "($get_run - $get_validate) * 1000000 / $GETS" | bc -l)" \
    "$(echo "$get_rss / 1024" | bc -l)"
