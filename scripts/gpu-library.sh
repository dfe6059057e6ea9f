#!/usr/bin/env bash
# Runs on the GPU machine from the bundle: the library's checks and measurements.
#   bash bundle/library.sh check   # GPU tests of the library and catalog, the MLP example,
#                                  # every layout at 4096³, sanitizers on the layout kernels
#   bash bundle/library.sh suite   # `rgemm bench --suite real` for bf16 and f32 (JSON under $OUT;
#                                  # RGEMM_SUITE_DTYPES picks the types)
#   bash bundle/library.sh tune    # `rgemm tune --suite real` for f32 and bf16: the dispatch table
#                                  # ($OUT/dispatch.tsv), then the suite run with that table
#   bash bundle/library.sh layouts # the fastest kernels of each type in all four layouts at
#                                  # RGEMM_LAYOUT_SIZES (default "4096 8192"; commas or spaces)
#                                  # cubed: `rgemm bench` per type (JSON under $OUT/layouts-<type>)
# Logs go to $OUT (or ./gpu-logs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-check}
logs=${OUT:-$PWD/gpu-logs}
mkdir -p "$logs"
. "$here/env.sh"
rgemm="$here/rgemm"
note "$(date -u +%FT%TZ) commit $(cat "$here/COMMIT" 2>/dev/null) mode $mode"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader | tee -a "$logs/summary.txt"

if [[ $mode == check ]]; then
  for t in library gpu lessons; do
    # The GPU tests are ignored unless asked for: include them.
    if "$here/tests/$t" --include-ignored --test-threads=1 >"$logs/test-$t.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    note "test $t: $r ($(grep -h 'test result' "$logs/test-$t.log" | tail -1))"
    [[ $r == ok ]] || grep -A20 -E "panicked|FAILED" "$logs/test-$t.log" | head -50
    grep -h "kernels chosen" "$logs/test-$t.log" | tee -a "$logs/summary.txt"
  done
  if "$here/mlp" 16 4096 11008 >"$logs/mlp.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
  note "example mlp: $r"; cat "$logs/mlp.log" | tee -a "$logs/summary.txt"
  for dtype in bf16 f16; do
    for layout in nn nt tn tt; do
      "$rgemm" run --kernel "best-$dtype" --m 4096 --n 4096 --k 4096 --layout $layout --iters 20 >"$logs/run-$dtype-$layout.log" 2>&1 || status=1
      note "run best-$dtype 4096³ $layout: $(grep -E '^(best|ratio|check)' "$logs/run-$dtype-$layout.log" | tr '\n' ' ')"
    done
  done
  for layout in nn nt; do
    "$rgemm" run --kernel best --m 4096 --n 4096 --k 4096 --layout $layout --iters 10 >"$logs/run-f32-$layout.log" 2>&1 || status=1
    note "run best f32 4096³ $layout: $(grep -E '^(best|ratio|check)' "$logs/run-f32-$layout.log" | tr '\n' ' ')"
  done
  # Sanitizers on the kernels this change touched most: every layout kernel and the general ones,
  # with padded leading dimensions and a batch; then every kernel on one small batched problem.
  layout_kernels=$("$rgemm" list --names | grep -E '_(nt|tn|tt)$|_00_general')
  for tool in memcheck racecheck synccheck initcheck; do
    log="$logs/sanitize-$tool.log"; : >"$log"; r=clean
    for k in $layout_kernels; do
      l=nn; [[ $k =~ _(nt|tn|tt)$ ]] && l=${BASH_REMATCH[1]}
      compute-sanitizer --tool $tool --error-exitcode 3 "$rgemm" check --kernel "$k" --layout $l --m 136 --n 264 --k 80 --lda 280 --ldb 280 --ldc 272 --batch 2 >>"$log" 2>&1 || { r=FAILED; status=1; }
    done
    compute-sanitizer --tool $tool --error-exitcode 3 "$rgemm" check --m 67 --n 48 --k 40 --batch 3 >>"$log" 2>&1 || { r=FAILED; status=1; }
    note "compute-sanitizer $tool: $r ($(grep -hE '(ERROR|RACECHECK) SUMMARY' "$log" | sort | uniq -c | tr '\n' ' '); $(grep -h 'passed,' "$log" | paste -sd' ' -))"
    [[ $r == clean ]] || grep -B2 -A12 -E "FAIL|Invalid|ERROR SUMMARY: [1-9]|Race" "$log" | head -40
  done
