#!/usr/bin/env bash
# Stream-K heads and tails over a last round more than half full (4096³: 116 tiles on 132 SMs,
# the 16 idle SMs taking 8 tails of 7 K-tiles each): checks, sanitizers, then the persistent and
# stream-K kernels timed in turn.
set -u
cd bundle-ab && gunzip -kf rgemm-ht.gz && chmod +x rgemm-ht && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run85; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-ht
P=bgemm_14_wgmma_tma_128x256x64_s4
H=hgemm_14_wgmma_tma_128x256x64_s4
{
for k in ${P}_streamk_tmast ${H}_streamk_tmast; do
  timeout 30 $B check --kernel $k --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
  timeout 30 $B check --kernel $k --m 1280 --n 2560 --k 2056 --beta 0.5; echo "rc=$?"
  timeout 30 $B check --kernel $k --m 1280 --n 2560 --k 1024 --batch 2 --beta 0; echo "rc=$?"
done
timeout 30 $B check --kernel ${P}_streamk_tmast_nt --layout nt --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
timeout 30 $B check --kernel ${P}_streamk_tmast_tn --layout tn --m 6144 --n 6144 --k 2048 --beta 0; echo "rc=$?"
timeout 30 $B check --kernel ${P}_streamk_tmast_tt --layout tt --m 1280 --n 2560 --k 2048 --beta 0; echo "rc=$?"
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool $B check --kernel ${P}_streamk_tmast --m 1280 --n 2560 --k 2048 --beta 0 2>&1 | grep -E "SUMMARY|passed|hazard|Race|Error|nvjet|gemm_14" | head -8; echo "$tool"
done
} > $D/checks.txt 2>&1
echo "checks done $SECONDS s" >> $D/times.txt
for i in 1 2 3; do
  s=$SECONDS
  timeout 110 $B bench --kernel ${P}_persistent_tmast --kernel ${P}_streamk_tmast --sizes 4096,8192,6144,7168,4096x4096x8192,3072 --iters 10 --out /tmp/r82/b$i > $D/bf16-p$i.log 2>&1
  echo "bf16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r82/b$i/results.json $D/bf16-p$i.json
done
for i in 1 2; do
  s=$SECONDS
  timeout 60 $B bench --kernel ${H}_persistent_tmast --kernel ${H}_streamk_tmast --sizes 4096,8192 --iters 10 --out /tmp/r82/h$i > $D/f16-p$i.log 2>&1
  echo "f16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r82/h$i/results.json $D/f16-p$i.json
done
cp bundle-diag/run85.sh $D/script.sh
cd $OUT && tar czf run85.tgz run85
