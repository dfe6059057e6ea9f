#!/usr/bin/env bash
# Rung 15 (fp32, 3×TF32) nn and tn at 4096³ on the final code: the named barrier as LLVM's
# intrinsic moved tn from 239 to 241 registers; three processes, timed in turn with cuBLAS SGEMM.
set -u
cd bundle-ab && gunzip -kf rgemm-now.gz && chmod +x rgemm-now && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run97; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do
  RGEMM_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo final) timeout 100 bundle-ab/rgemm-now bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn --iters 10 --out /tmp/r97/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r97/p$i/results.json $D/p$i.json
done
cp bundle-diag/run97.sh $D/script.sh
grep -h "raw" $D/p*.log | grep -v "^ *[0-9.]* s" | head -12
