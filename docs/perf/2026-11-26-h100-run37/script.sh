#!/usr/bin/env bash
# Run 37 (commit 47ef20a): rung 14's TMA-store persistent kernel and cuBLAS, timed in turn, at
# M = N = 4096 and 8192 over K from 256 to 8192: the time a tile costs besides its K-tiles.
set -u
cd bundle-ab && gunzip -kf rgemm-f.gz && chmod +x rgemm-f && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=47ef20a
R=$PWD/bundle-ab/rgemm-f
D=/tmp/run37; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2; do
  timeout 200 $R bench --dtype bf16 --kernel $K --sizes 4096x4096x256,4096x4096x512,4096x4096x1024,4096x4096x2048,4096x4096x4096,4096x4096x8192,8192x8192x256,8192x8192x1024,8192x8192x4096 --iters 20 --out $D/k-p$i > $D/k-p$i.log 2>&1; echo "p$i rc $?" >> $D/rc.txt
done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run37.tgz run37
