#!/usr/bin/env bash
# Run 128 (commit in bundle/COMMIT): rung 15 with one load per tile. Every GPU test; then four
# processes of `rgemm bench` of the rung-15 kernels of every layout at 4096³ (and nn, tn at
# 8192³), timed in turn, each with its own cuBLAS figures.
set -u
tar xzf bundle.tgz
D=$OUT/run128; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
k=sgemm_15_tf32x3_128x128x32_s4
for p in 1 2 3 4; do
  timeout 100 bundle/rgemm bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tn --iters 20 --out /tmp/p$p > $D/f32-p$p.log 2>&1
  echo "bench p$p rc=$?" >> $D/rc.txt
  cp /tmp/p$p/results.json $D/f32-p$p.json 2>/dev/null
  grep -E "^  sgemm|cuBLAS|^[0-9]" $D/f32-p$p.log | head -30 > $D/f32-p$p.short
done
cp bundle-diag/run128.sh $D/script.sh
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5; cat $D/f32-p1.short
cd $OUT && tar czf run128.tgz run128 && rm -rf run128
