#!/usr/bin/env bash
# Run 183: the fitting suite's timings for the cost model (`rgemm tune --suite fit`): every
# candidate plan of each of its 172 cases timed in turn, L2 flushed, bf16 (this call) and f32
# (the next, run 184).
set -u
DT=${1:-bf16}; RUN=${2:-run183}
rm -rf quick; xz -dc quick.txz | tar xf -
D=$OUT/$RUN; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $D/gpu.txt
S=$SECONDS; timeout 540 quick/rgemm tune --suite fit --dtype $DT --iters 10 --json $D/fit-$DT.json > $D/tune.log 2>&1; echo "tune fit $DT rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run183.sh $D/script.sh
cat $D/rc.txt; tail -5 $D/tune.log
cd $OUT && tar czf $RUN.tgz $RUN && rm -rf $RUN
