#!/usr/bin/env bash
# A/B/C after run 93's hang: named barriers as LLVM's convergent intrinsic instead of inline asm
# (intr: the same two barriers per epilogue slice; onebar: one per slice), against the kernels of
# b6d6148 (base). Checks with beta = 0 (the TMA-store path that hung), two sanitizers, then
# processes alternating, each timed in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base intr onebar; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run94; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
{
for v in onebar intr; do
  R=bundle-ab/rgemm-$v
  timeout 100 $R check --kernel ${P}_persistent_tmast --m 264 --n 3000 --k 64 --batch 3 --beta 0; echo "$v rc=$?"
  timeout 100 $R check --kernel ${P}_streamk_tmast --m 3072 --n 3072 --k 1000 --beta 0; echo "$v rc=$?"
  timeout 100 $R check --kernel ${P}_tmast --m 129 --n 520 --k 72 --beta 0; echo "$v rc=$?"
done
R=bundle-ab/rgemm-onebar
timeout 150 compute-sanitizer --tool racecheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 --beta 0 2>&1 | tail -3; echo "racecheck rc=$?"
timeout 150 compute-sanitizer --tool synccheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 --beta 0 2>&1 | tail -3; echo "synccheck rc=$?"
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base intr onebar; do
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --out /tmp/r94/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$?" >> $D/times.txt
  cp /tmp/r94/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run94.sh $D/script.sh
cd $OUT && tar czf run94.tgz run94 && rm -rf run94
