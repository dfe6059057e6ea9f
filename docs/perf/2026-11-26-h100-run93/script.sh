#!/usr/bin/env bash
# A/B: rung 14's TMA-store epilogue with two named barriers per 64 × 32 slice (base, kernels of
# b6d6148) against one (onebar: the leader waits for the previous slice's store to have read its
# buffer before the barrier that publishes this slice). Checks, then processes alternating,
# each timed in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base onebar; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run93; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
R=bundle-ab/rgemm-onebar
{
  timeout 90 $R check --kernel ${P}_persistent_tmast --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $R check --kernel ${P}_persistent_tmast --m 264 --n 3000 --k 64 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel ${P}_streamk_tmast --m 3072 --n 3072 --k 1000; echo "rc=$?"
  timeout 60 $R check --kernel ${P}_tmast --m 129 --n 520 --k 72; echo "rc=$?"
  timeout 120 compute-sanitizer --tool racecheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 2>&1 | tail -3; echo "racecheck rc=$?"
  timeout 120 compute-sanitizer --tool synccheck $R check --kernel ${P}_persistent_tmast --m 520 --n 1032 --k 136 2>&1 | tail -3; echo "synccheck rc=$?"
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base onebar; do
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel ${P}_persistent_tmast --sizes 4096,8192 --iters 20 --out /tmp/r93/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$?" >> $D/times.txt
  cp /tmp/r93/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run93.sh $D/script.sh
cd $OUT && tar czf run93.tgz run93 && rm -rf run93
