#!/usr/bin/env bash
# A/B: rung 15 at HEAD~1 (base, tn's S transposed by the split) against tn's S gathered by every
# thread with 4-byte cp.async into the K-major tile (gather). Checks and sanitizers of the gather
# kernel, then processes alternating, in turn with the best cuBLAS.
set -u
cd bundle-ab && for v in base gather; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run88; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-gather
k=${F}_tn
if [ "${PART:-ab}" = checks ]; then
{
  timeout 90 $B check --kernel $k --layout tn --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 135 --n 260 --k 203 --lda 140; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 7 --n 9 --k 33; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout tn --m 129 --n 4 --k 1 --lda 132; echo "rc=$?"
  timeout 90 $B check --kernel $k --layout tn --m 4096 --n 4096 --k 4096; echo "rc=$?"
  for tool in memcheck synccheck racecheck initcheck; do
    timeout 120 compute-sanitizer --tool $tool $B check --kernel $k --layout tn --m 136 --n 260 --k 200 --lda 140 2>&1 | tail -3; echo "$tool rc=$?"
  done
} > $D/checks.txt 2>&1
else
for i in 1 2 3; do for v in base gather; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 120 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn,8192:tn --iters 10 --out /tmp/r88/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r88/$v-p$i/results.json $D/$v-p$i.json
done; done
fi
cp bundle-diag/run88.sh $D/script.sh
cd $OUT && tar czf run88-${PART:-ab}.tgz run88 && rm -rf run88
