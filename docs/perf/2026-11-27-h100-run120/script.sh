#!/usr/bin/env bash
# Run 120 (commit in bundle/COMMIT): the real-shape suite for bf16 and f32 with the built-in
# dispatch table, on the code of today (programmatic dependent launches, the split ahead for
# `tn`, per-entry modules), after one untimed check of each type's 4096³ kernels.
set -u
tar xzf bundle.tgz
D=$OUT/run120; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
timeout 60 bundle/rgemm check --kernel best-bf16 --m 256 --n 256 --k 256 > $D/warm.log 2>&1
timeout 60 bundle/rgemm check --kernel best --m 256 --n 256 --k 256 >> $D/warm.log 2>&1
OUT=$D timeout 540 bash bundle/library.sh suite > $D/library.log 2>&1; echo "suite rc=$?" >> $D/rc.txt
cat $D/rc.txt; tail -20 $D/library.log
cp bundle-diag/run120.sh $D/script.sh
cd $OUT && tar czf run120.tgz run120 && rm -rf run120
