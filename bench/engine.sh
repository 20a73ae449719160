#!/usr/bin/env bash
# bench/engine — flow's scheduler on a 10,000-step layered DAG of `sleep: 0s` steps, next to
# dask's threaded scheduler running the identical graph of no-op tasks, in the same run.
# Engine overhead per step = (flow run − flow validate of the same file) / steps.
# Also counts flow's threads while 1,000 HTTP requests are in flight.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bc
STEPS=${STEPS:-10000}
WIDTH=${WIDTH:-100}
RUNS=${RUNS:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${sandbox_pid:-}" ] && kill "$sandbox_pid" 2>/dev/null || true' EXIT

# The build's output only when it fails (a grep of it failed the script when there was nothing to build).
if ! swift build -c release --product flow > "$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 1
fi
flow="$(swift build -c release --show-bin-path)/flow"

# dask's virtual environment, kept between runs (installing it takes longer than the benchmark).
venv="${XDG_CACHE_HOME:-$HOME/.cache}/flow-bench/venv-dask"
if ! "$venv/bin/python" -c 'import dask' 2>/dev/null; then
    echo "making $venv (dask from PyPI)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q dask >/dev/null
fi

python3 bench/engine/make_dag.py "$STEPS" "$WIDTH" "$work/dag.yaml" "$work/dag.json"

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Rounds: dask, then `flow run` and `flow validate` one after the other, in turns which goes
# first (the process right after dask's meets cold caches: about 10 ms more, which made the run
# look slower when it always came first). The engine's figure is the median of the rounds' own
# differences, run − validate, so a slower or faster moment of the machine counts for both sides.
runs=(); validates=(); dasks=(); differences=()
for round in $(seq "$RUNS"); do
    dasks+=("$("$venv/bin/python" bench/engine/dask_run.py "$work/dag.json")")
    if [ $((round % 2)) -eq 1 ]; then
        r=$(seconds "$flow" run "$work/dag.yaml" --log-format json)
        v=$(seconds "$flow" validate "$work/dag.yaml")
    else
        v=$(seconds "$flow" validate "$work/dag.yaml")
        r=$(seconds "$flow" run "$work/dag.yaml" --log-format json)
    fi
    runs+=("$r")
    validates+=("$v")
    differences+=("$(echo "$r - $v" | bc -l)")
done
run=$(printf '%s\n' "${runs[@]}" | median)
validate=$(printf '%s\n' "${validates[@]}" | median)
dask=$(printf '%s\n' "${dasks[@]}" | median)
overhead=$(echo "$(printf '%s\n' "${differences[@]}" | median) * 1000000 / $STEPS" | bc -l)
printf 'engine: %d-step layered DAG (width %d), medians of %d rounds\n' "$STEPS" "$WIDTH" "$RUNS"
printf '  flow run (whole process)   %8.3f s\n' "$run"
printf '  flow validate (same file)  %8.3f s\n' "$validate"
printf '  flow engine per step       %8.2f µs   (goal ≤ 5 µs; the median of run − validate in each round)\n' "$overhead"
# The run as the summary reports it (its own clock, from the first step started to the last finished).
inner=$("$flow" run "$work/dag.yaml" --log-format json 2>&1 | tail -1 | sed -E 's/.*"duration":([0-9.]+).*/\1/')
printf '  flow run, summary time     %8.3f s    (%.2f µs a step, printing 2 events a step)\n' \
    "$inner" "$(echo "$inner * 1000000 / $STEPS" | bc -l)"
printf '  dask threaded scheduler    %8.3f s\n' "$dask"
printf '  dask / flow run            %8.1f ×    (goal ≥ 10×)\n' "$(echo "$dask / $run" | bc -l)"
printf '  dask / flow engine only    %8.1f ×\n' "$(echo "$dask / ($run - $validate)" | bc -l)"

# The HTML report of the same run (issue 17): its size (goal < 5 MB at 10,000 steps) and the time
# it adds to the run — recording every event's time and drawing the page — as the median of runs
# with `--report html` minus the median without. The trace's size beside it.
htmls=()
for _ in $(seq "$RUNS"); do
    htmls+=("$(seconds "$flow" run "$work/dag.yaml" --log-format json --report html "$work/dag.html")")
done
html_run=$(printf '%s\n' "${htmls[@]}" | median)
"$flow" run "$work/dag.yaml" --log-format json --report trace "$work/dag.trace.json" > /dev/null 2>&1
printf '  --report html: %.2f MB, adds %.3f s to the run   (goal < 5 MB)\n' \
    "$(echo "$(stat -c %s "$work/dag.html") / 1000000" | bc -l)" "$(echo "$html_run - $run" | bc -l)"
printf '  --report trace: %.2f MB\n' "$(echo "$(stat -c %s "$work/dag.trace.json") / 1000000" | bc -l)"

# Threads while 1,000 requests are in flight: a group of 1,000 slow GETs against the sandbox.
"$flow" sandbox --port 0 > "$work/sandbox.out" 2>&1 &
sandbox_pid=$!
for _ in $(seq 50); do grep -q listening "$work/sandbox.out" 2>/dev/null && break; sleep 0.1; done
url=$(head -1 "$work/sandbox.out" | sed 's/listening on //')
{
    echo "version: 1"
    echo "concurrency: 1000"
    echo "steps:"
    for i in $(seq 1000); do echo "  r$i: { http: { url: \"$url/delay/3000\", timeout: 30s } }"; done
} > "$work/inflight.yaml"
"$flow" run "$work/inflight.yaml" --log-format json > /dev/null 2>&1 &
run_pid=$!
sleep 1.5
threads=$(awk '/^Threads:/ {print $2}' "/proc/$run_pid/status")
wait "$run_pid" || true
printf '  threads of flow with 1,000 requests in flight: %s (2 cores)\n' "$threads"
