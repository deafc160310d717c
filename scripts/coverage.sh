#!/usr/bin/env bash
# Source-based coverage of Sources/ (`make coverage`; not part of `make test`).
#
# Builds libformwell.so and the formwell tool instrumented (-profile-generate -profile-coverage-mapping)
# into .build/coverage/build (never touching .build/release), runs against them the C tests and the
# conformance runner, the Python tests (FORMWELL_LIBRARY, source tree on PYTHONPATH, no reinstall) and
# the CLI tests, plus `swift test --enable-code-coverage` in .build/coverage/swifttest; merges every
# profile into .build/coverage/merged.profdata and prints line and region coverage per folder of
# Sources/, the largest uncovered regions, and writes an HTML report to .build/coverage/html.
# Not run here: ASan/valgrind/TSan/fuzzing (they add nothing to coverage).
#
#   scripts/coverage.sh          SWIFT and SONAME may be set in the environment (the Makefile does)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SWIFT=${SWIFT:-swift}
SONAME=${SONAME:-libformwell.so.0}
# The llvm tools beside the swift binary (Debian's llvm-cov is too old for Swift's profiles).
TOOLS="$(dirname "$(readlink -f "$(command -v "$SWIFT")")")"
LLVM_COV="$TOOLS/llvm-cov"
LLVM_PROFDATA="$TOOLS/llvm-profdata"

OUT=.build/coverage
BUILD=$OUT/build
BIN=$BUILD/release
PROFILES=$ROOT/$OUT/profiles
SWIFTTEST=$OUT/swifttest
START=$SECONDS

rm -rf "$PROFILES" "$OUT/html" "$OUT/merged.profdata" "$OUT/c"
mkdir -p "$PROFILES" "$OUT/c"

step() { echo "coverage: $* ($((SECONDS - START)) s)"; }

# 1. Instrumented library and tool. Identical flags for both products, so the second build reuses the
#    first one's objects and does not relink the library.
FLAGS=(-c release --scratch-path "$BUILD"
       -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping
       -Xswiftc -static-stdlib -Xswiftc -use-ld=lld
       -Xlinker "--version-script=$ROOT/scripts/exports.map" -Xlinker "-soname=$SONAME")
step "building the instrumented library and tool in $BUILD"
"$SWIFT" build --product formwell "${FLAGS[@]}"
"$SWIFT" build --product formwell-tool "${FLAGS[@]}"
ln -sf libformwell.so "$BIN/$SONAME"

# 2. The suites, each process writing its own raw profile.
step "C tests and conformance runner"
for t in registration_test snapshot_test hostile_test conformance_runner; do
  ${CC:-gcc} -std=c99 -Wall -Wextra -Wpedantic -Werror "bindings/c/tests/$t.c" -o "$OUT/c/$t" \
      -Iinclude -L"$BIN" -lformwell -Wl,-rpath,"$ROOT/$BIN" -pthread -ljansson
