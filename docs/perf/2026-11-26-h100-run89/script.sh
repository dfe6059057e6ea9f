#!/usr/bin/env bash
# A/B/C: rung 14's persistent TMA-store kernel with its two consumer warpgroups together (base,
# commit b6d6148) and with warpgroup 0 starting 1 or 2 K-tiles after warpgroup 1 (lag1, lag2), so
# that one warpgroup's epilogue may overlap the other's wgmmas. Checks, then processes
# alternating, timed in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base lag1 lag2; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run89; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
P=bgemm_14_wgmma_tma_128x256x64_s4
{
for v in lag1 lag2; do
  B=bundle-ab/rgemm-$v
  timeout 90 $B check --kernel ${P}_persistent_tmast --m 1000 --n 1000 --k 1000; echo "$v rc=$?"
  timeout 60 $B check --kernel ${P}_persistent_tmast --m 264 --n 3000 --k 64 --batch 3 --beta 0; echo "$v rc=$?"
  timeout 60 $B check --kernel ${P}_streamk_tmast --m 3072 --n 3072 --k 1000; echo "$v rc=$?"
  timeout 60 $B check --kernel ${P}_persistent_tmast_nt --m 129 --n 8 --k 64; echo "$v rc=$?"
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base lag1 lag2; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 120 bundle-ab/rgemm-$v bench --kernel ${P}_persistent_tmast --sizes 4096,8192,4096x4096x1024 --iters 20 --out /tmp/r89/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r89/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run89.sh $D/script.sh
cd $OUT && tar czf run89.tgz run89
