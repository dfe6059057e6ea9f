#!/usr/bin/env bash
# Run 144 (commit in bundle/COMMIT): Nsight Compute on rung 11's four kernels of run 143 at 4096³:
# issue, FMA pipe, shared-memory wavefronts and conflicts, and the stall reasons per issued
# instruction (why the kernels without a producer warp, and the 128-accumulator tiles, are slower).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run144; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
m="gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_lsu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,launch__registers_per_thread"
for r in not_selected selected short_scoreboard long_scoreboard barrier wait mio_throttle math_pipe_throttle dispatch_stall no_instruction branch_resolving lg_throttle misc; do
  m="$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
for k in sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_lc sgemm_11_tma_128x256x32_w64x64_t8x16_s4_wa_lc sgemm_11_tma_128x256x32_w64x64_t16x8_s4_wa_lc; do
  timeout 100 ncu --csv --page details --print-units base -k "regex:^${k}\$" --launch-count 1 --metrics "$m" bundle/rgemm run --kernel $k --m 4096 --n 4096 --k 4096 --iters 1 > $D/$k.csv 2> $D/$k.log
  echo "$k rc=$?" >> $D/rc.txt
done
cp bundle-diag/run144.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import csv,io,glob,sys,os
rows={}
for f in sorted(glob.glob(sys.argv[1]+'/*.csv')):
    t=open(f).read(); s=t.find('"ID"')
    if s<0: continue
    k=os.path.basename(f)[14:-4]
    for r in csv.DictReader(io.StringIO(t[s:])):
        rows.setdefault(r['Metric Name'],{})[k]=r['Metric Value']
ks=sorted({k for v in rows.values() for k in v})
print('metric'.ljust(60),' | '.join(x[-22:] for x in ks))
for n in sorted(rows): print(n.replace('smsp__average_warps_issue_stalled_','stall_')[:60].ljust(60),' | '.join(rows[n].get(k,'-').rjust(22) for k in ks))
PY
cd $OUT && tar czf run144.tgz run144 && rm -rf run144
