#!/usr/bin/env bash
# Builds and runs Formwell's libFuzzer harnesses (Fuzz/TextInputs, Fuzz/CallSequences, Fuzz/SpecJSON,
# Fuzz/BatchColumns, Fuzz/ArrowStructs).
#
#   scripts/fuzz.sh build               build the harnesses into .build/fuzz/
#   scripts/fuzz.sh run-bounded SECONDS  build, then run each harness for at most SECONDS; non-zero exit on
#                                        any crash, sanitizer report, invariant failure, timeout or OOM
#   scripts/fuzz.sh run [HARNESS...]     build, then fuzz without a time limit (all harnesses in parallel;
#                                        Ctrl-C stops); findings stay in .build/fuzz/corpus/<name>
#
# The repository is never written to: each harness runs on a copy of Fuzz/<name>/corpus in
# .build/fuzz/corpus/<name> (run-bounded starts from a fresh copy every time); crashing inputs go to
# .build/fuzz/artifacts/<name>/. Environment: SWIFTC (default swiftc), FUZZ_RSS_MB (default 2048),
# FUZZ_MAX_LEN (default 4096), FUZZ_EXTRA (more libFuzzer flags),
# FUZZ_REV (build that git revision's Sources/ instead of the working tree, e.g. FUZZ_REV=HEAD).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
HARNESSES=(TextInputs CallSequences SpecJSON BatchColumns ArrowStructs)
# run-bounded gives these harnesses at most this many seconds (the test command's time budget).
declare -A BOUNDED_CAP=([BatchColumns]=30 [ArrowStructs]=20)
# Swift's own crash handler would race ASan's report; leave reporting to the sanitizers.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
RSS_MB=${FUZZ_RSS_MB:-2048}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
FLAGS=(-swift-version 6 -O -g -sanitize=fuzzer,address -parse-as-library -I "$ROOT/Sources/CPCRE2" -I "$ROOT/Sources/CFormwellTypes" -I "$ROOT/Sources/CFormwellAtomics")
# (CPCRE2 is a module map over the system pcre2.h; it is taken from the working tree in every case.)

# shellcheck source=scripts/sanitizer_build.sh
source "$ROOT/scripts/sanitizer_build.sh"

# swiftc leaves by-products (<module>-1.swiftmodule ...) in its working directory: keep them in .build.
swiftc_in_build() { (cd "$ROOT/$OUT/work" && "$SWIFTC" "$@"); }

build() {
  mkdir -p "$OUT/obj" "$OUT/work"
  local src=$ROOT/Sources
  if [ -n "${FUZZ_REV:-}" ]; then
    # Build a committed revision instead of the working tree (e.g. while the tree is mid-edit).
    src="$ROOT/$OUT/src-$FUZZ_REV/Sources"
    rm -rf "$OUT/src-$FUZZ_REV" && mkdir -p "$OUT/src-$FUZZ_REV"
    git archive "$FUZZ_REV" Sources | tar -x -C "$OUT/src-$FUZZ_REV"
    rm -f "$OUT/obj/Formwell.o"
    echo "fuzz: building sources of $FUZZ_REV ($(git rev-parse --short "$FUZZ_REV"))"
  fi
  local engine=() abi=() common=()
  mapfile -t engine < <(find "$src/Formwell" -name '*.swift' | sort)
  mapfile -t abi < <(find "$src/FormwellC" -name '*.swift' | sort)
  mapfile -t common < <(find "$ROOT/Fuzz/Common" -name '*.swift' | sort)
  # The engine module, instrumented, once for both harnesses.
  if stale "$OUT/obj/Formwell.o" "${engine[@]}" "$src/CPCRE2/module.modulemap" "$src/CPCRE2/shim.h" "$0"; then
    echo "fuzz: building module Formwell"
    swiftc_in_build "${FLAGS[@]}" -module-name Formwell -wmo -c "${engine[@]}" \
      -emit-module -emit-module-path "$ROOT/$OUT/obj/Formwell.swiftmodule" -o "$ROOT/$OUT/obj/Formwell.o"
  fi
  # Each harness: the C-ABI sources and the harness compiled as module FormwellC (so it calls fw_*
  # directly), linked with the engine, libFuzzer and ASan.
  local name own=()
  for name in "${HARNESSES[@]}"; do
    mapfile -t own < <(find "$ROOT/Fuzz/$name" -name '*.swift' | sort)
    if stale "$OUT/$name" "${abi[@]}" "${common[@]}" "${own[@]}" "$OUT/obj/Formwell.o"; then
      echo "fuzz: building $OUT/$name"
      swiftc_in_build "${FLAGS[@]}" -module-name FormwellC -wmo -I "$ROOT/$OUT/obj" \
        "${abi[@]}" "${common[@]}" "${own[@]}" "$ROOT/$OUT/obj/Formwell.o" -lpcre2-8 -o "$ROOT/$OUT/$name" \
        2> >(grep -v "Cannot export local symbol" >&2)
    fi
  done
}

