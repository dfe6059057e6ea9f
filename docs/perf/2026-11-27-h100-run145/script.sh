#!/usr/bin/env bash
# Run 145 (bundle/COMMIT: c8cedbb plus an experiment switch): rung 14's persistent TMA-store bf16
# kernel on as few blocks as keep its rounds (512 tiles at 4096³ and 2048 at 8192³: 128 blocks of
# 4 and 16 tiles each, instead of 132 blocks of which 16 have one tile fewer), against the usual
# one block per SM: ten processes of `rgemm bench`, alternating, each with its own cuBLAS.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run145; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3 4 5 6 7 8 9 10; do
  S=$SECONDS
  if (( i % 2 )); then v=sms; unset RGEMM_EXPERIMENT_BALANCED; else v=balanced; export RGEMM_EXPERIMENT_BALANCED=1; fi
  timeout 40 bundle/rgemm bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 20 --out /tmp/b$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/$v-p$i.json 2>/dev/null
done
unset RGEMM_EXPERIMENT_BALANCED
cp bundle-diag/run145.sh $D/script.sh
cat $D/rc.txt
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/*-p*.json')):
    v=f.split('/')[-1].split('-')[0]
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(v, s['m'])].append((round(100*cb/run['timing']['median_ms'],1), round(run['timing']['median_ms'],4), round(cb,4)))
for k in sorted(d): print(k, 'median %', st.median(x[0] for x in d[k]), d[k])
PY
cd $OUT && tar czf run145.tgz run145 && rm -rf run145
