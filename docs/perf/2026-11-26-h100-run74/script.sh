#!/usr/bin/env bash
# Small square-ish products in bf16 and f16: the 64 × 128 tile with a ring of 8 stages (pair
# stores, or the copy engine's stores) against the 4-stage tile the table picks at 1000³; checks,
# then three processes timed in turn with the best cuBLAS.
set -u
cd bundle-ab && gunzip -kf rgemm-s8.gz && chmod +x rgemm-s8 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run74; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-s8
{
for t in bgemm hgemm; do for k in ${t}_14_wgmma_tma_64x128x64_s8_pairs ${t}_14_wgmma_tma_64x128x64_s8_tmast; do
  timeout 60 $B check --kernel $k --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 130 --n 264 --k 1000 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 67 --n 136 --k 72 --ldc 140; echo "rc=$?"
done; done
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool $B check --kernel bgemm_14_wgmma_tma_64x128x64_s8_pairs --kernel bgemm_14_wgmma_tma_64x128x64_s8_tmast --m 130 --n 264 --k 1000 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks.txt 2>&1
S=1000,1024,768,1536,1000x1000x4000,2048x1024x1024
for i in 1 2 3; do for t in bgemm hgemm; do
  s=$SECONDS
  timeout 100 $B bench --kernel ${t}_14_wgmma_tma_64x128x64_s4_pairs --kernel ${t}_14_wgmma_tma_64x128x64_s8_pairs --kernel ${t}_14_wgmma_tma_64x128x64_s8_tmast --kernel ${t}_14_wgmma_tma_128x128x64_s6 --sizes $S --iters 20 --out /tmp/r74/$t-p$i > $D/$t-p$i.log 2>&1
  echo "$t p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r74/$t-p$i/results.json $D/$t-p$i.json
done; done
cp bundle-diag/run74.sh $D/script.sh