# Copies the committed seeds next to the build (fresh when $2 is "fresh").
prepare_corpus() {
  local name=$1 mode=$2 dir="$OUT/corpus/$1"
  [ "$mode" = fresh ] && rm -rf "$dir"
  mkdir -p "$dir" "$OUT/artifacts/$name"
  cp -n "Fuzz/$name/corpus/"* "$dir/" 2>/dev/null || true
}

libfuzzer_flags() {
  local name=$1
  local flags=(-rss_limit_mb="$RSS_MB" -timeout=10 -max_len="$MAX_LEN" -print_final_stats=1
               -artifact_prefix="$OUT/artifacts/$name/")
  [ -f "Fuzz/$name/dict" ] && flags+=(-dict="Fuzz/$name/dict")
  # shellcheck disable=SC2206
  [ -n "${FUZZ_EXTRA:-}" ] && flags+=($FUZZ_EXTRA)
  printf '%s\n' "${flags[@]}"
}

run_bounded() {
  local seconds=$1 failed=0 name
  [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: run-bounded needs a number of seconds" >&2; exit 2; }
  build
  for name in "${HARNESSES[@]}"; do
    prepare_corpus "$name" fresh
    local log="$OUT/$name.log" flags=() rc=0 limit=$seconds
    [ -n "${BOUNDED_CAP[$name]:-}" ] && [ "${BOUNDED_CAP[$name]}" -lt "$limit" ] && limit=${BOUNDED_CAP[$name]}
    mapfile -t flags < <(libfuzzer_flags "$name")
    echo "fuzz: running $name for at most ${limit}s (log: $log)"
    # The outer timeout only guards against a hung process; libFuzzer stops itself at max_total_time.
    timeout --kill-after=10 $((limit + 60)) "$OUT/$name" "${flags[@]}" -max_total_time="$limit" \
      "$OUT/corpus/$name" >"$log" 2>&1 || rc=$?
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    local corpus_files; corpus_files=$(find "$OUT/corpus/$name" -type f | wc -l)
    printf 'fuzz: %-14s executions %-10s exec/s %-8s corpus %s files  exit %s\n' \
      "$name" "${execs:-?}" "${rate:-?}" "$corpus_files" "$rc"
    if [ "$rc" -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|INVARIANT FAILED|SUMMARY: |==ERROR|Fatal error|deadly signal' "$log"; then
      failed=1
      echo "fuzz: $name FAILED; report:" >&2
      grep -E 'INVARIANT FAILED|ERROR: |SUMMARY: |Fatal error|deadly signal|Test unit written|^artifact_prefix' "$log" | head -20 >&2 || true
      echo "fuzz: reproduce with: $OUT/$name <artifact file>   (full log: $log)" >&2
    fi
  done
  return $failed
}

run_forever() {
  build
  local names=("$@") pids=() name
  [ ${#names[@]} -eq 0 ] && names=("${HARNESSES[@]}")
  for name in "${names[@]}"; do
    [ -x "$OUT/$name" ] || { echo "fuzz: unknown harness $name" >&2; exit 2; }
    prepare_corpus "$name" keep
    local flags=()
    mapfile -t flags < <(libfuzzer_flags "$name")
    echo "fuzz: running $name without a time limit (log: $OUT/$name.log)"
    "$OUT/$name" "${flags[@]}" "$OUT/corpus/$name" >"$OUT/$name.log" 2>&1 &
    pids+=($!)
  done
  trap 'kill "${pids[@]}" 2>/dev/null || true' INT TERM
  local failed=0 pid
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [ $failed -eq 0 ] || { grep -hE 'INVARIANT FAILED|SUMMARY: |Test unit written' "$OUT"/*.log >&2 || true; }
  return $failed
}

case "${1:-}" in
  build) build ;;
  run-bounded) run_bounded "${2:-}" ;;
  run) shift; run_forever "$@" ;;
  *) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
