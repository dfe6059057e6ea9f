#!/usr/bin/env bash
# Rung 11's `_wa` kernels (the only users of sync_warp) with bar.warp.sync as LLVM's convergent
# intrinsic: checks at odd sizes, 4096³, a batch, and synccheck/racecheck.
set -u
cd bundle-ab && gunzip -kf rgemm-ws.gz && chmod +x rgemm-ws && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run96; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
R=bundle-ab/rgemm-ws
{
for k in sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa sgemm_11_tma_128x128x32_w64x32_t8x8_s3_wa; do
  timeout 90 $R check --kernel $k --m 1001 --n 1000 --k 1003; echo "rc=$?"
  timeout 90 $R check --kernel $k --m 4096 --n 4096 --k 4096 --beta 0; echo "rc=$?"
  timeout 90 $R check --kernel $k --m 260 --n 136 --k 520 --batch 3; echo "rc=$?"
done
k=sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa
timeout 120 compute-sanitizer --tool synccheck $R check --kernel $k --m 264 --n 136 --k 200 2>&1 | tail -2; echo "synccheck rc=$?"
timeout 120 compute-sanitizer --tool racecheck $R check --kernel $k --m 264 --n 136 --k 200 2>&1 | tail -2; echo "racecheck rc=$?"
} > $D/checks.txt 2>&1
cp bundle-diag/run96.sh $D/script.sh
cat $D/checks.txt | grep -E "PASS|FAIL|rc=|SUMMARY"
