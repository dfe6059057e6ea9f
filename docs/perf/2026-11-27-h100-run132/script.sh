#!/usr/bin/env bash
# Run 132 (commit in bundle/COMMIT): the library's tests on the GPU after `Plan::run` learned to
# adapt automatic plans to misaligned starts: every test of tests/library.rs, the GPU ones
# included (the API proptest, layouts, staging, split-K, split ahead, the new start tests).
set -u
rm -rf bundle; tar xzf bundle-diag/bundle-lib.tgz
D=$OUT/run132; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
timeout 500 bundle/tests/library --include-ignored --test-threads=1 > $D/library.log 2>&1
echo "library rc=$?" >> $D/rc.txt
cp bundle-diag/run132.sh $D/script.sh
cat $D/rc.txt; grep -E "^test |test result" $D/library.log; grep -A15 "panicked" $D/library.log | head -30
cd $OUT && tar czf run132.tgz run132 && rm -rf run132
