#!/usr/bin/env bash
# Run 44: run.sh all over the stream-K kernels on the final commit (every test, the four
# sanitizers over them), then the stream-K and persistent kernels and cuBLAS in three alternating
# processes on shapes whose last round it cuts (one block per SM now, also for few tiles) and on
# shapes it leaves whole.
set -u
rm -rf bundle; tar xzf bundle.tgz
mkdir -p /tmp/run44/all
OUT=/tmp/run44/all timeout 300 bash bundle/run.sh all streamk > /tmp/run44/all.log 2>&1; echo "all rc $?" > /tmp/run44/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run44
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
SB=bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast
PB=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
SIZES=3072x3072x3072,3072x3072x8192,4096x4608x4096,1024x1024x16384,2048x1024x8192,4096x4096x4096,8192x8192x8192
for i in 1 2 3; do
  timeout 80 $R bench --dtype bf16 --kernel $PB --kernel $SB --sizes $SIZES --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
timeout 60 $R bench --dtype f16 --kernel hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel hgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes 3072x3072x3072,4096x4608x4096 --iters 20 --out $D/h-p1 > $D/h-p1.log 2>&1; echo "f16 p1 rc $?" >> $D/rc.txt
cp bundle-diag/run44.sh $D/script.sh
cd /tmp && tar czf $OUT/run44.tgz run44
