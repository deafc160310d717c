#!/usr/bin/env bash
# Builds and runs Formwell's libFuzzer harnesses (Fuzz/TextInputs, Fuzz/CallSequences, Fuzz/SpecJSON,
# Fuzz/BatchColumns, Fuzz/ArrowStructs, Fuzz/AsyncSequences).
#
#   scripts/fuzz.sh build                build the harnesses into .build/fuzz/
#   scripts/fuzz.sh run-bounded SECONDS  build, then per harness: replay its committed corpus with every
#                                        check on (see below), then fuzz for the rest of at most SECONDS;
#                                        non-zero exit on any crash, sanitizer report, invariant failure,
#                                        timeout, OOM or leak
#   scripts/fuzz.sh run [HARNESS...]     build, then fuzz without a time limit (all harnesses in parallel;
#                                        Ctrl-C stops); findings stay in .build/fuzz/corpus/<name>
#   scripts/fuzz.sh campaign SECONDS [HARNESS...]
#                                        the long run: each harness fuzzes SECONDS (nice -n 19, at most
#                                        FUZZ_JOBS=2 at a time), then its findings are merged (-merge=1)
#                                        into Fuzz/<name>/corpus (every committed seed kept, an input added
#                                        only for new coverage), the result replayed with every check on,
#                                        and a table printed (seconds, executions, exec/s, cov/ft, files)
#   scripts/fuzz.sh replay [HARNESS...]  replay the committed corpora with every check on
#   scripts/fuzz.sh ceiling [HARNESS...] how fast each harness could run with no instrumentation at all:
#                                        builds the harnesses plain (-O, no sanitizer, no coverage; only
#                                        libFuzzer's driver linked) into .build/fuzz-plain/, then runs each
#                                        committed corpus FUZZ_CEILING_COPIES times over (default 3) in one
#                                        process (-runs=0) with the plain build and with the fuzz build
#                                        (fast options) and prints inputs per second for both
#
# Fuzzing runs fast: sampled whole-form checks (Fuzz/README.md), ASan without allocation stacks, and no
# leak check after each input (LeakSanitizer still checks the whole run at exit, failing it). The replay
# runs each input once with FORMWELL_FUZZ_FULL_SNAPSHOTS=1, ASan's defaults and a leak check per input.
# Apart from `campaign`, the repository is never written to: each harness runs on a copy of
# Fuzz/<name>/corpus in .build/fuzz/corpus/<name> (run-bounded starts from a fresh copy every time);
# crashing inputs go to .build/fuzz/artifacts/<name>/. Environment: SWIFTC (default swiftc), FUZZ_RSS_MB
# (default 2048), FUZZ_MAX_LEN (default 4096), FUZZ_EXTRA (more libFuzzer flags), FUZZ_REV (build that
# git revision's Sources/ instead of the working tree, e.g. FUZZ_REV=HEAD), FUZZ_JOBS (campaign),
# ASAN_OPTIONS (replaces the fast options while fuzzing, and the defaults in the replay), FUZZ_NO_ASAN=1
# (an experiment: every mode without AddressSanitizer, in .build/fuzz-noasan/; CI never sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
HARNESSES=(TextInputs CallSequences SpecJSON BatchColumns ArrowStructs AsyncSequences)
# run-bounded gives these harnesses at most this many seconds (the test command's time budget: with 45,
# 45 + 45 + 30 + 30 + 20 + 15 = 185 s in all, the replays included; SpecJSON, the fastest, gets 30).
declare -A BOUNDED_CAP=([SpecJSON]=30 [BatchColumns]=30 [ArrowStructs]=20 [AsyncSequences]=15)
# Swift's own crash handler would race ASan's report; leave reporting to the sanitizers.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
# ASan while fuzzing (unless ASAN_OPTIONS is set): no allocation/free stack per malloc (unwinding and
# storing one takes a good share of the time; a report still shows the faulting access's stack, and
# replaying the artifact with ASan's defaults shows all three), a 64 MB quarantine instead of 256 MB
# (use-after-free of a block freed within the last 64 MB of frees is still caught), and no fake stack
# frames for stack-use-after-return (every instrumented function with locals would take its frame from
# ASan's fake stack, slowing exec/s; Swift code reaches a dead frame only through an unsafe pointer
# escaping a withUnsafe... closure). The replay keeps ASan's defaults, which detect all of these.
FAST_ASAN=${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=64:detect_stack_use_after_return=0}
REPLAY_ASAN=${ASAN_OPTIONS:-}
RSS_MB=${FUZZ_RSS_MB:-2048}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
# Every build: Swift 6, optimized, with debug info (a report names source lines).
BASE_FLAGS=(-swift-version 6 -O -g -parse-as-library -I "$ROOT/Sources/CPCRE2" -I "$ROOT/Sources/CFormwellTypes" -I "$ROOT/Sources/CFormwellAtomics")
# The library modules: libFuzzer's coverage and comparison tracing, and ASan.
FLAGS=("${BASE_FLAGS[@]}" -sanitize=fuzzer,address)
# Linking a harness: libFuzzer and ASan with the instrumented modules (`ceiling` links plain modules).
LINK_FLAGS=("${FLAGS[@]}")
# FUZZ_NO_ASAN=1: an experiment, not what CI runs: coverage and comparison tracing as usual but no
# AddressSanitizer anywhere, built into .build/fuzz-noasan/ (what fuzzing would gain without ASan).
if [ "${FUZZ_NO_ASAN:-0}" = 1 ]; then
  OUT=.build/fuzz-noasan
  FLAGS=("${BASE_FLAGS[@]}" -sanitize=fuzzer)
  LINK_FLAGS=("${FLAGS[@]}")
