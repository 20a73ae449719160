#!/usr/bin/env bash
# bench/upload-pair.sh — builds of flow side by side on uploads, in interleaved rounds (issue 32,
# round nine: the upload's file reads and the allocator).
#
#   [WORK="idle tus cr cr100"] bench/upload-pair.sh RUNS NAME=BINARY...
#
# One `flow sandbox` (the first build's) on a free loopback port; each round runs every build on
# each workload in turn, `flow run --no-journal` under /usr/bin/time (wall, user+sys, peak RSS):
#   idle:  one `run: 'true'` step (what the process holds without uploading: UploadMemoryTests' idle);
#   tus:   200 MiB over tus in 8 MiB chunks, with the sandbox's checksums (UploadMemoryTests' case);
#   cr:    1 GiB over content-range in 8 MiB chunks (bench/upload's row);
#   cr100: the 200 MiB file over content-range in 100 KiB chunks.
# Prints one line a run, then medians (and the largest peak) by workload and build.
set -euo pipefail
RUNS=$1; shift
work=$(mktemp -d /tmp/flow-bench-upload-pair.XXXXXX)
first=${1#*=}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/storage"
"$first" sandbox --port "$port" --storage "$work/storage" > "$work/sandbox.log" 2>&1 &
sb=$!
trap 'kill $sb; rm -rf $work' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf -o /dev/null "$base/health" && break; sleep 0.1; done
head -c $((200<<20)) /dev/urandom > "$work/200.bin"
case " ${WORK:-idle tus cr cr100} " in *" cr "*) head -c $((1024<<20)) /dev/urandom > "$work/1g.bin" ;; esac
cat > "$work/tus.yaml" <<Y
version: 1
steps:
  send:
    upload: { file: $work/200.bin, url: $base/uploads/tus, protocol: tus, chunk-size: 8MiB }
Y
cat > "$work/cr.yaml" <<Y
version: 1
inputs:
  id: { type: string, required: true }
steps:
  send:
    upload: { file: $work/1g.bin, url: "$base/uploads/cr/\${{ inputs.id }}", protocol: content-range, chunk-size: 8MiB }
Y
cat > "$work/cr100.yaml" <<Y
version: 1
inputs:
  id: { type: string, required: true }
steps:
  send:
    upload: { file: $work/200.bin, url: "$base/uploads/cr/\${{ inputs.id }}", protocol: content-range, chunk-size: 100KiB }
Y
cat > "$work/idle.yaml" <<Y
version: 1
steps:
  idle: { run: 'true' }
Y
for r in $(seq "$RUNS"); do
  for side in "$@"; do
    name=${side%%=*}; bin=${side#*=}
    for w in ${WORK:-idle tus cr}; do
      args=(); [ $w != idle ] && [ $w != tus ] && args=(--input id=$name-$r-$RANDOM)
      /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$bin" run --no-journal "$work/$w.yaml" "${args[@]}" > "$work/o" 2>&1 || { cat "$work/o"; exit 1; }
      read e u s m < "$work/t"
      echo "$r $name $w wall=$e cpu=$(echo "$u+$s" | bc) peakMiB=$(echo "scale=1; $m/1024" | bc)"
    done
    curl -sf -X POST -o /dev/null "$base/_reset"
  done
done | tee "$work/runs"
python3 - "$work/runs" <<'PY'
import collections, re, statistics, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    m = re.match(r"\d+ (\S+) (\S+) wall=(\S+) cpu=(\S+) peakMiB=(\S+)", line)
    if m:
        for key, value in zip(("wall", "cpu", "peak"), m.groups()[2:]):
            runs[(m.group(2), m.group(1))][key].append(float(value))
for (work, name), v in sorted(runs.items()):
    print(f"{work:6} {name:10} n={len(v['wall'])} wall {statistics.median(v['wall']):.3f} s"
          f"  cpu {statistics.median(v['cpu']):.3f} s  peak {statistics.median(v['peak']):.1f} MiB"
          f" (largest {max(v['peak']):.1f})")
PY
