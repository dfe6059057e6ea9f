#!/usr/bin/env bash
# A/B: rung 15's loop as before (a) and with the stage released and refilled before the flush (b),
# alternating processes, in turn with the best cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-a.gz rgemm-b.gz && chmod +x rgemm-a rgemm-b && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run30; mkdir -p $D
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do for v in a b; do
  RGEMM_COMMIT=$v timeout 120 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --sizes 4096,8192,4096:tn,4096:nt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
done; done
cd /tmp && tar czf $OUT/run30.tgz run30
