#!/usr/bin/env bash
# FlowTasks hop costs next to a bare Dispatch hop, release build, one run. Used by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product BenchTasks 2>&1 | grep -E "error|Compiling|Build complete" | tail -3
"$(swift build -c release --show-bin-path)/BenchTasks"
