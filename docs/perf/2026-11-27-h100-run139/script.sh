#!/usr/bin/env bash
# Run 139 (commit in bundle/COMMIT): every GPU test on the committed code (the catalog walks now
# over `_presplit_nt` too); then five processes of `rgemm bench` of rung 14's persistent bf16
# kernels at 4096³ and 8192³, timed in turn (as run 59 of 2026-11-26).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run139; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 290 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
P=bgemm_14_wgmma_tma_128x256x64_s4
for i in 1 2 3 4 5; do
  S=$SECONDS
  timeout 45 bundle/rgemm bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out /tmp/bf16-p$i > $D/bf16-p$i.log 2>&1; echo "bf16 p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/bf16-p$i/results.json $D/bf16-p$i.json 2>/dev/null
done
cp bundle-diag/run139.sh $D/script.sh
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
python3 - $D <<'PY'
import json,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/bf16-p*.json')):
    r=json.load(open(f))
    for s in r['sizes']:
        cb=s['cublas']['median_ms']
        for run in s['runs']:
            if run.get('timing'): d[(run['kernel'][31:], s['m'])].append(round(100*cb/run['timing']['median_ms'],1))
for k in sorted(d): print(k, d[k])
PY
cd $OUT && tar czf run139.tgz run139 && rm -rf run139
