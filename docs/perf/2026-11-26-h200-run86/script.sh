#!/usr/bin/env bash
# Run 86: every GPU test on the final bundle of this stop, and the automatic plan at three sizes
# the width rule decides (3840³ now takes the 256-wide stream-K kernel).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run86; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 330 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for s in 3840 3072 4800; do
  timeout 90 bundle/rgemm run --kernel best-bf16 --m $s --n $s --k $s > $D/best-$s.log 2>&1; echo "best $s rc=$?" >> $D/rc.txt
done
cp bundle/COMMIT $D/; cp bundle-diag/run86.sh $D/script.sh
cd /tmp && tar czf $OUT/run86.tgz run86