fi
# The harness code itself: ASan (its reads of what the library wrote are checked) without libFuzzer's
# coverage and comparison tracing. FUZZ_HARNESS_COVERAGE=1 instruments it like the library.
if [ "${FUZZ_HARNESS_COVERAGE:-0}" = 1 ]; then HARNESS_FLAGS=("${FLAGS[@]}")
elif [ "${FUZZ_NO_ASAN:-0}" = 1 ]; then HARNESS_FLAGS=("${BASE_FLAGS[@]}")
else HARNESS_FLAGS=("${BASE_FLAGS[@]}" -sanitize=address); fi
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
    touch "$OUT/obj/Formwell.o"   # swiftc keeps an unchanged object's old time, which would look stale forever
  fi
  # The C-ABI module, instrumented the same way, once for every harness.
  if stale "$OUT/obj/FormwellC.o" "${abi[@]}" "$OUT/obj/Formwell.o"; then
    echo "fuzz: building module FormwellC"
    swiftc_in_build "${FLAGS[@]}" -module-name FormwellC -wmo -I "$ROOT/$OUT/obj" -c "${abi[@]}" \
      -emit-module -emit-module-path "$ROOT/$OUT/obj/FormwellC.swiftmodule" -o "$ROOT/$OUT/obj/FormwellC.o"
    touch "$OUT/obj/FormwellC.o"
  fi
  # Each harness: its own module (Fuzz/Common + Fuzz/<name>, `import FormwellC`, so each fw_* call is a
  # direct call with the C signature), built with HARNESS_FLAGS: AddressSanitizer but no libFuzzer
  # instrumentation, so the harness's own checking code (snapshot comparisons, byte loops) neither
  # costs comparison tracing nor counts as coverage; then linked with libFuzzer, ASan and the two
  # instrumented library modules.
  local name own=()
  for name in "${HARNESSES[@]}"; do
    mapfile -t own < <(find "$ROOT/Fuzz/$name" -name '*.swift' | sort)
    if stale "$OUT/$name" "${common[@]}" "${own[@]}" "$OUT/obj/FormwellC.o" "$OUT/obj/Formwell.o" "$0"; then
      echo "fuzz: building $OUT/$name"
      swiftc_in_build "${HARNESS_FLAGS[@]}" -module-name "${name}Harness" -wmo -I "$ROOT/$OUT/obj" \
        -c "${common[@]}" "${own[@]}" -o "$ROOT/$OUT/obj/$name.o"
      swiftc_in_build "${LINK_FLAGS[@]}" "$ROOT/$OUT/obj/$name.o" "$ROOT/$OUT/obj/FormwellC.o" "$ROOT/$OUT/obj/Formwell.o" \
        -lpcre2-8 -o "$ROOT/$OUT/$name" 2> >(grep -v "Cannot export local symbol" >&2)
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

