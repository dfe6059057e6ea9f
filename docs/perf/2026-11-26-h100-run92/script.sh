#!/usr/bin/env bash
# Persistent clusters of two sharing B's tile by multicast (run 63's kernel on today's tree,
# groups of 8 cluster rows = 16 block rows) beside the single-block persistent kernel: checks,
# five processes timed in turn, and Nsight Compute at 4096³ (clocks locked and free): do they
# cut L2 bytes and raise the clock under the power limit, and what do they cost in cycles?
set -u
cd bundle-ab && gunzip -kf rgemm-c2.gz && chmod +x rgemm-c2 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run92; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
R=bundle-ab/rgemm-c2
P=bgemm_14_wgmma_tma_128x256x64_s4
C=${P}_c2g8_persistent_tmast
{
  timeout 90 $R check --kernel $C --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $R check --kernel $C --m 264 --n 3000 --k 4104 ; echo "rc=$?"
  timeout 60 $R check --kernel $C --m 256 --n 520 --k 136 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel $C --m 4104 --n 3000 --k 264; echo "rc=$?"
} > $D/checks.txt 2>&1
for i in 1 2 3 4 5; do
  RGEMM_COMMIT=c2 timeout 100 $R bench --kernel ${P}_persistent_tmast --kernel $C --sizes 4096,8192 --iters 20 --out /tmp/r92/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r92/p$i/results.json $D/p$i.json
done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
for cc in base none; do
  timeout 120 ncu --clock-control $cc --metrics $M --csv --print-units base -k "regex:^bgemm" --launch-count 16 $R bench --kernel ${P}_persistent_tmast --kernel $C --sizes 4096 --iters 3 --out /tmp/r92/ncu > $D/ncu-$cc.csv 2> $D/ncu-$cc.log
  echo "ncu $cc rc=$?" >> $D/times.txt
done
cp bundle-diag/run92.sh $D/script.sh
cd $OUT && tar czf run92.tgz run92 && rm -rf run92