done
export LLVM_PROFILE_FILE="$PROFILES/%p-%m.profraw"
for t in registration_test snapshot_test hostile_test; do "$OUT/c/$t"; done
"$OUT/c/conformance_runner" Tests/Conformance/*.json

step "Python tests"
FORMWELL_LIBRARY="$ROOT/$BIN/libformwell.so" PYTHONPATH="$ROOT/bindings/python" \
    "${PYTHON:-python3}" -m pytest bindings/python/tests -q -p no:cacheprovider

step "CLI tests"
FORMWELL_CLI="$ROOT/$BIN/formwell-tool" "${PYTHON:-python3}" -m pytest Tests/CLI -q -p no:cacheprovider
unset LLVM_PROFILE_FILE

step "Swift tests (swift test --enable-code-coverage)"
# Its per-test output goes to a log; shown whole only when something fails.
if ! "$SWIFT" test --enable-code-coverage --scratch-path "$SWIFTTEST" > "$OUT/swifttest.log" 2>&1; then
  cat "$OUT/swifttest.log"; echo "coverage: swift test failed" >&2; exit 1
fi
grep -E "^(Executed|✔ Test run|✘ Test run)" "$OUT/swifttest.log" || true
CODECOV="$(dirname "$("$SWIFT" test --scratch-path "$SWIFTTEST" --show-codecov-path)")"
XCTEST="$(ls -d "$SWIFTTEST"/*/debug/*PackageTests.xctest | head -1)"

# 3. Merge and report, restricted to Sources/.
step "merging profiles"
"$LLVM_PROFDATA" merge -sparse "$PROFILES"/*.profraw "$CODECOV"/*.profraw -o "$OUT/merged.profdata"
COV_ARGS=(-instr-profile="$OUT/merged.profdata" "$BIN/libformwell.so" -object "$BIN/formwell-tool"
          -object "$XCTEST" -ignore-filename-regex='(/Tests/|/Fuzz/|/\.build/|/checkouts/)')
"$LLVM_COV" show -format=html -output-dir "$OUT/html" -show-line-counts-or-regions "${COV_ARGS[@]}"
"$LLVM_COV" export "${COV_ARGS[@]}" > "$OUT/coverage.json"

python3 - "$OUT/coverage.json" "$ROOT/Sources/" <<'EOF'
import json, sys
from collections import defaultdict
data = json.load(open(sys.argv[1]))["data"][0]
prefix = sys.argv[2]
folders = defaultdict(lambda: [0, 0, 0, 0])  # lines covered, lines, regions covered, regions
for f in data["files"]:
    if not f["filename"].startswith(prefix):
        continue
    rel = "Sources/" + f["filename"][len(prefix):]
    s = f["summary"]
    parts = rel.split("/")[:-1]
    for i in range(2, len(parts) + 1):
        t = folders["/".join(parts[:i])]
        t[0] += s["lines"]["covered"]; t[1] += s["lines"]["count"]
        t[2] += s["regions"]["covered"]; t[3] += s["regions"]["count"]
pct = lambda c, n: f"{100.0 * c / n:6.2f}%" if n else "     -"
print(f"\n{'folder':<36} {'lines':>8} {'covered/total':>15} {'regions':>8} {'covered/total':>15}")
for name in sorted(folders):
    lc, ln, rc, rn = folders[name]
    print(f"{name:<36} {pct(lc, ln):>8} {f'{lc}/{ln}':>15} {pct(rc, rn):>8} {f'{rc}/{rn}':>15}")

# The largest uncovered code regions (a region compiled into several binaries counts as covered if
# any of them ran it).
regions = {}
for fn in data["functions"]:
    for fname, r in ((fn["filenames"][r[5]], r) for r in fn["regions"]):
        if r[7] != 0 or not fname.startswith(prefix) or "/FormwellTool/" in fname:
            continue
        key = (fname[len(prefix):], r[0], r[1], r[2], r[3])
        regions[key] = max(regions.get(key, 0), r[4])
zero = [k for k, count in regions.items() if count == 0]
# Drop regions nested inside a larger uncovered region of the same file.
zero.sort(key=lambda k: (k[0], k[1], k[2], -k[3], -k[4]))
outer = []
for k in zero:
    if outer and outer[-1][0] == k[0] and (outer[-1][1], outer[-1][2]) <= (k[1], k[2]) \
            and (k[3], k[4]) <= (outer[-1][3], outer[-1][4]):
        continue
    outer.append(k)
outer.sort(key=lambda k: (-(k[3] - k[1] + 1), k))
print("\nLargest uncovered regions in Sources/Formwell and Sources/FormwellC (lines):")
for k in outer[:10]:
    first = open(prefix + k[0], encoding="utf-8").read().splitlines()[k[1] - 1].strip()
    print(f"  Sources/{k[0]}:{k[1]}-{k[3]}  ({k[3] - k[1] + 1} lines)  {first[:70]}")
EOF
echo
echo "coverage: HTML report in $OUT/html/index.html; done in $((SECONDS - START)) s"
