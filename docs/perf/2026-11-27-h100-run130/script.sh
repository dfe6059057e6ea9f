#!/usr/bin/env bash
# Run 130 (commit in bundle/COMMIT): where the split ahead pays in `tn` with one load per tile
# (run 104 again): two processes of `rgemm bench` of `_raw_tn` and `_presplit_tn`, timed in turn.
set -u
[ -d bundle ] || tar xzf bundle.tgz
D=$OUT/run130; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2; do
  timeout 150 bundle/rgemm bench --kernel ${k}_raw_tn --kernel ${k}_presplit_tn --sizes 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,2048x4096x4096:tn,1024:tn,2048:tn --iters 20 --out /tmp/p$p > $D/tn-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/tn-p$p.json 2>/dev/null
done
cp bundle-diag/run130.sh $D/script.sh
cat $D/rc.txt; grep -E "^[0-9]|_tn  " $D/tn-p*.log | grep -v skipped
cd $OUT && tar czf run130.tgz run130 && rm -rf run130
