#!/usr/bin/env bash
# Builds and runs a libFuzzer harness over FlowDSL (SwiftPM has no fuzz target type).
#
#   scripts/fuzz.sh [workflow|expression] [seconds]    (defaults: workflow, 600)
#
# FlowDSL, Yams and libyaml (C) are built by SwiftPM in their own scratch folder with coverage
# instrumentation and AddressSanitizer (Swift with -sanitize=fuzzer,address, C with
# -fsanitize=fuzzer-no-link,address, without linking libFuzzer into a library); the
# harness in Fuzz/<Name>Fuzzer/main.swift is then linked against their objects with libFuzzer's main.
#
# The corpus grows in .build-fuzz/corpus/<target>, seeded from workflows/, Fuzz/WorkflowFuzzer/seeds/,
# the YAML examples of Grammar.md and README.md, and Tests/FlowDSLTests/Fixtures/ (expressions: every
# `${{ }}` found in those). Crashing inputs land in .build-fuzz/crashes/; copy
# each into Tests/FlowDSLTests/Fixtures/fuzz/ once fixed, so FuzzRegressionTests keeps it fixed.
# Extra arguments after the two are passed to libFuzzer (e.g. -jobs=2, -only_ascii=1).
set -euo pipefail

target=${1:-workflow}
seconds=${2:-600}
shift $(($# < 2 ? $# : 2))
case "$target" in
workflow) harness=WorkflowFuzzer ;;
expression) harness=ExpressionFuzzer ;;
*)
    echo "usage: scripts/fuzz.sh [workflow|expression] [seconds] [libFuzzer options...]" >&2
    exit 64
    ;;
esac

cd "$(dirname "$0")/.."
scratch=.build-fuzz
# SwiftPM's `--sanitize fuzzer` does not always reach the Swift frontend of a library target (it
# compiled FlowDSL with ASan only, after a Package.swift change), so coverage is asked for explicitly.
swift build --target FlowDSL --scratch-path "$scratch" --sanitize fuzzer --sanitize address \
    -Xswiftc -sanitize=fuzzer -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xcc -fsanitize=fuzzer-no-link >&2
debug="$scratch/debug"
# FlowDSL's own dependencies too: the libxml2 shim (xpath()) and the hashes (sha256()).
objects=$(find "$debug/FlowDSL.build" "$debug/Yams.build" "$debug/CYaml.build" "$debug/CXMLShim.build" \
    "$debug/FlowDigest.build" "$debug/CDigest.build" -name '*.o' | sort)
binary="$scratch/$target-fuzzer"
# -parse-as-library: libFuzzer brings main(); the harness only exports LLVMFuzzerTestOneInput.
# shellcheck disable=SC2086
swiftc -parse-as-library -sanitize=fuzzer,address -use-ld=lld -g -I "$debug/Modules" \
    -I "$scratch/checkouts/Yams/Sources/CYaml/include" \
    -Xcc -fmodule-map-file="$debug/CDigest.build/module.modulemap" \
    -Xcc -fmodule-map-file="$debug/CXMLShim.build/module.modulemap" \
    "Fuzz/$harness/main.swift" $objects -lxml2 -lcrypto -o "$binary"

corpus="$scratch/corpus/$target"
seeds="$scratch/seeds/$target"
crashes="$scratch/crashes"
mkdir -p "$corpus" "$seeds" "$crashes"
python3 - "$target" "$seeds" <<'PYTHON'
import glob, hashlib, os, re, sys
target, out = sys.argv[1], sys.argv[2]
files = sorted(glob.glob("workflows/*.yaml") + glob.glob("Fuzz/WorkflowFuzzer/seeds/*.yaml")
               + glob.glob("Tests/FlowDSLTests/Fixtures/**/*.yaml", recursive=True))
texts = [open(path, "rb").read() for path in files]
for path in ["Grammar.md", "README.md"]:
    if os.path.exists(path):
        markdown = open(path, encoding="utf-8").read()
        texts += [block.encode() for block in re.findall(r"```yaml\n(.*?)```", markdown, re.S)]
if target == "expression":
    found = set()
    for text in texts:
        for inner in re.findall(rb"\$\{\{(.*?)\}\}", text):
            found.add(inner.strip())
        found.update(re.findall(rb"[^\n\"']*\$\{\{.*?\}\}[^\n\"']*", text))
    found.update([b"a.b['c-d'][0] == 'x' && !(1 < 2.5) || null", b"format('{0}-{1}', 'a', 3)",
                  b"fromJSON('[1, {\"a\": true}]')[1].a", b"contains(join(steps.a.outputs.list, ','), \"x\")"])
    texts = sorted(found)
for text in texts:
    with open(os.path.join(out, hashlib.sha1(text).hexdigest()), "wb") as seed:
        seed.write(text)
print("fuzz.sh: %d seeds for %s" % (len(texts), target), file=sys.stderr)
PYTHON

exec "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -dict="Fuzz/$harness/$target.dict" -artifact_prefix="$crashes/$target-" \
    "$@" "$corpus" "$seeds"
