#!/usr/bin/env bash
# Run 201: the evaluation suite in bf16 with the dot-product kernel reading chunks of K by
# vectors (runs 198 and 200), untuned (the automatic choice and the cost model as fitted in
# run 183), beside the best cuBLAS in the same run.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run201; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm RGEMM_COMMIT=a0a1fbe4642b
R=quick/rgemm
S=$SECONDS; timeout 540 $R bench --suite eval --dtype bf16 --iters 10 --out $D/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cat $D/rc.txt
cd $OUT && tar czf run201.tgz run201 && rm -rf run201