fi

if [[ $mode == layouts ]]; then
  # The layout variants of the kernels each type's dispatch picks at 4096³ (bf16: TMA stores or
  # pair stores, persistent; f32: rung 15, raw or with A split ahead), plus any RGEMM_LAYOUT_EXTRA (a regex of names; each
  # type takes the names of its own prefix).
  declare -A pick=([bf16]='^bgemm_14_.*_s4_persistent_(tmast|pairs)(_nt|_tn|_tt)?$' [f32]='^sgemm_15_.*_(raw|presplit)(_nt|_tn|_tt)?$')
  declare -A prefix=([bf16]=bgemm_ [f32]=sgemm_)
  for dtype in bf16 f32; do
    args=(); sizes=()
    for k in $("$rgemm" list --names | grep -E "${pick[$dtype]}${RGEMM_LAYOUT_EXTRA:+|$RGEMM_LAYOUT_EXTRA}" | grep "^${prefix[$dtype]}"); do args+=(--kernel "$k"); done
    # Without kernels, `rgemm bench` would run the whole ladder: an error instead.
    (( ${#args[@]} )) || { note "layouts $dtype: no kernel matches"; status=1; continue; }
    sizes_list=${RGEMM_LAYOUT_SIZES:-4096 8192}
    for n in ${sizes_list//,/ }; do for l in nn nt tn tt; do sizes+=("$n:$l"); done; done
    "$rgemm" bench "${args[@]}" --sizes "$(IFS=,; echo "${sizes[*]}")" --iters ${RGEMM_BENCH_ITERS:-20} --out "$logs/layouts-$dtype" >"$logs/layouts-$dtype.log" 2>&1
    rc=$?; [ $rc = 0 ] || status=1
    note "layouts $dtype: exit $rc"
    grep -vE '^\s*$' "$logs/layouts-$dtype.log" | grep -v skipped | tail -40
  done
fi

if [[ $mode == tune ]]; then
  table="$logs/dispatch.tsv"; rm -f "$table"
  for dtype in bf16 f32; do
    timeout ${RGEMM_TUNE_TIMEOUT:-400} "$rgemm" tune --suite real --dtype $dtype --iters ${RGEMM_TUNE_ITERS:-5} --warmup 2 --table "$table" --json "$logs/tune-$dtype.json" >"$logs/tune-$dtype.log" 2>&1
    rc=$?; [ $rc = 0 ] || status=1
    note "tune $dtype: exit $rc"
    tail -30 "$logs/tune-$dtype.log"
  done
  # The suite with the table just measured (what the repository's dispatch/h100.tsv holds once
  # committed).
  export RGEMM_DISPATCH_TABLE="$table"
fi

if [[ $mode == suite || ( $mode == tune && -z ${RGEMM_SKIP_SUITE:-} ) ]]; then
  for dtype in ${RGEMM_SUITE_DTYPES:-bf16 f32}; do
    "$rgemm" bench --suite real --dtype $dtype --iters ${RGEMM_BENCH_ITERS:-10} --out "$logs/suite-$dtype" >"$logs/suite-$dtype.log" 2>&1
    rc=$?; [ $rc = 0 ] || status=1
    note "suite $dtype: exit $rc"
    tail -5 "$logs/suite-$dtype.log"
  done
fi
note "exit $status"
exit $status
