#!/usr/bin/env bash
# Runs on the GPU machine from the bundle (see gpu-bundle.sh). Logs go to $OUT (or ./gpu-logs).
#   bash bundle/run.sh [tests|sanitize|bench|tune|processes|demo|profile|all] [kernel-regex]
# bench: `rgemm bench` (each rung at its best configuration, or every kernel matching the filter)
#   (RGEMM_BENCH_FILTER: a regex of kernel names, one bench per element type it matches, each in
#   bench-<type>/ when there are several; RGEMM_BENCH_DTYPE: f32|bf16|f16)
#   over RGEMM_BENCH_SIZES (default: rgemm's list) with RGEMM_BENCH_ITERS launches (default 10);
#   writes results.json, results.csv, chart.svg (and chart.png where a font is found) to $OUT.
# tune: `rgemm tune` at RGEMM_TUNE_SIZE (default 4096); writes tune.json to $OUT.
# processes: the bench of the kernels matching the filter (a regex, of one element type) in
#   RGEMM_PROCESSES (default 5) separate processes, each with its own cuBLAS figures and at most
#   RGEMM_PROCESS_LIMIT seconds (default 120); writes <type>-p<i>.json (in the logs' archive,
#   rgemm-logs-processes.tgz), the files `rgemm figures` reads for its processes table.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-all}
filter=${2:-}
logs=${OUT:-$PWD/gpu-logs}
mkdir -p "$logs"
export RGEMM_BIN="$here/rgemm"
# ptxas for the PTX and `rgemm list` tests: the CUDA toolkit's, unless one is named.
if [ -z "${RGEMM_PTXAS:-}" ]; then
  for p in "$(command -v ptxas 2>/dev/null)" /usr/local/cuda/bin/ptxas; do
    [ -n "$p" ] && [ -x "$p" ] && { export RGEMM_PTXAS="$p"; break; }
  done
fi
. "$here/env.sh"

# The catalog's kernels whose names match the extended regex $1 (default: the filter).
kernels() { "$here/rgemm" list --names | grep -E -- "${1:-$filter}"; }

note "$(date -u +%FT%TZ) commit $(cat "$here/COMMIT" 2>/dev/null) mode $mode"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader | tee -a "$logs/summary.txt"

