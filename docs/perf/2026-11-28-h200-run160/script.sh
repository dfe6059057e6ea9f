#!/usr/bin/env bash
# Run 160 (commit in bundle/COMMIT): the cost model's choice, split-K with a tail and the
# dot-product kernel, first on a GPU. 1. the library's split tests (slices with a tail in every
# layout and type, the modelled plans on dot, deep-K and narrow shapes), the CLI's GPU tests
# (check/bench with epilogues), the epilogue and launch tests; 2. memcheck and racecheck on a
# dot-product plan with a tail, memcheck on a tile plan with a tail; 3. three modelled plans run
# and timed (the model's line beside the measurement); 4. the evaluation suite in bf16.
# (Run 161: the same suite in f32, `--dtype f32`, timeout 480.)
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run160; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm
S=$SECONDS; timeout 150 bundle/tests/library --include-ignored --test-threads 2 split > $D/test-library-split.log 2>&1; echo "test library split rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in cli epilogue launches; do
  S=$SECONDS; timeout 120 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for tool in memcheck racecheck; do
  S=$SECONDS; timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel best-bf16 --m 3 --n 3 --k 352792 --iters 2 --warmup 1 > $D/$tool-dot.log 2>&1; echo "$tool dot rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $R run --kernel best-bf16 --m 71 --n 129 --k 62109 --layout nt --iters 2 --warmup 1 > $D/memcheck-tail.log 2>&1; echo "memcheck tail rc $? $((SECONDS-S)) s" >> $D/rc.txt
for args in "--m 3 --n 3 --k 352792" "--m 71 --n 129 --k 62109 --layout nt" "--m 40 --n 32 --k 121352 --layout tt"; do
  echo "== $args" >> $D/runs.log
  timeout 60 $R run --kernel best-bf16 $args --iters 20 >> $D/runs.log 2>&1; echo "rc $?" >> $D/runs.log
done
S=$SECONDS
timeout 330 $R bench --suite eval --dtype bf16 --iters 10 --out /tmp/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-bf16/results.json $D/eval-bf16.json 2>/dev/null
cp bundle-diag/run160.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head -20
grep -E "^==|^best|^kernel|^model|^ratio|^check|^rc" $D/runs.log | cut -c1-200
tail -2 $D/memcheck-dot.log $D/racecheck-dot.log $D/memcheck-tail.log
grep -B2 -A14 "per class" $D/eval-bf16.log | head -24; tail -4 $D/eval-bf16.log
cd $OUT && tar czf run160.tgz run160 && rm -rf run160
