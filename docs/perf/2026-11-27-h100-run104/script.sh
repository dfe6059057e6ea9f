#!/usr/bin/env bash
# Run 104 (commit f694eb7): rung 15 tn, raw against A split ahead, on shapes other than 4096³ (thin
# N, thin M, mid sizes): where the split's extra pass over A pays and where it does not. Two
# processes, timed in turn with cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-base.gz && chmod +x rgemm-base && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=f694eb7
D=$OUT/run104; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
for i in 1 2; do
  timeout 100 bundle-ab/rgemm-base bench --kernel ${F}_raw_tn --kernel ${F}_presplit_tn --sizes 4096x16x4096:tn,4096x128x4096:tn,16x4096x4096:tn,128x4096x4096:tn,2048x4096x4096:tn,1024x1024x1024:tn,2048x2048x2048:tn --iters 10 --out /tmp/r104/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/rc.txt; cp /tmp/r104/p$i/results.json $D/p$i.json
done
cat $D/rc.txt
grep -E "^[0-9]+x|_tn  " $D/p*.log | grep -v skipped | awk '{print $1, $3, $5}'
cp bundle-diag/run104.sh $D/script.sh