run_tests() {
  local failed=0
  # Every test, the GPU ones included (they are ignored unless asked for), from an empty folder:
  # nothing may depend on a source tree here. Each test runs in its own process, RGEMM_TEST_JOBS
  # (default: the cores / 2) at a time; the tests that walk the whole catalog (and the 3×TF32
  # accuracy test at 4096³ and 8192³) run in RGEMM_TEST_SHARDS processes each
  # (RGEMM_TEST_SHARD=i/n, see tests/common). Their f64 references are the CPU's work, the GPU's
  # share is small.
  scratch=$(mktemp -d)
  jobs=${RGEMM_TEST_JOBS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}
  shards=${RGEMM_TEST_SHARDS:-4}
  (( shards >= 1 )) || { note "RGEMM_TEST_SHARDS=$shards: at least 1"; return 1; }
  sharded=" every_kernel_on_edge_sizes every_kernel_on_random_sizes every_kernel_passes_at_k_2_pow_20 tma_kernels_on_random_aligned_sizes tf32x3_is_within_twice_cublas_sgemm_error_at_4096_and_8192 "
  mkdir -p "$logs/tests"
  # The sharded tests are the longest: they go first in the queue, the short ones fill in after.
  : >"$logs/tests/queue"; : >"$logs/tests/queue.rest"
  for t in "$here"/tests/*; do
    name=$(basename "$t")
    # A binary that cannot list its tests is a failure, not an empty list; one whose listing ends
    # in "0 tests, 0 benchmarks" (a crate without unit tests) has nothing to run.
    if ! listed=$("$t" --list 2>&1) || ! grep -qE '^[0-9]+ tests?, [0-9]+ benchmarks?$' <<<"$listed"; then
      note "test $name: FAILED (it does not list its tests: $(head -1 <<<"$listed"))"; failed=1; continue
    fi
    grep -q ': test$' <<<"$listed" || { note "test $name: no tests"; continue; }
    for test in $(sed -n 's/: test$//p' <<<"$listed"); do
      if [[ $sharded == *" $test "* ]]; then
        for ((i = 0; i < shards; i++)); do echo "$name $test $i/$shards" >>"$logs/tests/queue"; done
      else
        echo "$name $test -" >>"$logs/tests/queue.rest"
      fi
    done
  done
  cat "$logs/tests/queue.rest" >>"$logs/tests/queue"
  run_one() {
    local name=$1 test=$2 shard=$3 label="$1::$2" start=$SECONDS
    [[ $shard == - ]] || label+=" (shard $shard)"
    local log; log=$(mktemp "$logs/tests/run.XXXXXX")
    if (cd "$scratch" && if [[ $shard != - ]]; then export RGEMM_TEST_SHARD=$shard; fi \
        && MATMUL_NUM_THREADS=2 "$here/tests/$name" --include-ignored --exact "$test") >"$log" 2>&1; then r=ok; else r=FAILED; fi
    # One writer at a time: the logs of parallel tests do not interleave.
    {
      flock 9
      echo "$r $label: $((SECONDS - start)) s" >>"$logs/tests/results"
      { echo "### $label: $r"; cat "$log"; } >>"$logs/tests.log"
      [[ $r == ok ]] || { echo "### $label"; grep -A25 -E "panicked|FAILED" "$log" | head -40; } >>"$logs/tests/failures"
    } 9>"$logs/tests/lock"
    rm -f "$log"
  }
  export -f run_one; export here logs scratch
  xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _ <"$logs/tests/queue"
  total=$(wc -l <"$logs/tests/queue"); passed=$(grep -c '^ok ' "$logs/tests/results")
  sort -k2 "$logs/tests/results" >>"$logs/summary.txt"
  if (( passed == total && failed == 0 )); then r=ok; else r=FAILED; failed=1; fi
  note "tests: $r ($passed of $total processes passed)"
  [[ $r == ok ]] || cat "$logs/tests/failures" 2>/dev/null
  rm -rf "$scratch" "$logs/tests"
  return $failed
}

run_sanitize() {
  local failed=0
  # A filter that names no kernel would check nothing and report clean: an error instead.
  if [ -n "$filter" ] && [ -z "$(kernels)" ]; then
    note "compute-sanitizer: no kernel matches '$filter'"
    return 1
  fi
  # The layout a kernel reads A and B in: the catalog names it last (`_nt`, `_tn`, `_tt`; none for nn).
  layout_of() { case $1 in *_nt) echo nt ;; *_tn) echo tn ;; *_tt) echo tt ;; *) echo nn ;; esac; }
  sanitize_tool() {
    local tool=$1 r=clean log="$logs/sanitize-$tool.log" start=$SECONDS
    : >"$log"
    for layout in nn nt tn tt; do
      local args=()
      for k in $(kernels); do [[ $(layout_of "$k") == "$layout" ]] && args+=(--kernel "$k"); done
      (( ${#args[@]} )) || continue
      # Odd sizes for every kernel that takes them; kernels that need 16-byte rows (TMA: the stored
      # row lengths multiples of 8 for bf16) are skipped there and checked again on sizes that are
      # (M odd where it is no row length).
      local m8=67 m=300; [[ $layout == t? ]] && { m8=72; m=304; }
      compute-sanitizer --tool "$tool" --error-exitcode 3 "$here/rgemm" check --layout "$layout" --skip-unsupported "${args[@]}" --m 67 --n 45 --k 33 >>"$log" 2>&1 || r=FAILED
      local skipped=()
      for k in $(awk '/^SKIPPED/ {sub(":", "", $2); print $2}' "$log"); do [[ $(layout_of "$k") == "$layout" ]] && skipped+=(--kernel "$k"); done
      if (( ${#skipped[@]} )); then
        compute-sanitizer --tool "$tool" --error-exitcode 3 "$here/rgemm" check --layout "$layout" "${skipped[@]}" --m "$m8" --n 48 --k 40 >>"$log" 2>&1 || r=FAILED
      fi
      # Sizes that small have no interior block: every kernel again on 300 x 264 x 256, where the
      # first blocks lie wholly inside (the unchecked interior loops run) and the last ones on edges.
      compute-sanitizer --tool "$tool" --error-exitcode 3 "$here/rgemm" check --layout "$layout" "${args[@]}" --m "$m" --n 264 --k 256 >>"$log" 2>&1 || r=FAILED
    done
    # The library's own kernels (split-K reduction, the copies of staged plans) and its plans
    # over layouts, leading dimensions and batches: the library's GPU tests under the tool.
    for test in staged_plans_are_right_on_the_gpu split_k_is_right_on_the_gpu; do
      compute-sanitizer --tool "$tool" --error-exitcode 3 "$here/tests/library" --include-ignored --exact "$test" >>"$log" 2>&1 || r=FAILED
    done
    echo "$tool: $((SECONDS - start)) s" >>"$log"
    echo "$r" >"$logs/sanitize-$tool.result"
  }
  for tool in memcheck racecheck synccheck initcheck; do sanitize_tool "$tool" & done
  wait
  for tool in memcheck racecheck synccheck initcheck; do
    log="$logs/sanitize-$tool.log"; r=$(cat "$logs/sanitize-$tool.result" 2>/dev/null || echo FAILED)
    [[ $r == clean ]] || failed=1
    note "compute-sanitizer $tool: $r ($(grep -hE '(ERROR|RACECHECK) SUMMARY' "$log" | tail -1); $(grep -h 'passed,' "$log" | paste -sd' ' -))"
    [[ $r == clean ]] || tail -30 "$log"
  done
  # Trap 1 of the cp.async lessons: reading another thread's cp.async data needs a barrier.
  for lesson in cp_async_no_barrier cp_async_with_barrier; do
    log="$logs/sanitize-lesson-$lesson.log"
    # `--racecheck-report all`: in the default mode compute-sanitizer 2025.3 printed "0 hazards"
    # for the barrier-less lesson (and the process failed at exit); with `all` it lists them.
    compute-sanitizer --tool racecheck --racecheck-report all "$here/rgemm" lesson "$lesson" >"$log" 2>&1
    summary=$(grep -hE 'RACECHECK SUMMARY' "$log" | tail -1)
    if ! grep -q "^lesson $lesson:" "$log"; then got=error
    elif [[ $summary =~ \(([0-9]+)\ errors,\ ([0-9]+)\ warnings\) ]] && (( BASH_REMATCH[1] + BASH_REMATCH[2] > 0 )); then got="hazard detected"
    elif [[ $summary == *"0 hazards"* ]]; then got=clean
    else got=error; fi
    want=clean; [[ $lesson == cp_async_no_barrier ]] && want="hazard detected"
    if [[ $got == "$want" ]]; then r=ok; else r=FAILED; failed=1; fi
    note "racecheck lesson $lesson: $got (expected $want): $r ($summary)"
    [[ $r == ok ]] || tail -20 "$log"
  done
  return $failed
}

# `all` runs the tests and the sanitizers at the same time (the tests' cost is the CPU's f64
# references, the sanitizers' mostly the CPU too; the GPU has room for both), then the bench alone.
case $mode in
  tests) run_tests || status=1 ;;
  sanitize) run_sanitize || status=1 ;;
  all)
    run_tests & tests_pid=$!
    run_sanitize & sanitize_pid=$!
    wait $tests_pid || status=1
    wait $sanitize_pid || status=1
    ;;
esac

bench_filter=${RGEMM_BENCH_FILTER:-$filter}
# The element type of a kernel, from its name's prefix.
type_of() { case $1 in sgemm_*) echo f32 ;; bgemm_*) echo bf16 ;; hgemm_*) echo f16 ;; esac; }
# `rgemm bench`'s arguments (bench and processes): RGEMM_BENCH_ITERS, RGEMM_BENCH_SIZES,
# RGEMM_BENCH_DTYPE, and a --kernel for each name the filter matches (none without a filter),
# of element type $1 only when given (then also `--dtype $1`).
bench_args() {
  args=(--iters "${RGEMM_BENCH_ITERS:-10}")
  [ -n "${RGEMM_BENCH_SIZES:-}" ] && args+=(--sizes "$RGEMM_BENCH_SIZES")
  [ -n "${RGEMM_BENCH_DTYPE:-}" ] && args+=(--dtype "$RGEMM_BENCH_DTYPE")
  [ -n "${1:-}" ] && args+=(--dtype "$1")
  if [ -n "$bench_filter" ]; then
    for k in $(kernels "$bench_filter"); do [[ -z ${1:-} || $(type_of "$k") == "$1" ]] && args+=(--kernel "$k"); done
  fi
}
# One `rgemm bench` with the arguments in `args` into folder $1, its log $2, noted as $3.
run_bench() {
  if "$here/rgemm" bench "${args[@]}" --out "$1" >"$2" 2>&1; then r=ok; else r=FAILED; status=1; fi
  note "$3: $r"
  # Without a terminal rgemm prints a timed line per step: the summary keeps the tables.
  grep -vE '^ *[0-9.]+ s  [0-9]+/[0-9]+  ' "$2" | tee -a "$logs/summary.txt"
}
if [[ $mode == bench || $mode == all ]]; then
  types=$([ -n "$bench_filter" ] && for k in $(kernels "$bench_filter"); do type_of "$k"; done | sort -u)
  if [[ -z ${RGEMM_BENCH_DTYPE:-} && $(echo "$types" | grep -c .) -gt 1 ]]; then
    # One `rgemm bench` takes kernels of one element type: a filter that matches several runs
    # one bench per type, each in its own folder (bench-<type>/).
    for t in $types; do
      bench_args "$t"
      mkdir -p "$logs/bench-$t"
      run_bench "$logs/bench-$t" "$logs/bench-$t.log" "rgemm bench ($t)"
    done
  else
    bench_args
    run_bench "$logs" "$logs/bench.log" "rgemm bench"
  fi
fi

if [[ $mode == processes ]]; then
  bench_args
  processes=${RGEMM_PROCESSES:-5}
  if [[ ! $processes =~ ^[1-9][0-9]*$ ]]; then
    note "processes: RGEMM_PROCESSES=$processes is not a positive count"; status=1
  elif [[ ! " ${args[*]} " == *" --kernel "* ]]; then
    note "processes: no kernel matches '${bench_filter}'"; status=1
  else
    for ((i = 1; i <= processes; i++)); do
      start=$SECONDS
      timeout "${RGEMM_PROCESS_LIMIT:-120}" "$here/rgemm" bench "${args[@]}" --out "$logs/p$i" >"$logs/p$i.log" 2>&1; rc=$?
      # A process cut short by the limit keeps the sizes it finished (the JSON is written per
      # size), and passes if it finished at least one.
      dtype=$(sed -n 's/^ *"dtype": "\([a-z0-9]*\)",*$/\1/p' "$logs/p$i/results.json" 2>/dev/null | head -1)
      if [ -n "$dtype" ]; then cp "$logs/p$i/results.json" "$logs/$dtype-p$i.json"; fi
      (( rc == 0 )) || { (( rc == 124 )) && [ -n "$dtype" ] && grep -q '"m":' "$logs/p$i/results.json"; } || status=1
      note "process $i: exit $rc after $((SECONDS - start)) s${dtype:+, $dtype-p$i.json}"
      rm -rf "$logs/p$i"
    done
  fi
fi

if [[ $mode == tune ]]; then
  if "$here/rgemm" tune --size "${RGEMM_TUNE_SIZE:-4096}" --iters "${RGEMM_BENCH_ITERS:-10}" --json "$logs/tune.json" >"$logs/tune.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
  note "rgemm tune: $r"
  grep -vE '^ *[0-9.]+ s  [0-9]+/[0-9]+  ' "$logs/tune.log" | tee -a "$logs/summary.txt"
fi
if [[ $mode == demo ]]; then
  # The ldmatrix study: the fragment table, then shared-memory wavefronts and bank conflicts of
  # each address pattern's ldmatrix (1024 blocks x 512 threads), as the profiler counts them.
  "$here/rgemm" lesson ldmatrix --blocks 1 >"$logs/ldmatrix.log" 2>&1 || status=1
  # Shared-memory ldmatrix counters: names differ between Nsight Compute versions, so ask it.
  metrics=$(ncu --query-metrics 2>/dev/null | awk '{print $1}' | grep -E 'ldsm' | grep -E 'wavefronts|bank_conflicts|requests|inst_executed' | sed 's/$/.sum/' | paste -sd, -)
  echo "ldsm metrics: $metrics" >>"$logs/ldmatrix-ncu.log"
  if ncu --metrics "${metrics:-smsp__inst_executed.sum}" "$here/rgemm" lesson ldmatrix --blocks 1024 >>"$logs/ldmatrix-ncu.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
  note "ncu ldmatrix: $r"
  grep -E "^(row =)|ldsm|lesson_ldmatrix" "$logs/ldmatrix.log" "$logs/ldmatrix-ncu.log" | tee -a "$logs/summary.txt"
fi

if [[ $mode == profile ]]; then
  # Where the time goes: Nsight Compute on one launch of each kernel matching the filter, at
  # RGEMM_PROFILE_SIZE (default 4096) cubed: speed of light, pipes, memory, issue and the average
  # stall reasons per issued instruction.
  size=${RGEMM_PROFILE_SIZE:-4096}
  for k in $(kernels); do
    log="$logs/profile-$k.txt"
    ncu -k "regex:^$k\$" --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section Occupancy \
        --section LaunchStats --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
        "$here/rgemm" run --kernel "$k" --m "$size" --n "$size" --k "$size" --iters 1 >"$log" 2>&1 || status=1
    note "ncu $k at $size: $(grep -cE 'stalled' "$log") stall metrics"
    grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|L2 Hit Rate|DRAM Throughput|Mem Busy|Max Bandwidth|stalled" "$log" \
      | tee -a "$logs/summary.txt"
  done
fi

note "status $status"
# A remote run may return only a few files: pack every log except the summary into one archive.
archive=$(mktemp -u /tmp/rgemm-logs.XXXXXX.tgz)
(cd "$logs" && tar czf "$archive" --exclude summary.txt --exclude 'rgemm-logs*.tgz' . 2>/dev/null && find . -mindepth 1 ! -name summary.txt ! -name 'rgemm-logs*.tgz' -delete && mv "$archive" "rgemm-logs-$mode.tgz") || true
exit $status
