#!/usr/bin/env bash
# The persistent TMA-store kernel against the best cuBLAS at 4096³ and 4096×4096×1024 with the L2
# flushed before every timed launch (as always) and without: does what the kernel reads first
# (its tensor maps, in global memory) cost it more than cuBLAS, whose maps are kernel parameters?
set -u
cd bundle-ab && gunzip -kf rgemm-base.gz && chmod +x rgemm-base && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run91; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3; do for v in flush noflush; do
  f=""; [ $v = noflush ] && f="--no-flush"
  RGEMM_COMMIT=b6d6148 timeout 100 bundle-ab/rgemm-base bench --kernel $K --sizes 4096,4096x4096x1024 --iters 20 $f --out /tmp/r91/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$?" >> $D/times.txt
  cp /tmp/r91/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run91.sh $D/script.sh
cd $OUT && tar czf run91.tgz run91 && rm -rf run91
