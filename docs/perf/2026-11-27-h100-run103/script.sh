#!/usr/bin/env bash
# Run 103 (commit f694eb7): rung 15's raw and split-ahead kernels, nn and tn, 4096³ and 8192³, five
# processes timed in turn with cuBLAS (base); alternating with each, a binary whose split of A
# walks the row tiles last to first (rev: the rows the product's first tiles read would still be
# in L2), 4096³ only.
set -u
cd bundle-ab && for b in base rev; do gunzip -kf rgemm-$b.gz && chmod +x rgemm-$b; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=f694eb7
D=$OUT/run103; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
F=sgemm_15_tf32x3_128x128x32_s4
for i in 1 2 3 4 5; do
  timeout 80 bundle-ab/rgemm-base bench --kernel ${F}_raw --kernel ${F}_presplit --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --sizes 4096,4096:tn,8192,8192:tn --iters 10 --out /tmp/r103/f32-p$i > $D/f32-p$i.log 2>&1
  echo "base p$i rc=$?" >> $D/rc.txt; cp /tmp/r103/f32-p$i/results.json $D/f32-p$i.json
  timeout 40 bundle-ab/rgemm-rev bench --kernel ${F}_raw --kernel ${F}_presplit_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r103/rev-p$i > $D/rev-p$i.log 2>&1
  echo "rev p$i rc=$?" >> $D/rc.txt; cp /tmp/r103/rev-p$i/results.json $D/rev-p$i.json
done
cat $D/rc.txt
for f in $D/f32-p*.log $D/rev-p*.log; do echo "$(basename $f) $(grep -E "s4_(raw|presplit|raw_tn|presplit_tn)  " $f | grep -v skipped | awk '{printf "%s %s %s | ", substr($1,30), $3, $5}')"; done
cp bundle-diag/run103.sh $D/script.sh
cd $OUT && tar czf run103.tgz run103 && rm -rf run103
