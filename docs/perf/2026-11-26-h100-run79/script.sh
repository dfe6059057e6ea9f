#!/usr/bin/env bash
# 128 × 192 tiles (wgmma n192; grid and persistent, TMA stores) against the 128 × 256 kernels at
# sizes that are multiples of 192: checks and sanitizers, then three processes timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-w192.gz && chmod +x rgemm-w192 && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run79; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-w192
P=bgemm_14_wgmma_tma
{
for k in ${P}_128x192x64_s4_tmast ${P}_128x192x64_s4_persistent_tmast; do
  timeout 60 $B check --kernel $k --m 1536 --n 1536 --k 1536 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 130 --n 392 --k 264 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --m 67 --n 200 --k 72 --ldc 204; echo "rc=$?"
done
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool $B check --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --m 260 --n 392 --k 264 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks.txt 2>&1
S=1536,2304,3072,4608,6144,1536x1536x4096,4096
for i in 1 2 3; do
  s=$SECONDS
  timeout 150 $B bench --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_tmast --kernel ${P}_128x256x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_streamk_tmast --sizes $S --iters 10 --out /tmp/r79/p$i > $D/w-p$i.log 2>&1
  echo "p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r79/p$i/results.json $D/w-p$i.json
done
cp bundle-diag/run79.sh $D/script.sh
