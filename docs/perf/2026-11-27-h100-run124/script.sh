#!/usr/bin/env bash
# Run 124: (1) split-K's sum as a row walk: automatic split plans with binary A (3c02591) against
# C (the row walk), alternating; (2) rung 15's tile order by block columns (CO) against by block
# rows (C) at 4096³ in every layout, alternating. Each process times its kernel and cuBLAS in turn.
set -u
D=$OUT/run124; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A C CO; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
# (1) split plans
for rep in 1 2; do
  for b in A C; do
    for c in "best 16 4096 4096 nt" "best 256 256 131072 nn" "best 1024 1024 32768 nn" "best-bf16 256 256 131072 nn" "best-bf16 1024 1024 32768 nn" "best-bf16 16 4096 14336 nt"; do
      set -- $c
      echo "== $b rep$rep $c" >> $D/split.log
      timeout 40 /tmp/rgemm-$b run --kernel $1 --m $2 --n $3 --k $4 --layout $5 --iters 20 >> $D/split.log 2>&1
    done
  done
done
# (2) rung 15 tile order
for rep in 1 2; do
  for b in C CO; do
    for kl in raw:nn raw_nt:nt raw_tt:tt presplit_tn:tn raw_tn:tn; do
      k=${kl%%:*}; l=${kl##*:}
      timeout 40 /tmp/rgemm-$b bench --kernel sgemm_15_tf32x3_128x128x32_s4_$k --sizes 4096:$l --iters 10 --out /tmp/o > $D/order-$b-$rep-$k.log 2>&1
      echo "$b rep$rep $k $l rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
      cp /tmp/o/results.json $D/order-$b-$rep-$k.json 2>/dev/null; rm -rf /tmp/o
    done
  done
done
cp bundle-diag/run124.sh $D/script.sh
cat $D/order.log; grep -E "^==|^kernel|^cuBLAS|^plan" $D/split.log | head -120
cd $OUT && tar czf run124.tgz run124 && rm -rf run124
