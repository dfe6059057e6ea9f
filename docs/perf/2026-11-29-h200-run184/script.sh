#!/usr/bin/env bash
# Run 184 (commit 31dfe0d: the cost model fitted by `rgemm fit`, the decode rule narrowed): the
# evaluation suite in bf16 with the untuned automatic choice, then the library's GPU tests.
set -u
rm -rf quick; xz -dc quick.txz | tar xf -
D=$OUT/run184; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
S=$SECONDS; timeout 360 quick/rgemm bench --suite eval --dtype bf16 --iters 10 --out /tmp/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-bf16/results.json $D/eval-bf16.json 2>/dev/null
S=$SECONDS; timeout 150 quick/library --include-ignored --test-threads 4 > $D/test-library.log 2>&1; echo "test library rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run184.sh $D/script.sh
cat $D/rc.txt; grep "test result" $D/test-library.log; grep -A14 "per class" $D/eval-bf16.log | head -16
cd $OUT && tar czf run184.tgz run184 && rm -rf run184
