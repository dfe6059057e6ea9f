#!/usr/bin/env bash
# Run 137 (112845b + a `_presplit_nt` entry): Nsight Compute of rung 15's split-ahead products in
# nn, nt, tt, tn at 4096³ (why MN-major R costs: warp stalls, shared loads); then three processes of
# `rgemm bench` of them (and `_raw_nt`) in their layouts at 4096³, timed in turn.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run137; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4
M="gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,smsp__issue_active.avg.pct_of_peak_sustained_active"
for st in long_scoreboard short_scoreboard wait barrier mio_throttle math_pipe_throttle membar sleeping dispatch_stall lg_throttle no_instruction selected not_selected branch_resolving drain misc; do M="$M,smsp__average_warps_issue_stalled_${st}_per_issue_active.ratio"; done
for kl in presplit:nn presplit_nt:nt presplit_tt:tt presplit_tn:tn raw_nt:nt; do
  kn=${k}_${kl%%:*}; l=${kl##*:}
  timeout 100 ncu --csv --page details --print-units base -k "regex:^${kn}\$" --launch-skip 2 --launch-count 1 --metrics "$M" bundle/rgemm run --kernel $kn --layout $l --m 4096 --n 4096 --k 4096 --iters 3 > $D/ncu-${kl%%:*}.csv 2> $D/ncu-${kl%%:*}.err
  echo "ncu $kn rc=$?" >> $D/rc.txt
done
for p in 1 2 3; do
  timeout 80 bundle/rgemm bench --kernel ${k}_presplit --kernel ${k}_presplit_nt --kernel ${k}_raw_nt --kernel ${k}_presplit_tn --kernel ${k}_presplit_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
done
cp bundle-diag/run137.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,csv
D=sys.argv[1]
rows=collections.defaultdict(dict)
for f in sorted(glob.glob(D+'/ncu-*.csv')):
    name=f.split('ncu-')[1][:-4]
    lines=[l for l in open(f) if l.startswith('"')]
    for r in csv.DictReader(lines):
        rows[r['Metric Name']][name]=r['Metric Value']
names=sorted({n for v in rows.values() for n in v})
print('metric', *names)
for m in sorted(rows): print(m.replace('smsp__average_warps_issue_stalled_','stall_').replace('_per_issue_active.ratio',''), *[rows[m].get(n,'-') for n in names])
d=collections.defaultdict(list)
for f in sorted(glob.glob(D+'/f32-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][30:], s['m'], s.get('layout'))].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run137.tgz run137 && rm -rf run137