# What marks a failed run in a log.
FAILURE='ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|INVARIANT FAILED|SUMMARY: |==ERROR|Fatal error|deadly signal'

report_failure() {  # name log
  echo "fuzz: $1 FAILED; report:" >&2
  grep -E 'INVARIANT FAILED|ERROR: |SUMMARY: |Fatal error|deadly signal|Test unit written|^artifact_prefix' "$2" | head -20 >&2 || true
  echo "fuzz: reproduce with: ASAN_OPTIONS= $OUT/$1 <artifact file>   (full log: $2)" >&2
}

# Runs every input of a corpus directory once with every check on: FORMWELL_FUZZ_FULL_SNAPSHOTS=1,
# ASan's default options and libFuzzer's leak check after each input. Prints the seconds it took.
replay_corpus() {  # name dir log
  local name=$1 dir=$2 log=$3 flags=() rc=0 start=$SECONDS
  mapfile -t flags < <(libfuzzer_flags "$name")
  FORMWELL_FUZZ_FULL_SNAPSHOTS=1 ASAN_OPTIONS=$REPLAY_ASAN timeout --kill-after=10 600 \
    ${NICE:+nice -n "$NICE"} "$OUT/$name" "${flags[@]}" -runs=0 "$dir" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] || grep -qE "$FAILURE" "$log"; then report_failure "$name" "$log"; return 1; fi
  echo $((SECONDS - start))
}

# Fuzzes one harness on a corpus directory: the fast settings (see the top of this file).
fuzz_for() {  # name seconds dir log
  local name=$1 seconds=$2 dir=$3 log=$4 flags=() rc=0
  mapfile -t flags < <(libfuzzer_flags "$name")
  # The outer timeout only guards against a hung process; libFuzzer stops itself at max_total_time.
  ASAN_OPTIONS=$FAST_ASAN timeout --kill-after=10 $((seconds + 120)) \
    ${NICE:+nice -n "$NICE"} "$OUT/$name" "${flags[@]}" -detect_leaks=0 -max_total_time="$seconds" "$dir" >"$log" 2>&1 || rc=$?
  return $rc
}

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

