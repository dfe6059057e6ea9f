#!/usr/bin/env bash
# Run 142 (commit in bundle/COMMIT): every GPU test, with compute-sanitizer at the same time on the
# new entries: rung 11 without a producer warp (`_wa_lc`: 8 × 8, 8 × 16, 16 × 8 thread tiles) and
# rung 14's narrow TMA-store tiles for A stored K×M (64 × 128 s8, 64 × 64 s12, `tn` and `tt`).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run142; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
(OUT=$D/tests timeout 290 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt) &
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_11_tma_128x256x32_w64x64_t8x16_s4_wa_lc:nn sgemm_11_tma_128x256x32_w64x64_t16x8_s4_wa_lc:nn sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_lc:nn \
         bgemm_14_wgmma_tma_64x128x64_s8_tmast_tn:tn bgemm_14_wgmma_tma_64x128x64_s8_tmast_tt:tt bgemm_14_wgmma_tma_64x64x64_s12_tmast_tn:tn bgemm_14_wgmma_tma_64x64x64_s12_tmast_tt:tt; do
  IFS=: read -r name layout <<<"$k"
  for tool in memcheck racecheck synccheck initcheck; do
    for s in "160 264 296 0" "136 104 72 0.5"; do jobs+=("$tool $name $layout $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | timeout 280 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --beta $6 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 beta $6 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
wait
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
cp bundle-diag/run142.sh $D/script.sh
cut -c1-170 $D/sanitize.txt | grep -v "rc=0" | head; echo "sanitize ok: $(grep -c "rc=0" $D/sanitize.txt) of $(wc -l < $D/sanitize.txt)"; cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
cd $OUT && tar czf run142.tgz run142 && rm -rf run142
