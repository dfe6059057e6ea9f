#!/usr/bin/env bash
# Run 125: does the number of copy-engine loads per stage cost rung 15 time? Binary X loads every
# K-major tile as four boxes of 32 rows (as the MN-major panels already are) against A (3c02591),
# at 4096³, alternating processes, each timing its kernel and cuBLAS in turn.
set -u
D=$OUT/run125; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A X; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
for rep in 1 2; do
  for b in A X; do
    for kl in raw:nn raw_nt:nt presplit_tn:tn raw_tt:tt; do
      k=${kl%%:*}; l=${kl##*:}
      timeout 40 /tmp/rgemm-$b bench --kernel sgemm_15_tf32x3_128x128x32_s4_$k --sizes 4096:$l --iters 10 --out /tmp/o > $D/bench-$b-$rep-$k.log 2>&1
      echo "$b rep$rep $k $l rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
      cp /tmp/o/results.json $D/bench-$b-$rep-$k.json 2>/dev/null; rm -rf /tmp/o
    done
  done
done
cp bundle-diag/run125.sh $D/script.sh
cat $D/order.log
cd $OUT && tar czf run125.tgz run125 && rm -rf run125
