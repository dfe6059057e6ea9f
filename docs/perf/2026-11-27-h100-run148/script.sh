#!/usr/bin/env bash
# Run 148 (commit in bundle/COMMIT): the f16 twin of rung 14's persistent TMA-store kernel with
# persistent launches on the fewest blocks that keep the rounds, three processes of
# `rgemm bench` at 4096³ and 8192³, each with its own cuBLAS.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run148; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
K=hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3; do
  S=$SECONDS
  timeout 40 bundle/rgemm bench --dtype f16 --kernel $K --sizes 4096,8192 --iters 20 --out /tmp/b$i > $D/f16-p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/f16-p$i.json 2>/dev/null
done
cp bundle-diag/run148.sh $D/script.sh
cat $D/rc.txt; grep -h "PASS\|FAIL" $D/*.log | awk '{print $NF}' | sort | uniq -c
python3 - $D <<'PY'
import json,glob,sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/f16-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[s['m']].append((round(100*cb/run['timing']['median_ms'],1), round(run['timing']['median_ms'],4), round(cb,4)))
for k in sorted(d): print(k, 'median %', st.median(x[0] for x in d[k]), d[k])
PY
cd $OUT && tar czf run148.tgz run148 && rm -rf run148
