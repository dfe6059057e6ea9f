#!/usr/bin/env bash
# Run 64: where the time goes in the decode-batch linear layers (bf16, y = x·Wᵀ, M = 16 and 128):
# per-kernel durations under Nsight Compute (clocks not locked) of the automatic plan and of the
# cuBLAS calls in the same process, and the kernels PyTorch's cuBLAS launches with their times.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run64; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
timeout 90 python3 bundle-diag/cublas_times.py 16x4096x4096:nt/bf16 128x4096x4096:nt/bf16 128x6144x4096:nt/bf16 16x6144x4096:nt/bf16 > $D/torch.txt 2>&1; echo "torch rc $?" >> $D/rc.txt
for m in 16 128; do
  S=$SECONDS
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size --csv bundle/rgemm run --kernel best-bf16 --m $m --n 4096 --k 4096 --layout nt --iters 3 > $D/ncu-m$m.csv 2> $D/ncu-m$m.err; echo "ncu m$m rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS
timeout 60 bundle/rgemm run --kernel best-bf16 --m 128 --n 4096 --k 4096 --layout nt --iters 20 > $D/run-m128.txt 2>&1; echo "run m128 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run64.sh bundle-diag/cublas_times.py $D/
cd /tmp && tar czf $OUT/run64.tgz run64
