#!/usr/bin/env bash
# FlowTasks hop costs next to a bare Dispatch hop, release build, one run. Used by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
# The build's output only when it fails (a grep of it failed the script when there was nothing to build).
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build -c release --product BenchTasks > "$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
"$(swift build -c release --show-bin-path)/BenchTasks"
