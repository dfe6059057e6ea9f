#!/usr/bin/env bash
# Run 45: after the review's simplification of the stream-K plan (one slot per block): run.sh all
# over the stream-K kernels (every test, four sanitizers), then both kernels and cuBLAS in three
# alternating processes.
set -u
rm -rf bundle; tar xzf bundle.tgz
mkdir -p /tmp/run45/all
OUT=/tmp/run45/all RGEMM_BENCH_FILTER='bgemm_.*streamk' timeout 330 bash bundle/run.sh all streamk > /tmp/run45/all.log 2>&1; echo "all rc $?" > /tmp/run45/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run45
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
for i in 1 2 3; do
  timeout 60 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes 3072x3072x3072,1024x1024x16384,4096x4608x4096,4096x4096x4096 --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bf16 p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run45.sh $D/script.sh
cd /tmp && tar czf $OUT/run45.tgz run45
