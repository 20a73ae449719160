#!/usr/bin/env bash
# bench/chunkput.sh — flow's 100 KiB chunks against the same work done by a minimal libcurl
# program (bench/chunkput.c: the same Content-Range PUTs, and tus PATCHes with offsets, on one
# kept-alive handle, nothing hashed), to the same `flow sandbox`, on the same file (issue 32).
#
#   bench/chunkput.sh [RUNS]      (default 7; SIZE_MIB=256, CHUNK_KIB=100)
#
# Builds the program with cc against libcurl, starts the sandbox (release build) on a free loopback
# port, makes a file of random bytes, and runs, RUNS rounds, each side in turn: chunkput cr, flow
# cr, chunkput tus, flow tus, each upload checked byte-exact against the sandbox's /info sha256.
# Every other round runs each protocol's sides in the opposite order (flow first): whichever side
# comes right after another upload's end meets the sandbox still freeing that upload's file, so a
# fixed order would favour one side. Seven rounds by default: the row moves ±0.07 from one round
# to the next on this machine, and a median of three followed it.
# Times each as a whole process (bash `time`: wall, user + system CPU), and `openssl dgst -sha256`
# of the file (flow hashes what it sends; the program does not). Prints medians and two ratios:
#   speed: the program's wall time / flow's (≥ 0.95 is the goal: > 1 is flow faster)
#   CPU:   flow's CPU / (the program's CPU + one SHA-256 of the file)  (≤ 1.3 is the goal)
# FLOW=path/to/flow measures that binary (and its sandbox) instead of building the release one;
# BASE=path/to/other/flow measures that build too, in the same rounds (flow-base-cr, flow-base-tus
# beside flow-cr and flow-tus, against the same sandbox): a change side by side with main's build.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
SIZE_MIB=${SIZE_MIB:-256}
CHUNK_KIB=${CHUNK_KIB:-100}
chunk_bytes=$((CHUNK_KIB * 1024))

