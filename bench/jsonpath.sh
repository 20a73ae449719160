#!/usr/bin/env bash
# bench/jsonpath.sh — an RFC 9535 filter over a 10,000-item JSON document, in flow (`jsonPath()`)
# and in python's jsonpath-ng (its ext parser, which reads the same filter text), side by side in
# the same run, interleaved rounds, medians. Each side is a whole process that reads the document
# from a file, parses it as JSON once and runs the filter QUERIES times (parsing the path each
# time); a baseline of each (the same process without the filter) gives the filter's own cost:
# (run − baseline) / QUERIES. Goal: flow within 2× of jsonpath-ng.
# FLOW_BINARY=path measures a given build instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bc
ITEMS=${ITEMS:-10000}
QUERIES=${QUERIES:-10}
RUNS=${RUNS:-5}
FILTER=${FILTER:-'$.items[?@.price > 50 && @.stock > 0 && @.name != "item-7"]'}
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

# jsonpath-ng (PyPI) in a virtual environment kept between runs.
venv="${XDG_CACHE_HOME:-$HOME/.cache}/flow-bench/venv-jsonpath-ng"
if ! "$venv/bin/python" -c 'import jsonpath_ng.ext' 2>/dev/null; then
    echo "bench/jsonpath.sh: making $venv (pip install jsonpath-ng)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q jsonpath-ng >&2
fi
peer_version=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("jsonpath-ng"))')

python3 - "$ITEMS" > "$work/items.json" <<'PY'
import json, sys
n = int(sys.argv[1])
items = [{"id": i, "name": f"item-{i}", "price": (i * 37) % 1000 / 10, "stock": i % 7} for i in range(n)]
json.dump({"count": n, "items": items}, sys.stdout, separators=(",", ":"))
PY

# The flow side: `load` parses the document once; `query` runs the filter QUERIES times (its
# outputs), or with `baseline` only counts the items.
workflow() {
    local mode=$1
    printf 'version: 1\nsteps:\n'
    printf '  load:\n    run: cat %s/items.json\n' "$work"
    printf '    outputs: { doc: "${{ fromJSON(result.stdout) }}" }\n'
    printf '  query:\n    needs: load\n    run: "true"\n    outputs:\n'
    if [ "$mode" = baseline ]; then
        printf '      q0: ${{ length(steps.load.outputs.doc.items) }}\n'
    else
        for i in $(seq 0 $((QUERIES - 1))); do
            printf "      q%d: \${{ length(jsonPath(steps.load.outputs.doc, '%s')) }}\n" "$i" "$FILTER"
        done
    fi
    printf '  show:\n    needs: query\n    run: echo "matches=${{ steps.query.outputs.q0 }}"\n'
}
workflow filter > "$work/filter.yaml"
workflow baseline > "$work/baseline.yaml"

cat > "$work/peer.py" <<'PY'
import json, sys
from jsonpath_ng.ext import parse
path, mode, queries, text = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
with open(path) as f:
    doc = json.load(f)
if mode == "baseline":
    print(f"matches={len(doc['items'])}")
else:
    for _ in range(queries):
        matches = [m.value for m in parse(text).find(doc)]
    print(f"matches={len(matches)}")
PY

# Wall seconds of one command; its `matches=N` line goes to $work/last.
wall() {
    local start end
    start=$(date +%s.%N)
    "$@" 2> /dev/null | grep -o 'matches=[0-9]*' | tail -1 > "$work/last"
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

fr=() fb=() pr=() pb=()
for _ in $(seq "$RUNS"); do
    fr+=("$(wall "$flow" run "$work/filter.yaml" --no-journal)")
    flow_matches=$(cat "$work/last")
    fb+=("$(wall "$flow" run "$work/baseline.yaml" --no-journal)")
    pr+=("$(wall "$venv/bin/python" -W ignore "$work/peer.py" "$work/items.json" filter "$QUERIES" "$FILTER")")
    peer_matches=$(cat "$work/last")
    pb+=("$(wall "$venv/bin/python" -W ignore "$work/peer.py" "$work/items.json" baseline "$QUERIES" "$FILTER")")
done
if [ "$flow_matches" != "$peer_matches" ] || [ -z "$flow_matches" ]; then
    echo "bench/jsonpath.sh: flow and jsonpath-ng disagree: flow '$flow_matches', jsonpath-ng '$peer_matches'" >&2
    exit 1
fi
f=$(printf '%s\n' "${fr[@]}" | median)
b=$(printf '%s\n' "${fb[@]}" | median)
p=$(printf '%s\n' "${pr[@]}" | median)
q=$(printf '%s\n' "${pb[@]}" | median)
fq=$(echo "($f - $b) * 1000 / $QUERIES" | bc -l)
pq=$(echo "($p - $q) * 1000 / $QUERIES" | bc -l)
printf 'JSONPath filter %s over %d items, %d queries a process (medians of %d interleaved rounds)\n' \
    "$FILTER" "$ITEMS" "$QUERIES" "$RUNS"
printf '  both select %s\n' "${flow_matches#matches=}"
printf '                         whole process   baseline   one filter\n'
printf '  flow jsonPath()          %7.3f s    %7.3f s   %8.2f ms\n' "$f" "$b" "$fq"
printf '  jsonpath-ng %-8s     %7.3f s    %7.3f s   %8.2f ms\n' "$peer_version" "$p" "$q" "$pq"
printf '  flow / jsonpath-ng: one filter %.2f×, whole process %.2f× (goal ≤ 2×)\n' \
    "$(echo "$fq / $pq" | bc -l)" "$(echo "$f / $p" | bc -l)"
