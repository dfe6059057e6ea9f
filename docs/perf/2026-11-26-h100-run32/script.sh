#!/usr/bin/env bash
# A/B/C: rung 15 at HEAD (a), with trunc(x) stored as the transposing split's high part and R's
# addresses one per value (b), and b with the refill of K-tile kt-2's stage asked for at kt,
# before the wait (c); processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in a b c; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run32; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3; do for v in a b c; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --kernel ${F}_nt --kernel ${F}_tt --sizes 4096,8192,4096:tn,4096:nt,4096:tt --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
done; done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run32.tgz run32
