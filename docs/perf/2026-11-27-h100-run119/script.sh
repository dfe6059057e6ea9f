#!/usr/bin/env bash
# Run 119 (commit in bundle/COMMIT): every GPU test with each entry loaded as a module of its own
# (and the helper entries launch-bounded), then compute-sanitizer memcheck and racecheck of the automatic plans with a launch
# before or after the product (split-K, staged copies, split ahead).
set -u
tar xzf bundle.tgz
D=$OUT/run119; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 480 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for tool in memcheck racecheck; do
  for c in "best --m 16 --n 512 --k 4096 --layout nt" "best --m 333 --n 409 --k 1021" "best --m 300 --n 264 --k 256 --layout tn --lda 301" "best-bf16 --m 16 --n 512 --k 14336 --layout nt" "best-bf16 --m 333 --n 409 --k 1021"; do
    compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $c > $D/$tool.tmp 2>&1; rc=$?
    echo "$tool [$c] rc=$rc $(grep -E 'SUMMARY|best is' $D/$tool.tmp | tr '\n' ' ')" >> $D/sanitize.txt
    cat $D/$tool.tmp >> $D/sanitize.log
  done
done
rm -f $D/*.tmp
cat $D/rc.txt; grep "==" $D/tests.log | tail -3; grep -E "FAILED|failed|panicked" $D/tests.log | head; cat $D/sanitize.txt
cp bundle-diag/run119.sh $D/script.sh
cd $OUT && tar czf run119.tgz run119 && rm -rf run119
