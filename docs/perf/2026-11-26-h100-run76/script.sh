#!/usr/bin/env bash
# Mid-size products in bf16 that the table's nearest row (1000³ or 4096³) decides: the candidate
# tiles side by side, three processes timed in turn with the best cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-s8.gz && chmod +x rgemm-s8 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run76; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-s8
P=bgemm_14_wgmma_tma
S=1536,2048,3072,2048x1024x1024,1024x2048x1024,2048x2048x1024,1024x1024x2048,1536x1536x4096
for i in 1 2 3; do
  s=$SECONDS
  timeout 150 $B bench --kernel ${P}_128x256x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_tmast --kernel ${P}_128x256x64_s4_streamk_tmast --kernel ${P}_128x128x64_s6 --kernel ${P}_64x128x64_s8_tmast --sizes $S --iters 20 --out /tmp/r76/p$i > $D/mid-p$i.log 2>&1
  echo "p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r76/p$i/results.json $D/mid-p$i.json
done
cp bundle-diag/run76.sh $D/script.sh
