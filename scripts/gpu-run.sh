#!/usr/bin/env bash
# Runs on the GPU machine from the bundle (see gpu-bundle.sh). Logs go to $OUT (or ./gpu-logs).
#   bash bundle/run.sh [tests|sanitize|bench|all] [kernel-substring]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-all}
filter=${2:-}
logs=${OUT:-$PWD/gpu-logs}
mkdir -p "$logs"
export RGEMM_REQUIRE_GPU=1 RGEMM_BIN="$here/rgemm"
# cuBLAS: from the CUDA toolkit or a pip wheel, whichever is there.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
         $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
status=0
note() { echo "== $* ==" | tee -a "$logs/summary.txt"; }

kernels() { "$here/rgemm" list | awk 'NR>1 && /gemm_/ {print $1}' | grep -- "$filter"; }

note "$(date -u +%FT%TZ) commit $(cat "$here/COMMIT" 2>/dev/null) mode $mode"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader | tee -a "$logs/summary.txt"

if [[ $mode == tests || $mode == all ]]; then
  for t in "$here"/tests/*; do
    name=$(basename "$t")
    if "$t" --test-threads=1 >"$logs/test.tmp" 2>&1; then r=ok; else r=FAILED; status=1; fi
    { echo "### $name"; cat "$logs/test.tmp"; } >>"$logs/tests.log"
    note "test $name: $r ($(grep -h 'test result' "$logs/test.tmp" | tail -1))"
    [[ $r == ok ]] || grep -A25 -E "panicked|FAILED" "$logs/test.tmp" | head -60
    rm -f "$logs/test.tmp"
  done
fi

if [[ $mode == sanitize || $mode == all ]]; then
  args=()
  for k in $(kernels); do args+=(--kernel "$k"); done
  for tool in memcheck racecheck synccheck; do
    if compute-sanitizer --tool "$tool" --error-exitcode 3 "$here/rgemm" check "${args[@]}" --m 67 --n 45 --k 33 >"$logs/sanitize-$tool.log" 2>&1; then r=clean; else r=FAILED; status=1; fi
    note "compute-sanitizer $tool: $r ($(grep -hE '(ERROR|RACECHECK) SUMMARY' "$logs/sanitize-$tool.log" | tail -1); $(grep -h 'passed,' "$logs/sanitize-$tool.log" | tail -1))"
    [[ $r == clean ]] || tail -30 "$logs/sanitize-$tool.log"
  done
fi

bench_filter=${RGEMM_BENCH_FILTER:-$filter}
if [[ $mode == bench || $mode == all ]]; then
  size=${RGEMM_BENCH_SIZE:-4096}
  for k in $("$here/rgemm" list | awk 'NR>1 && /gemm_/ {print $1}' | grep -E -- "$bench_filter"); do
    "$here/rgemm" run --kernel "$k" --m "$size" --n "$size" --k "$size" --iters "${RGEMM_BENCH_ITERS:-10}" >>"$logs/bench.log" 2>&1 || status=1
  done
  grep -E "^(kernel|cuBLAS|ratio|check)" "$logs/bench.log" | tee -a "$logs/summary.txt"
fi
note "status $status"
exit $status
