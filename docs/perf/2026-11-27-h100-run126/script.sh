#!/usr/bin/env bash
# Run 126: the MN-major panels of rung 15 in one four-dimensional load, the split-ahead high part and
# remainder in one load of two planes (binary N) against A (3c02591), alternating processes.
# Each process times its kernel and cuBLAS in turn; then checks of N at sizes with and without whole panels.
set -u
D=$OUT/run126; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A N; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
for rep in 1 2; do
  for b in A N; do
    for kl in raw:nn raw_nt:nt presplit_tn:tn raw_tt:tt raw_tn:tn presplit:nn; do
      k=${kl%%:*}; l=${kl##*:}
      timeout 40 /tmp/rgemm-$b bench --kernel sgemm_15_tf32x3_128x128x32_s4_$k --sizes 4096:$l --iters 10 --out /tmp/o > $D/bench-$b-$rep-$k.log 2>&1
      echo "$b rep$rep $k $l rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
      cp /tmp/o/results.json $D/bench-$b-$rep-$k.json 2>/dev/null; rm -rf /tmp/o
    done
  done
done
for c in "raw nn 1000 1000 1000" "raw_tn tn 4004 4000 4096" "raw_tn tn 4000 4004 4096" "presplit_tn tn 4004 1004 2048" "raw_tt tt 1004 4000 1024" "raw_tt tt 4000 1004 1024" "presplit nn 3000 3008 3000"; do
  set -- $c
  echo "== $c" >> $D/checks.log
  timeout 60 /tmp/rgemm-N run --kernel sgemm_15_tf32x3_128x128x32_s4_$1 --layout $2 --m $3 --n $4 --k $5 --iters 5 >> $D/checks.log 2>&1; echo "rc=$?" >> $D/checks.log
done
timeout 120 /tmp/rgemm-N run --kernel sgemm_15_tf32x3_128x128x32_s4_raw_tn --layout tn --m 4000 --n 4004 --k 512 --batch 3 --iters 5 >> $D/checks.log 2>&1; echo "batch rc=$?" >> $D/checks.log
cp bundle-diag/run126.sh $D/script.sh
cat $D/order.log; grep -E "^==|^check|^rc|rror" $D/checks.log
cd $OUT && tar czf run126.tgz run126 && rm -rf run126
