#!/usr/bin/env bash
# Run 87: the f16 persistent TMA-store kernel at 4096³ and 8192³ in five processes, timed in turn.
set -u
rm -rf bundle; tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run87; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
timeout 120 bundle/rgemm check --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --m 256 --n 256 --k 256 > $D/warm.log 2>&1
for i in 1 2 3 4 5; do
  s=$SECONDS
  timeout 90 bundle/rgemm bench --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --sizes 4096,8192 --iters 20 --out /tmp/r87/p$i > $D/f16-p$i.log 2>&1
  echo "p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r87/p$i/results.json $D/f16-p$i.json
done
cp bundle/COMMIT $D/; cp bundle-diag/run87.sh $D/script.sh
cd $OUT && tar czf run87.tgz run87
