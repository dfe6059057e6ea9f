#!/usr/bin/env bash
# A/B: rung 15 with the refill asked for before the wait (c) and with its wgmma descriptors
# encoded once per K-tile and offset (d); processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in c d; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run33; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do for v in c d; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --kernel ${F}_tt --sizes 4096,8192,4096:tn,4096:nt,4096:tt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
done; done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run33.tgz run33
