#!/usr/bin/env bash
# Run 75: every GPU test on the committed bundle (the 8-stage 64 × 128 nn entries among the
# catalog's kernels), then the bf16 and f16 suites with the retuned 1000³ row.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run75; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
S=$SECONDS
timeout 135 $R bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 135 $R bench --suite real --dtype f16 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run75.sh $D/script.sh
cd /tmp && tar czf $OUT/run75.tgz run75
