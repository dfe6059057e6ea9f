#!/usr/bin/env bash
# Run 110 (commit in bundle/COMMIT): every GPU test after the host's helper launches went through
# the function cache and one batch loop, and the API took A at any start for split-ahead kernels;
# then compute-sanitizer memcheck of a batched split-ahead check with A at an odd lda.
set -u
tar xzf bundle.tgz
D=$OUT/run110; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 330 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
F=sgemm_15_tf32x3_128x128x32_s4
compute-sanitizer --tool memcheck --error-exitcode 3 bundle/rgemm check --kernel ${F}_presplit_tn --layout tn --m 301 --n 264 --k 257 --lda 303 --batch 3 > $D/memcheck.log 2>&1; echo "memcheck tn rc=$?" >> $D/rc.txt
compute-sanitizer --tool memcheck --error-exitcode 3 bundle/rgemm check --kernel ${F}_presplit --m 150 --n 132 --k 97 --lda 101 --batch 2 >> $D/memcheck.log 2>&1; echo "memcheck nn rc=$?" >> $D/rc.txt
cat $D/rc.txt; grep "==" $D/tests.log | tail -4; grep -E "FAILED|failed|panicked" $D/tests.log | head -20; tail -3 $D/memcheck.log
cp bundle-diag/run110.sh $D/script.sh
cd $OUT && tar czf run110.tgz run110 && rm -rf run110
