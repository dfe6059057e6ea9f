#!/usr/bin/env bash
# Run 121: the row copies of staged plans with a few blocks per SM, each thread 8 rows at a time
# (new, working tree of 0b459a5+) against one block per row of 256 elements (old), in alternating
# processes of `rgemm run` (the automatic plan, timed in turn with both cuBLAS calls).
set -u
cd bundle-ab && for b in new old; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run121; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for b in new old; do timeout 90 bundle-ab/rgemm-$b check --kernel best-bf16 --m 333 --n 4099 --k 1021 > $D/warm-$b.log 2>&1; done
CASES="best-bf16:4095:4095:4095 best-bf16:4097:4097:4097 best-bf16:3001:2999:3003 best-bf16:333:4099:1021 best:4095:4095:4095 best:333:4099:1021 best-bf16:4095:4095:4095:64"
for i in 1 2 3; do
  for b in new old; do
    for c in $CASES; do
      IFS=: read -r kern m n k batch <<< "$c"
      echo "== $b p$i $c" >> $D/$b.log
      timeout 40 bundle-ab/rgemm-$b run --kernel $kern --m $m --n $n --k $k ${batch:+--batch 2} --iters 30 >> $D/$b.log 2>&1
      echo "rc=$?" >> $D/$b.log
    done
  done
done
grep -c "rc=0" $D/new.log $D/old.log; grep -c PASS $D/new.log $D/old.log
for b in new old; do echo "-- $b"; grep -E "^== |^ratio" $D/$b.log | paste - - | awk "{print \$2,\$3,\$4,\$6}"; done
cp bundle-diag/run121.sh $D/script.sh
cd $OUT && tar czf run121.tgz run121 && rm -rf run121
