#!/usr/bin/env bash
# Run 133: rung 15's refills issued by thread 0 of each warpgroup in turn (W) against thread 0 of
# the first always (B = 1dc68b5), alternating processes, each timing its kernels and cuBLAS in
# turn at 4096³ (every layout) and 8192³ (nn).
set -u
D=$OUT/run133; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=1dc68b5+
for b in B W; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
k=sgemm_15_tf32x3_128x128x32_s4
for rep in 1 2 3; do
  for b in B W; do
    timeout 100 /tmp/rgemm-$b bench --kernel ${k}_raw --kernel ${k}_presplit --kernel ${k}_presplit_tn --kernel ${k}_raw_nt --kernel ${k}_raw_tt --kernel ${k}_raw_tn --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn --iters 10 --out /tmp/o > $D/$b-$rep.log 2>&1
    echo "$b rep$rep rc=$?" >> $D/rc.txt
    cp /tmp/o/results.json $D/$b-$rep.json; rm -rf /tmp/o
    grep -E "^  sgemm" $D/$b-$rep.log | grep -v skipped | awk -v b=$b -v r=$rep '{print b, r, $1, $5}' >> $D/summary.txt
  done
done
cp bundle-diag/run133.sh $D/script.sh
cat $D/rc.txt; sort -k3,3 -k1,1 $D/summary.txt
cd $OUT && tar czf run133.tgz run133 && rm -rf run133
