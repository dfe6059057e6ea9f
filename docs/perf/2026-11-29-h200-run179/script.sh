#!/usr/bin/env bash
# Run 179 (commit in bundle/COMMIT, the bundle of run 178): the evaluation suite in bf16 with the
# choice tuned on this GPU (`--tune-cache`, an empty cache at the start: every case is timed once
# as it is first planned, then benchmarked with the plan it kept), to set beside run 178's
# untuned choice; then the same suite again from the filled cache (no timing: the lookups alone).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run179; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm
S=$SECONDS; timeout 540 $R bench --suite eval --dtype bf16 --iters 10 --tune-cache $D/h200-eval.tune --out /tmp/eval-tuned > $D/eval-bf16-tuned.log 2>&1; echo "eval bf16 tuned rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-tuned/results.json $D/eval-bf16-tuned.json 2>/dev/null
cp bundle-diag/run179.sh $D/script.sh
cat $D/rc.txt; wc -l $D/h200-eval.tune
grep -A14 "per class" $D/eval-bf16-tuned.log | head -16
cd $OUT && tar czf run179.tgz run179 && rm -rf run179
