#!/usr/bin/env bash
# bench/xpath — `xpath()` over a 10 MB XML document in a flow run, next to python's lxml (the same
# libxml2 underneath) doing the same query, in the same run.
# flow's XPath cost = (a run that fetches the document and queries it) − (the same run that only
# fetches it), medians; lxml's = parse + queries in-process, median. Goal: flow within 2× of lxml.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bc
MEGABYTES=${MEGABYTES:-10}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null || true' EXIT

# FLOW=path/to/flow measures that binary instead of building one.
if [ -n "${FLOW:-}" ]; then
    flow=$FLOW
else
    if ! swift build -c release --product flow > "$work/build.log" 2>&1; then
        cat "$work/build.log" >&2
        exit 1
    fi
    flow="$(swift build -c release --show-bin-path)/flow"
fi

# lxml's virtual environment, kept between runs.
venv="${XDG_CACHE_HOME:-$HOME/.cache}/flow-bench/venv-lxml"
if ! "$venv/bin/python" -c 'import lxml' 2>/dev/null; then
    echo "making $venv (lxml from PyPI)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q lxml >/dev/null
fi

items=$(python3 bench/xpath/make_doc.py "$work/doc.xml" "$MEGABYTES")
# How many nodes the query matches, as lxml counts them (flow's run fails unless it agrees).
matches=$("$venv/bin/python" bench/xpath/lxml_query.py "$work/doc.xml" 1 | tail -1)
bytes=$(wc -c < "$work/doc.xml")

# The document is served by Python's http.server on a free port (flow reads bodies over HTTP).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port/doc.xml" && break; sleep 0.1; done

cat > "$work/fetch.yaml" <<YAML
version: 1
steps:
  doc:
    http: { url: "http://127.0.0.1:$port/doc.xml" }
    expect:
      assert:
        - length(result.body) > 0
YAML
cat > "$work/query.yaml" <<YAML
version: 1
steps:
  doc:
    http: { url: "http://127.0.0.1:$port/doc.xml" }
    expect:
      assert:
        - length(result.body) > 0
        - length(xpath(result.body, '//item[price > 50]/name')) == $matches
YAML

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

"$flow" run "$work/query.yaml" >/dev/null  # fails the script if a query fails
fetches=(); queries=()
for _ in $(seq "$RUNS"); do
    fetches+=("$(seconds "$flow" run "$work/fetch.yaml")")
    queries+=("$(seconds "$flow" run "$work/query.yaml")")
done
fetch=$(printf '%s\n' "${fetches[@]}" | median)
query=$(printf '%s\n' "${queries[@]}" | median)
flow_xpath=$(echo "$query - $fetch" | bc -l)
lxml_out=$("$venv/bin/python" bench/xpath/lxml_query.py "$work/doc.xml" "$RUNS")
lxml=$(echo "$lxml_out" | head -1)

printf 'xpath: %s bytes of XML (%s items), //item[price > 50]/name (%s nodes), medians of %d runs\n' \
    "$bytes" "$items" "$matches" "$RUNS"
printf '  flow run, fetch only            %8.3f s\n' "$fetch"
printf '  flow run, fetch + xpath()       %8.3f s\n' "$query"
printf '  flow xpath() (difference)       %8.3f s\n' "$flow_xpath"
printf '  lxml parse + xpath (in-proc)    %8.3f s\n' "$lxml"
printf '  flow / lxml                     %8.2f ×   (goal ≤ 2×)\n' "$(echo "$flow_xpath / $lxml" | bc -l)"