run_bounded() {
  local seconds=$1 failed=0 name
  [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: run-bounded needs a number of seconds" >&2; exit 2; }
  build
  for name in "${HARNESSES[@]}"; do
    prepare_corpus "$name" fresh
    local log="$OUT/$name.log" rc=0 limit=$seconds replayed
    [ -n "${BOUNDED_CAP[$name]:-}" ] && [ "${BOUNDED_CAP[$name]}" -lt "$limit" ] && limit=${BOUNDED_CAP[$name]}
    # 1. The committed corpus with every check on (its time comes out of the harness's budget).
    if ! replayed=$(replay_corpus "$name" "$OUT/corpus/$name" "$OUT/$name.replay.log"); then failed=1; continue; fi
    local fuzz_seconds=$((limit - replayed)); [ "$fuzz_seconds" -lt 5 ] && fuzz_seconds=5
    echo "fuzz: $name: replayed $(find "$OUT/corpus/$name" -type f | wc -l) inputs with every check on in ${replayed}s; fuzzing for ${fuzz_seconds}s (log: $log)"
    # 2. Fuzzing, fast.
    fuzz_for "$name" "$fuzz_seconds" "$OUT/corpus/$name" "$log" || rc=$?
    local corpus_files; corpus_files=$(find "$OUT/corpus/$name" -type f | wc -l)
    printf 'fuzz: %-14s executions %-10s exec/s %-8s corpus %s files  exit %s\n' \
      "$name" "$(stat_of number_of_executed_units "$log")" "$(stat_of average_exec_per_sec "$log")" "$corpus_files" "$rc"
    if [ "$rc" -ne 0 ] || grep -qE "$FAILURE" "$log"; then failed=1; report_failure "$name" "$log"; fi
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
    ASAN_OPTIONS=$FAST_ASAN "$OUT/$name" "${flags[@]}" -detect_leaks=0 "$OUT/corpus/$name" >"$OUT/$name.log" 2>&1 &
    pids+=($!)
  done
  trap 'kill "${pids[@]}" 2>/dev/null || true' INT TERM
  local failed=0 pid
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [ $failed -eq 0 ] || { grep -hE 'INVARIANT FAILED|SUMMARY: |Test unit written' "$OUT"/*.log >&2 || true; }
  return $failed
}

replay_all() {
  build
  local names=("$@") name failed=0 t
  [ ${#names[@]} -eq 0 ] && names=("${HARNESSES[@]}")
  for name in "${names[@]}"; do
    prepare_corpus "$name" fresh
    if t=$(replay_corpus "$name" "$OUT/corpus/$name" "$OUT/$name.replay.log"); then
      echo "fuzz: $name: $(find "$OUT/corpus/$name" -type f | wc -l) inputs replayed with every check on in ${t}s"
    else failed=1; fi
  done
  return $failed
}

# One harness's part of the campaign (run in the background by `campaign`): fuzz, merge, write back,
# replay; its summary line goes to $OUT/campaign/<name>.summary.
campaign_one() {  # name seconds
  local name=$1 seconds=$2 dir=$OUT/campaign/$1 rc=0 start=$SECONDS
  rm -rf "$dir" && mkdir -p "$dir/work" "$dir/merged" "$OUT/artifacts/$name"
  cp "Fuzz/$name/corpus/"* "$dir/work/" 2>/dev/null || true
  local before; before=$(find "Fuzz/$name/corpus" -type f | wc -l)
  NICE=19 fuzz_for "$name" "$seconds" "$dir/work" "$dir/fuzz.log" || rc=$?
  local elapsed=$((SECONDS - start))
  local crashes; crashes=$(find "$OUT/artifacts/$name" -type f -newer "$dir/merged" | wc -l)
  local last; last=$(grep -E '^#[0-9]+' "$dir/fuzz.log" | tail -1)
  local cov ft; cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  local found; found=$(find "$dir/work" -type f | wc -l)
  # Merge: every committed seed stays (the first directory), the run's inputs join only for new coverage.
  cp "Fuzz/$name/corpus/"* "$dir/merged/" 2>/dev/null || true
  local flags=(); mapfile -t flags < <(libfuzzer_flags "$name")
  ASAN_OPTIONS=$FAST_ASAN nice -n 19 "$OUT/$name" "${flags[@]}" -detect_leaks=0 -merge=1 "$dir/merged" "$dir/work" >"$dir/merge.log" 2>&1 || rc=$?
  local after; after=$(find "$dir/merged" -type f | wc -l)
  local status=ok
  if [ "$rc" -ne 0 ] || grep -qE "$FAILURE" "$dir/fuzz.log" "$dir/merge.log"; then
    status=FAILED; report_failure "$name" "$dir/fuzz.log"
  else
    cp -n "$dir/merged/"* "Fuzz/$name/corpus/"
    local replayed; replayed=$(NICE=19 replay_corpus "$name" "Fuzz/$name/corpus" "$dir/replay.log") || status="replay FAILED"
  fi
  printf '%-14s %7s %12s %8s %7s %8s %7s %7s %8s  %s\n' "$name" "$elapsed" "$(stat_of number_of_executed_units "$dir/fuzz.log")" \
    "$(stat_of average_exec_per_sec "$dir/fuzz.log")" "${cov:-?}" "${ft:-?}" "$before" "$after" "$crashes" "$status" >"$dir.summary"
  cat "$dir.summary"
}

campaign() {
  local seconds=$1; shift || true
  [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: campaign needs a number of seconds" >&2; exit 2; }
  build
  local names=("$@") name jobs=${FUZZ_JOBS:-2} pids=()
  [ ${#names[@]} -eq 0 ] && names=("${HARNESSES[@]}")
  mkdir -p "$OUT/campaign"
  for name in "${names[@]}"; do
    [ -x "$OUT/$name" ] || { echo "fuzz: unknown harness $name" >&2; exit 2; }
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    echo "fuzz: campaign: $name for ${seconds}s (log: $OUT/campaign/$name/fuzz.log)"
    campaign_one "$name" "$seconds" &
  done
  wait
  printf '\n%-14s %7s %12s %8s %7s %8s %7s %7s %8s  %s\n' harness seconds executions exec/s cov ft before after crashes status
  for name in "${names[@]}"; do cat "$OUT/campaign/$name.summary"; done
}

# Inputs per second of one build over a corpus run COPIES times in one process (no mutation: the
# same inputs for every build, so the figures compare the builds, not what fuzzing happened to try).
corpus_rate() {  # binary name copies
  local binary=$1 name=$2 copies=$3 dir k f
  dir=$(mktemp -d "$ROOT/.build/fuzz-rate.XXXXXX")
  for k in $(seq "$copies"); do for f in "Fuzz/$name/corpus/"*; do cp "$f" "$dir/$k-${f##*/}"; done; done
  local count start end
  count=$(find "$dir" -type f | wc -l)
  start=$(date +%s.%N)
  ASAN_OPTIONS=$FAST_ASAN "$binary" -rss_limit_mb="$RSS_MB" -max_len="$MAX_LEN" -detect_leaks=0 -runs=0 "$dir" >"$dir.log" 2>&1 \
    || { echo "fuzz: ceiling: $binary failed on $name's corpus (log: $dir.log)" >&2; rm -rf "$dir"; return 1; }
  end=$(date +%s.%N)
  rm -rf "$dir" "$dir.log"
  awk -v n="$count" -v s="$start" -v e="$end" 'BEGIN { printf "%d inputs in %.2f s: %d/s", n, e - s, n / (e - s) }'
}

ceiling() {
  local names=("$@") name copies=${FUZZ_CEILING_COPIES:-3} plain fuzz
  [ ${#names[@]} -eq 0 ] && names=("${HARNESSES[@]}")
  build
  # The same sources with no instrumentation: the harness and both modules plain -O.
  ( OUT=.build/fuzz-plain FLAGS=("${BASE_FLAGS[@]}") HARNESS_FLAGS=("${BASE_FLAGS[@]}") LINK_FLAGS=("${BASE_FLAGS[@]}" -sanitize=fuzzer)
    HARNESSES=("${names[@]}"); build )
  printf '%-14s  %-38s  %s\n' harness "plain build (no instrumentation)" "fuzz build (ASan + coverage, fast options)"
  for name in "${names[@]}"; do
    plain=$(corpus_rate ".build/fuzz-plain/$name" "$name" "$copies") || return 1
    fuzz=$(corpus_rate "$OUT/$name" "$name" "$copies") || return 1
    printf '%-14s  %-38s  %s\n' "$name" "$plain" "$fuzz"
  done
}

case "${1:-}" in
  build) build ;;
  run-bounded) run_bounded "${2:-}" ;;
  run) shift; run_forever "$@" ;;
  campaign) shift; campaign "$@" ;;
  replay) shift; replay_all "$@" ;;
  ceiling) shift; ceiling "$@" ;;
  *) sed -n '2,35p' "$0" >&2; exit 2 ;;
esac
