#!/usr/bin/env bash
# Run 196: the evaluation suite in f16 with the untuned automatic choice (its first f16 run).
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run196; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=545629786f18
S=$SECONDS; timeout 500 quick/rgemm bench --suite eval --dtype f16 --iters 10 --out $D/eval-f16 > $D/eval-f16.log 2>&1; echo "eval f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
rm -f $D/eval-f16/chart.* ; cat $D/rc.txt; tail -16 $D/eval-f16.log
cd $OUT && tar czf run196.tgz run196 && rm -rf run196
