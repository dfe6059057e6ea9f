#!/usr/bin/env bash
# Rung 11 (SIMT, TMA) against cuBLAS SGEMM, timed in turn, three processes.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run28; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for i in 1 2 3; do
  timeout 150 $R bench --kernel sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa --sizes 4096,8192 --iters 10 --out $D/r11-p$i > $D/r11-p$i.log 2>&1
done
timeout 150 $R bench --kernel sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/r11-sustained-p1 > $D/r11-sustained-p1.log 2>&1
cd /tmp && tar czf $OUT/run28.tgz run28
