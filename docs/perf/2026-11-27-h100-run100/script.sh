#!/usr/bin/env bash
# Run 100. The split ahead of `_presplit_tn` at 4096³: (1) Nsight Compute of the split and the
# product (duration, DRAM throughput), with 1 and 8 row tiles per block of the split
# (RGEMM_SPLIT_PER, a knob of this experimental binary only); (2) `_presplit_tn` against `_raw`
# (nn) with 1, 4, 16 row tiles per block, two processes each, timed in turn with cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-knob.gz && chmod +x rgemm-knob && cd ..
R=bundle-ab/rgemm-knob
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run100; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
for per in 1 8; do
  RGEMM_SPLIT_PER=$per timeout 120 ncu --kernel-name regex:'split_tf32|presplit' --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed $R check --kernel ${F}_presplit_tn --layout tn --m 4096 --n 4096 --k 4096 > $D/ncu-per$per.log 2>&1
  echo "ncu per=$per rc=$?" >> $D/times.txt
done
grep -E "split_tf32|presplit|duration|throughput|bytes" $D/ncu-per*.log | grep -v "==PROF==" | head -40
for i in 1 2; do
  for per in 1 4 16; do
    RGEMM_SPLIT_PER=$per timeout 60 $R bench --kernel ${F}_raw --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r100/p$i-$per > $D/p$i-per$per.log 2>&1
    echo "p$i per=$per rc=$?" >> $D/times.txt
    cp /tmp/r100/p$i-$per/results.json $D/p$i-per$per.json
    echo "p$i per=$per $(grep -h "s4_raw \|_presplit_tn " $D/p$i-per$per.log | grep -v '^ *[0-9.]* s' | awk '{printf "%s %s %s | ", substr($1,30), $3, $5}')"
  done
done
cat $D/times.txt
cp bundle-diag/run100.sh $D/script.sh
cd $OUT && tar czf run100.tgz run100 && rm -rf run100
