#!/usr/bin/env bash
# Builds Fuzz/ThreadStress with ThreadSanitizer (all of Sources/Formwell and Sources/FormwellC plus the
# stress program) into .build/tsan/ and runs it. Fails on any TSan report, failed check, crash or hang.
#
#   scripts/tsan_stress.sh            build (if needed) and run
#   STRESS_THREADS=8 STRESS_OPS=10000 STRESS_SHARED_THREADS=4 scripts/tsan_stress.sh   (the defaults)
#   FUZZ_REV=HEAD scripts/tsan_stress.sh   build that git revision's Sources/ instead of the working tree
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SWIFTC=${SWIFTC:-swiftc}
OUT=$ROOT/.build/tsan
FLAGS=(-swift-version 6 -O -g -sanitize=thread -I "$ROOT/Sources/CPCRE2" -I "$ROOT/Sources/CFormwellTypes" -I "$ROOT/Sources/CFormwellAtomics")
mkdir -p "$OUT/work"
# swiftc leaves by-products (<module>-1.swiftmodule ...) in its working directory: keep them in .build.
swiftc_in_build() { (cd "$OUT/work" && "$SWIFTC" "$@"); }

src=$ROOT/Sources
if [ -n "${FUZZ_REV:-}" ]; then
  rm -f "$OUT/Formwell.o"   # exported files carry the commit's dates, so always rebuild
  src="$OUT/src-$FUZZ_REV/Sources"
  rm -rf "$OUT/src-$FUZZ_REV" && mkdir -p "$OUT/src-$FUZZ_REV"
  git archive "$FUZZ_REV" Sources | tar -x -C "$OUT/src-$FUZZ_REV"
  echo "tsan: building sources of $FUZZ_REV ($(git rev-parse --short "$FUZZ_REV"))"
fi
mapfile -t engine < <(find "$src/Formwell" -name '*.swift' | sort)
mapfile -t abi < <(find "$src/FormwellC" -name '*.swift' | sort)
mapfile -t stress < <(find "$ROOT/Fuzz/ThreadStress" -name '*.swift' | sort)

# shellcheck source=scripts/sanitizer_build.sh
source "$ROOT/scripts/sanitizer_build.sh"

started=$(date +%s)
if stale "$OUT/Formwell.o" "${engine[@]}" "$0"; then
  echo "tsan: building module Formwell"
  swiftc_in_build "${FLAGS[@]}" -parse-as-library -module-name Formwell -wmo -c "${engine[@]}" \
    -emit-module -emit-module-path "$OUT/Formwell.swiftmodule" -o "$OUT/Formwell.o"
fi
# Makes Swift's Mutex visible to TSan (see the file's comment); built with the toolchain's clang.
annotations=$ROOT/Fuzz/ThreadStress/tsan_mutex_annotations.c
if stale "$OUT/tsan_mutex_annotations.o" "$annotations"; then
  "$(dirname "$(command -v "$SWIFTC")")/clang" -O1 -fPIC -c "$annotations" -o "$OUT/tsan_mutex_annotations.o"
fi
if stale "$OUT/thread_stress" "${abi[@]}" "${stress[@]}" "$OUT/Formwell.o" "$OUT/tsan_mutex_annotations.o" "$0"; then
  echo "tsan: building $OUT/thread_stress"
  swiftc_in_build "${FLAGS[@]}" -parse-as-library -module-name FormwellC -wmo -I "$OUT" \
    "${abi[@]}" "${stress[@]}" "$OUT/Formwell.o" "$OUT/tsan_mutex_annotations.o" -lpcre2-8 -ldl -o "$OUT/thread_stress"
fi
built=$(date +%s)

log="$OUT/thread_stress.log"
rc=0
# halt_on_error: the first race ends the run with exitcode 66; the outer timeout catches a deadlock.
SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
  timeout --kill-after=5 "${STRESS_TIMEOUT:-120}" "$OUT/thread_stress" >"$log" 2>&1 || rc=$?
finished=$(date +%s)
cat "$log"
echo "tsan: build $((built - started)) s, run $((finished - built)) s, exit $rc"
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "tsan: FAILED: the stress run did not finish (deadlock or hang?)" >&2; exit 1
fi
if [ "$rc" -ne 0 ] || grep -qE 'WARNING: ThreadSanitizer|CHECK FAILED|Fatal error' "$log"; then
  echo "tsan: FAILED (see $log)" >&2; exit 1
fi
echo "tsan: OK"
