#!/usr/bin/env bash
# Nsight Compute on the persistent kernel and the stream-K kernel with run 82's runs over the
# last round (M = N = 4096, K = 1024 and 4096): where do the runs lose their time?
set -u
cd bundle-ab && gunzip -kf rgemm-runs.gz && chmod +x rgemm-runs && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run84; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-runs
P=bgemm_14_wgmma_tma_128x256x64_s4
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min
for k in 1024 4096; do
  for kern in ${P}_persistent_tmast ${P}_streamk_tmast; do
    timeout 120 ncu --csv --page details --print-units base -k "regex:^${kern}\$" --launch-count 1 --metrics $M $B run --kernel $kern --m 4096 --n 4096 --k $k --iters 1 > $D/ncu-$kern-$k.csv 2> $D/ncu-$kern-$k.log
    echo "$kern $k rc=$?" >> $D/times.txt
  done
done
cp bundle-diag/run84.sh $D/script.sh
cd $OUT && tar czf run84.tgz run84
