#!/usr/bin/env bash
# Interleaved timing, bf16 clusters (grid and persistent) against the single-block kernels; rung 15 layouts.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=$PWD/bundle/rgemm
D=/tmp/exp2; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
# correctness of the cluster kernels on awkward sizes
for k in ${P}_c2_tmast ${P}_c2_persistent_tmast ${P}_c2_persistent_pairs; do
  for s in "1001 1000 1000" "4096 4096 4096" "129 8 64" "3000 264 4104"; do set -- $s
    $R run --kernel $k --m $1 --n $2 --k $3 --iters 3 2>&1 | grep -E "check|error|Error" | sed "s/^/$k $1x$2x$3: /" >> $D/checks.txt
  done
done
timeout 120 compute-sanitizer --tool memcheck $R run --kernel ${P}_c2_persistent_tmast --m 1001 --n 1000 --k 1000 --iters 1 > $D/memcheck.txt 2>&1; echo "memcheck rc $?" >> $D/checks.txt
timeout 120 compute-sanitizer --tool racecheck $R run --kernel ${P}_c2_persistent_tmast --m 520 --n 512 --k 256 --iters 1 > $D/racecheck.txt 2>&1; echo "racecheck rc $?" >> $D/checks.txt
# bf16, interleaved, 3 processes
for p in 1 2 3; do
  $R bench --dtype bf16 --kernel ${P}_persistent_tmast --kernel ${P}_persistent_pairs --kernel ${P}_tmast --kernel ${P}_c2_tmast --kernel ${P}_c2_persistent_tmast --kernel ${P}_c2_persistent_pairs --sizes 4096,8192 --iters 20 --out $D/bf16-p$p > $D/bf16-p$p.log 2>&1
done
# f32 rung 15 layouts, interleaved, 2 processes
F=sgemm_15_tf32x3_128x128x32_s4_raw
for p in 1 2; do
  $R bench --kernel $F --kernel ${F}_nt --kernel ${F}_tn --kernel ${F}_tt --kernel sgemm_15_tf32x3_128x128x32_s4_trunc --sizes 4096,4096:nt,4096:tn,4096:tt,8192 --iters 10 --out $D/f32-p$p > $D/f32-p$p.log 2>&1
done
cd /tmp && tar czf $OUT/exp2.tgz exp2
