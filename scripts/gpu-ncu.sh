#!/usr/bin/env bash
# The Nsight Compute metrics behind each rung chapter's "What limits it now" (book/src/rung-*.md):
# one profiled launch per rung, its featured kernel, a handful of metrics chosen for the claim the
# chapter makes. Runs on the GPU machine from the bundle (scripts/gpu-bundle.sh copies it to
# bundle/ncu.sh), in about two minutes on an H100:
#
#   OUT=/some/dir bash bundle/ncu.sh            # all rungs
#   OUT=/some/dir bash bundle/ncu.sh 3 7 8      # some rungs
#
# Writes to $OUT (default ./gpu-logs): ncu-metrics.json (rung, kernel, size, metric -> value and
# unit), ncu-summary.txt (the same as text), and ncu-rNN.csv (ncu's raw CSV per rung).
# Metrics this Nsight Compute does not know are left out and listed as missing, not guessed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$PWD/gpu-logs}
mkdir -p "$out"
rgemm="$here/rgemm"
[ -x "$rgemm" ] || rgemm=$(command -v rgemm || true)
[ -x "$rgemm" ] || { echo "no rgemm binary next to this script or on PATH" >&2; exit 2; }
command -v ncu >/dev/null || { echo "ncu (Nsight Compute) is not on PATH" >&2; exit 2; }
# cuBLAS for `rgemm run`: from the CUDA toolkit or a pip wheel, whichever is there.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
         $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH

# Metrics shared by every rung: time, issue-slot use, resident warps.
common="gpu__time_duration.sum smsp__issue_active.avg.pct_of_peak_sustained_active sm__warps_active.avg.pct_of_peak_sustained_active"
lsu_fma="smsp__inst_executed_pipe_lsu.sum smsp__inst_executed_pipe_fma.sum sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"
shared_ld="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
shared_st="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
stalls="smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
tensor="sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active sm__inst_executed_pipe_tensor_op_gmma.sum"

# rung | featured kernel (BEST in src/catalog.rs) | size | metrics for the chapter's claim
plan() {
  cat <<EOF
1|sgemm_01_naive_32x32x1|2048|l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum dram__throughput.avg.pct_of_peak_sustained_elapsed
2|sgemm_02_coalesced_32x32x1|2048|l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sector_hit_rate.pct $lsu_fma
3|sgemm_03_smem_tiling_32x32x32|2048|$lsu_fma $shared_ld
4|sgemm_04_blocktile_1d_64x64x16_t16x1|2048|$lsu_fma $shared_ld
5|sgemm_05_blocktile_2d_64x64x16_t4x4|2048|$lsu_fma $shared_ld
6|sgemm_06_vectorized_64x64x16_t4x4|2048|$lsu_fma $shared_ld
7|sgemm_07_transposed_a_64x128x8_t8x8|2048|$shared_ld $shared_st sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
8|sgemm_08_double_buffer_128x128x8_t8x8_s2|2048|$shared_ld $shared_st sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
9|sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior|4096|$shared_ld $stalls sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
10|sgemm_10_cp_async_128x128x8_w64x32_t8x8_s4_at|4096|$shared_ld $stalls sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
11|sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa|4096|$shared_ld $stalls sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
12|bgemm_12_mma_sync_128x128x64_w64x64_s3_fp|4096|$tensor smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum $stalls
13|bgemm_13_wgmma_128x256x64_s4|4096|$tensor $stalls dram__throughput.avg.pct_of_peak_sustained_elapsed
14|bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs|4096|$tensor dram__throughput.avg.pct_of_peak_sustained_elapsed lts__t_sector_hit_rate.pct
EOF
}

wanted=" $* "
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
names=$("$rgemm" list --names 2>/dev/null)
status=0
: >"$out/ncu-summary.txt"
python_rows=()
while IFS='|' read -r rung kernel size metrics; do
  [[ $# -eq 0 || $wanted == *" $rung "* ]] || continue
  if ! grep -qx -- "$kernel" <<<"$names"; then
    echo "rung $rung: $kernel is not in this build's catalog; skipped" | tee -a "$out/ncu-summary.txt"
    status=1
    continue
  fi
  metrics="$common $metrics"
  use=() missing=()
  for m in $metrics; do
    if [ -z "$known" ] || grep -qx -- "${m%%.*}" <<<"$known"; then use+=("$m"); else missing+=("$m"); fi
  done
  # A query whose format was not understood would leave nothing: ask for everything then.
  if (( ${#use[@]} == 0 )); then use=($metrics); missing=(); fi
  csv="$out/ncu-r$(printf %02d "$rung").csv"
  start=$(date +%s)
  if ncu --csv --page details --print-units base -k "regex:^${kernel}\$" --launch-count 1 \
       --metrics "$(IFS=,; echo "${use[*]}")" \
       "$rgemm" run --kernel "$kernel" --m "$size" --n "$size" --k "$size" --iters 1 >"$csv" 2>"$csv.log"; then
    r=ok
  else
    r=FAILED; status=1
  fi
  echo "rung $rung $kernel ${size}^3: $r in $(( $(date +%s) - start )) s; missing metrics: ${missing[*]:-none}" | tee -a "$out/ncu-summary.txt"
  python_rows+=("$rung|$kernel|$size|$csv|${missing[*]:-}")
done < <(plan)

# One JSON for the book: rung -> kernel, size, metrics {name: [value, unit]}, missing metrics.
printf '%s\n' "${python_rows[@]}" | python3 -c '
import csv, io, json, sys
result = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line:
        continue
    rung, kernel, size, path, missing = line.split("|")
    text = open(path).read()
    start = text.find("\"ID\"")
    metrics = {}
    if start >= 0:
        for row in csv.DictReader(io.StringIO(text[start:])):
            name, value, unit = row.get("Metric Name"), row.get("Metric Value"), row.get("Metric Unit")
            if name:
                try:
                    value = float(value.replace(",", ""))
                except (AttributeError, ValueError):
                    pass
                metrics[name] = [value, unit]
    result.append({"rung": int(rung), "kernel": kernel, "size": int(size), "metrics": metrics, "missing": missing.split()})
json.dump(result, open(sys.argv[1], "w"), indent=1)
for r in result:
    print("rung %d %s at %d^3" % (r["rung"], r["kernel"], r["size"]))
    for name, (value, unit) in sorted(r["metrics"].items()):
        print("  %-80s %s %s" % (name, value, unit or ""))
' "$out/ncu-metrics.json" | tee -a "$out/ncu-summary.txt"
echo "wrote $out/ncu-metrics.json and $out/ncu-summary.txt"
exit $status
