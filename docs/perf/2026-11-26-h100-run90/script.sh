#!/usr/bin/env bash
# Nsight Compute at 4096³ bf16: the persistent TMA-store kernel and cuBLAS's kernel, clocks
# locked (per-cycle work) and free (the clock each runs at under the power limit), plus launch
# statistics: is the last 0.5% to cuBLAS cycles or clock?
set -u
cd bundle-ab && gunzip -kf rgemm-base.gz && chmod +x rgemm-base && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run90; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader > $D/device.txt
R=bundle-ab/rgemm-base
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
for cc in base none; do
  timeout 150 ncu --clock-control $cc --metrics $M --csv --print-units base -k "regex:^(bgemm|nvjet|sm90|cutlass)" $R run --kernel $K --m 4096 --n 4096 --k 4096 --iters 3 > $D/ncu-$cc.csv 2> $D/ncu-$cc.log
  echo "$cc rc=$?" >> $D/times.txt
done
timeout 150 ncu --section LaunchStats --csv --print-units base -k "regex:^(bgemm|nvjet|sm90|cutlass)" --launch-count 4 $R run --kernel $K --m 4096 --n 4096 --k 4096 --iters 1 > $D/ncu-launch.csv 2> $D/ncu-launch.log
echo "launch rc=$?" >> $D/times.txt
cp bundle-diag/run90.sh $D/script.sh
cd $OUT && tar czf run90.tgz run90 && rm -rf run90
