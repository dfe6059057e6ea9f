#!/usr/bin/env bash
# Run 141 (commit in bundle/COMMIT): `rgemm tune --cases` of thin shapes in the other layouts,
# f32 and bf16, merged into run 140's table.
set -u
rm -rf bundle; xz -dc bundle-diag/rgemm.txz | tar xf -
D=$OUT/run141; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
cp bundle-diag/dispatch-run140.tsv $D/dispatch.tsv
timeout 70 bundle/rgemm tune --dtype f32 --cases 4096x16x4096:nt,4096x128x4096:nt,4096x16x4096:tt,4096x128x4096:tt --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-f32.json > $D/tune-f32.log 2>&1
echo "tune f32 rc=$?" >> $D/rc.txt
timeout 70 bundle/rgemm tune --dtype bf16 --cases 4096x16x4096,4096x128x4096,4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1
echo "tune bf16 rc=$?" >> $D/rc.txt
cp bundle-diag/run141.sh $D/script.sh
cat $D/rc.txt; grep -h -A8 "fastest plan" $D/tune-*.log
cd $OUT && tar czf run141.tgz run141 && rm -rf run141
