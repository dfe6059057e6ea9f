#!/usr/bin/env bash
# Run 135 (commit in bundle/COMMIT): the f32 dispatch table measured again (`rgemm tune --suite
# real --dtype f32`, the repository's table as the start, so the bf16 rows stay), then the f32
# suite with that table, after the split-ahead refills in turn (run 133).
set -u
rm -rf bundle; tar xzf bundle-diag/bundle-min.tgz
D=$OUT/run135; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 300 bundle/rgemm tune --suite real --dtype f32 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune rc=$?" >> $D/rc.txt
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 180 bundle/rgemm bench --suite real --dtype f32 --iters 10 --out $D/suite-f32 > $D/suite-f32.log 2>&1
echo "suite rc=$?" >> $D/rc.txt
rm -f $D/suite-f32/chart.png
cp bundle-diag/run135.sh $D/script.sh
cat $D/rc.txt; grep -A40 "fastest plan" $D/tune-f32.log | head -45; tail -4 $D/suite-f32.log
cd $OUT && tar czf run135.tgz run135 && rm -rf run135
