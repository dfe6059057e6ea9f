#!/usr/bin/env bash
# Run 158 (commit in bundle/COMMIT): after run 157, batches through the epilogue pass summed per
# product. 1. the epilogue and launch tests (GPU tests included); 2. the two batched bf16-out
# products that failed in run 157, and a bf16-out 4096³; 3. the evaluation suite in bf16.
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run158; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm
for t in epilogue launches; do
  S=$SECONDS; timeout 120 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for args in "--m 512 --n 512 --k 128 --batch 64 --layout nt --out-dtype bf16" "--m 1024 --n 1024 --k 96 --batch 32 --layout nt --out-dtype bf16" "--m 96 --n 128 --k 64 --batch 3 --layout tt --beta 0.5 --out-dtype f16 --epilogue bias-gelu-aux"; do
  echo "== $args" >> $D/fused.log
  timeout 45 $R run --kernel best-bf16 $args --iters 30 >> $D/fused.log 2>&1; echo "rc $?" >> $D/fused.log
done
S=$SECONDS
timeout 330 $R bench --suite eval --dtype bf16 --iters 10 --out /tmp/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-bf16/results.json $D/eval-bf16.json 2>/dev/null
cp bundle-diag/run158.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head -20
grep -E "^==|^ratio|^check|^rc" $D/fused.log | cut -c1-160
grep -B2 -A14 "per class" $D/eval-bf16.log | head -24; tail -4 $D/eval-bf16.log
cd $OUT && tar czf run158.tgz run158 && rm -rf run158
