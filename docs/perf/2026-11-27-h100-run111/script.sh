#!/usr/bin/env bash
# Run 111: every launch of the module as a programmatic dependent launch (pdl) against the same
# code launched ordinarily (nopdl: the attribute left out; the kernels' griddepcontrol
# instructions then do nothing), in alternating processes: `rgemm run --kernel best` (the
# automatic choice, timed in turn with cuBLAS) on shapes whose plans have a launch before the
# product (split ahead, staged copies) or after it (split-K's sum).
set -u
cd bundle-ab && for b in pdl nopdl; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=${COMMIT:-wip}
D=$OUT/run111; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
CASES="best:16:4096:4096:nt best:128:4096:4096:nt best:4096:4096:4096:tn best:128:4096:4096:tn best:4095:4095:4095:nn best:333:4099:1021:nn best-bf16:16:4096:14336:nt best-bf16:333:4099:1021:nn"
for i in 1 2 3; do
  for b in pdl nopdl; do
    for c in $CASES; do
      IFS=: read -r kern m n k lay <<< "$c"
      echo "== $b p$i $c" >> $D/$b.log
      timeout 30 bundle-ab/rgemm-$b run --kernel $kern --m $m --n $n --k $k --layout $lay --iters 50 >> $D/$b.log 2>&1
      echo "rc=$?" >> $D/$b.log
    done
  done
done
grep -c "rc=0" $D/pdl.log $D/nopdl.log
for b in pdl nopdl; do echo "-- $b"; grep -E "^== |cuBLAS|%" $D/$b.log | head -80; done | head -150
cp bundle-diag/run111.sh $D/script.sh
cd $OUT && tar czf run111.tgz run111 && rm -rf run111
