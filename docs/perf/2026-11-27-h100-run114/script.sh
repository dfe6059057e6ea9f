#!/usr/bin/env bash
# Run 114 (commit in bundle/COMMIT): how long the first load of the module takes on a fresh
# machine (the driver compiles the PTX of every entry and caches the result), against the second.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run114; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ls -d ~/.nv/ComputeCache 2>/dev/null > $D/cache-before.txt; du -sh ~/.nv/ComputeCache 2>/dev/null >> $D/cache-before.txt
# The machine may have loaded the module before (a run before this one): the cache is emptied.
rm -rf ~/.nv/ComputeCache
for i in 1 2 3; do
  s=$(date +%s%N); timeout 280 bundle/rgemm check --kernel sgemm_15_tf32x3_128x128x32_s4_raw --m 128 --n 128 --k 128 > $D/check-$i.log 2>&1; rc=$?; e=$(date +%s%N)
  echo "check $i rc=$rc ms=$(( (e - s) / 1000000 ))" >> $D/times.txt
done
du -sh ~/.nv/ComputeCache 2>/dev/null > $D/cache-after.txt
cat $D/times.txt $D/cache-before.txt $D/cache-after.txt
cp bundle-diag/run114.sh $D/script.sh
cd $OUT && tar czf run114.tgz run114 && rm -rf run114
