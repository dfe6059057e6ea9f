#!/usr/bin/env bash
# The width rule between measured rows (bf16: 192- and 256-wide persistent tiles, stream-K, and
# what the automatic choice runs), the f16 128 × 192 twins against cuBLAS, and the f16 8-stage
# 64 × 128 twins under the sanitizers.
set -u
cd bundle-ab && gunzip -kf rgemm-head.gz && chmod +x rgemm-head && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run83; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
B=bundle-ab/rgemm-head
P=bgemm_14_wgmma_tma
H=hgemm_14_wgmma_tma
{
for k in ${H}_64x128x64_s8_pairs ${H}_64x128x64_s8_tmast; do
  for tool in memcheck racecheck synccheck; do
    timeout 60 compute-sanitizer --tool $tool $B check --kernel $k --m 200 --n 392 --k 1000 --beta 0 2>&1 | grep -E "SUMMARY|passed|Race|hazard|nvjet|gemm" | head -8; echo "$k $tool"
  done
done
} > $D/sanitizers.txt 2>&1
echo "sanitizers done $SECONDS s" >> $D/times.txt
S=1760,2600,3500,3840,4800
for s in 1760 2600 3500 3840 4800; do
  timeout 30 $B run --kernel best-bf16 --m $s --n $s --k $s > $D/best-$s.log 2>&1; echo "best $s rc=$?" >> $D/times.txt
done
for i in 1 2 3; do
  s=$SECONDS
  timeout 120 $B bench --kernel ${P}_128x192x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_persistent_tmast --kernel ${P}_128x256x64_s4_streamk_tmast --sizes $S --iters 10 --out /tmp/r83/w$i > $D/w-p$i.log 2>&1
  echo "w p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r83/w$i/results.json $D/w-p$i.json
done
for i in 1 2; do
  s=$SECONDS
  timeout 100 $B bench --kernel ${H}_128x192x64_s4_tmast --kernel ${H}_128x192x64_s4_persistent_tmast --kernel ${H}_128x256x64_s4_persistent_tmast --sizes 1536,2304,3072,1536x1536x4096 --iters 10 --out /tmp/r83/h$i > $D/f16-p$i.log 2>&1
  echo "f16 p$i rc=$? $((SECONDS - s)) s" >> $D/times.txt
  cp /tmp/r83/h$i/results.json $D/f16-p$i.json
done
cp bundle-diag/run83.sh $D/script.sh
cd $OUT && tar czf run83.tgz run83
