#!/usr/bin/env bash
# bf16 and f32 on an H200, timed in turn, three processes.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run27; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
for i in 1 2 3; do
  timeout 100 $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$i > $D/bf16-p$i.log 2>&1
done
for i in 1 2 3; do
  timeout 100 $R bench --kernel sgemm_15_tf32x3_128x128x32_s4_raw --sizes 4096,8192 --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
cd /tmp && tar czf $OUT/run27.tgz run27
