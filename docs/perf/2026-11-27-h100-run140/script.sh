#!/usr/bin/env bash
# Run 140 (commit in bundle/COMMIT): `rgemm tune --cases` of f32 shapes the suite lacks (thin
# tn and nn, the tn rows measured by hand in run 130), every candidate plan, K split included,
# merged into the repository's table.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run140; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp dispatch/h100.tsv $D/dispatch.tsv
timeout 150 bundle/rgemm tune --dtype f32 --cases 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,1024x1024x1024:tn,2048x2048x2048:tn,2048x4096x4096:tn,4096x16x4096,4096x128x4096 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune rc=$?" >> $D/rc.txt
cp bundle-diag/run140.sh $D/script.sh
cat $D/rc.txt; grep -A12 "fastest plan" $D/tune-f32.log; diff dispatch/h100.tsv $D/dispatch.tsv | cut -c1-200
cd $OUT && tar czf run140.tgz run140 && rm -rf run140
