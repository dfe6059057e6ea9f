#!/usr/bin/env bash
# Run 161 (commit in bundle/COMMIT): what run 160's harness missed (the CLI's tests need
# RGEMM_BIN; `run` has no --warmup), then the evaluation suite in f32.
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run161; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 150 bundle/tests/cli --include-ignored --test-threads 4 > $D/test-cli.log 2>&1; echo "test cli rc $? $((SECONDS-S)) s" >> $D/rc.txt
for tool in memcheck racecheck; do
  S=$SECONDS; timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel best-bf16 --m 3 --n 3 --k 352792 --iters 2 > $D/$tool-dot.log 2>&1; echo "$tool dot rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $R run --kernel best-bf16 --m 71 --n 129 --k 62109 --layout nt --iters 2 > $D/memcheck-tail.log 2>&1; echo "memcheck tail rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 300 $R bench --suite eval --dtype f32 --iters 10 --out /tmp/eval-f32 > $D/eval-f32.log 2>&1; echo "eval f32 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-f32/results.json $D/eval-f32.json 2>/dev/null
cp bundle-diag/run161.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head -20
for f in $D/memcheck-dot.log $D/racecheck-dot.log $D/memcheck-tail.log; do tail -n 2 $f; done
grep -B2 -A14 "per class" $D/eval-f32.log | head -24
cd $OUT && tar czf run161.tgz run161 && rm -rf run161