work=$(mktemp -d /tmp/flow-bench-chunkput.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${FLOW:-}" ]; then
    swift build -c release --product flow 2>&1 | grep -E "error|complete" | tail -2 || true
    FLOW="$(swift build -c release --show-bin-path)/flow"
fi
flow=$FLOW
cc -O2 -Wall -o "$work/chunkput" bench/chunkput.c -lcurl -lcrypto

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/storage"
"$flow" sandbox --port "$port" --storage "$work/storage" > "$work/sandbox.log" 2>&1 &
pids+=($!)
sandbox="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf -o /dev/null "$sandbox/health" && break; sleep 0.1; done

file="$work/data.bin"
head -c "$((SIZE_MIB * 1024 * 1024))" /dev/urandom > "$file"
size=$(stat -c %s "$file")
sha=$(sha256sum "$file" | cut -d' ' -f1)

for protocol in cr tus; do
    url="$sandbox/uploads/tus"
    [ "$protocol" = cr ] && url="$sandbox/uploads/cr/\${{ inputs.id }}"
    cat > "$work/$protocol.yaml" <<YAML
version: 1
inputs:
  id: { type: string, required: true }
steps:
  upload:
    upload:
      file: $file
      url: $url
      protocol: $([ "$protocol" = cr ] && echo content-range || echo tus)
      chunk-size: ${CHUNK_KIB}KiB
    outputs:
      location: \${{ result.location }}
  where:
    needs: upload
    run: [echo, "LOCATION=\${{ steps.upload.outputs.location }}"]
YAML
done

# timed command... -> "wall cpu" (seconds); its output stays in out.txt
timed() {
    local TIMEFORMAT='%3R %3U %3S'
    { time "$@" > "$work/out.txt" 2>&1; } 2> "$work/time.txt" || { cat "$work/out.txt" >&2; return 1; }
    awk '{printf "%s %.3f\n", $1, $2 + $3}' "$work/time.txt"
}
verify() { # upload-url
    local info
    info=$(curl -sf "$1/info")
    case "$info" in
        *"\"sha256\":\"$sha\""*'"complete":true'* | *'"complete":true'*"\"sha256\":\"$sha\""*) ;;
        *) echo "bench/chunkput.sh: upload $1 is not byte-exact: $info" >&2; exit 1 ;;
    esac
    curl -sf -X POST -o /dev/null "$sandbox/_reset" # frees the stored files
}
location() { grep -o 'LOCATION=[^" ]*' "$work/out.txt" | tail -1 | cut -d= -f2-; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A wall cpu
sides="program-cr flow-cr program-tus flow-tus sha256"
[ -n "${BASE:-}" ] && sides="program-cr flow-base-cr flow-cr program-tus flow-base-tus flow-tus sha256"
# The sides of a round, in the opposite order within each protocol when `reverse` is 1.
ordered() { # reverse
    local protocol group side
    for protocol in cr tus; do
        group=()
        for side in $sides; do
            case $side in *-$protocol) group+=("$side") ;; esac
        done
        if [ "$1" = 1 ]; then
            for ((i = ${#group[@]} - 1; i >= 0; i--)); do printf '%s ' "${group[i]}"; done
        else
            printf '%s ' "${group[@]}"
        fi
    done
    echo sha256
}

for run in $(seq "$RUNS"); do
    printf 'run %d:' "$run"
    for side in $(ordered $(((run + 1) % 2))); do
        case $side in
            program-cr) read -r w c < <(timed "$work/chunkput" cr "$sandbox/uploads/cr/p$run" "$file" "$chunk_bytes") ;;
            flow-cr) read -r w c < <(timed "$flow" run "$work/cr.yaml" --input "id=f$run" --no-journal --log-format json) ;;
            program-tus) read -r w c < <(timed "$work/chunkput" tus "$sandbox/uploads/tus" "$file" "$chunk_bytes") ;;
            flow-tus) read -r w c < <(timed "$flow" run "$work/tus.yaml" --input "id=t$run" --no-journal --log-format json) ;;
            flow-base-cr) read -r w c < <(timed "$BASE" run "$work/cr.yaml" --input "id=b$run" --no-journal --log-format json) ;;
            flow-base-tus) read -r w c < <(timed "$BASE" run "$work/tus.yaml" --input "id=u$run" --no-journal --log-format json) ;;
            sha256) read -r w c < <(timed openssl dgst -sha256 "$file") ;;
        esac
        [ "$side" = sha256 ] || verify "$(location)"
        wall[$side]+="$w "
        cpu[$side]+="$c "
        printf ' %s %.2fs' "$side" "$w"
    done
    echo
done

med() { # array side
    local -n series=$1
    printf '%s\n' ${series[$2]} | median
}
chunks=$(((size + chunk_bytes - 1) / chunk_bytes))
hash=$(med cpu sha256)
echo
echo "bench/chunkput.sh: $SIZE_MIB MiB in $CHUNK_KIB KiB chunks ($chunks requests) to flow sandbox, medians of $RUNS"
printf '%-40s %8s %8s %9s\n' "side" "wall s" "CPU s" "MiB/s"
for side in $sides; do
    printf '%-40s %8.3f %8.3f %9.0f\n' "$side" "$(med wall $side)" "$(med cpu $side)" \
        "$(echo "$SIZE_MIB / $(med wall $side)" | bc -l)"
done
for protocol in cr tus; do
    [ -n "${BASE:-}" ] && printf '%-4s base speed %.2f× the program; base CPU %.2f× the program + one SHA-256\n' \
        "$protocol" "$(echo "$(med wall program-$protocol) / $(med wall flow-base-$protocol)" | bc -l)" \
        "$(echo "$(med cpu flow-base-$protocol) / ($(med cpu program-$protocol) + $hash)" | bc -l)"
    printf '%-4s flow speed %.2f× the program (goal ≥ 0.95×); flow CPU %.2f× the program + one SHA-256 (goal ≤ 1.3×)\n' \
        "$protocol" "$(echo "$(med wall program-$protocol) / $(med wall flow-$protocol)" | bc -l)" \
        "$(echo "$(med cpu flow-$protocol) / ($(med cpu program-$protocol) + $hash)" | bc -l)"
done
