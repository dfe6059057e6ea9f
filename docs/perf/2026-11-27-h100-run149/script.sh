#!/usr/bin/env bash
# Run 149 (commit in bundle/COMMIT): every GPU test; compute-sanitizer (memcheck, racecheck) on
# rungs 5-11 (thread-tile loops now `unroll_short!`) and rung 14's persistent kernels (fewer
# blocks: sizes of two rounds); then ten processes of `rgemm bench` of the persistent TMA-store
# bf16 kernel at 4096³ and 8192³, timed in turn, now with the ratio round by round.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run149; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
(OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt) &
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
jobs=()
for k in sgemm_05_blocktile_2d_128x128x8_t8x8 sgemm_06_vectorized_128x128x8_t8x8 sgemm_07_transposed_a_128x128x8_t8x8 sgemm_08_double_buffer_128x128x8_t8x8_s2 \
         sgemm_09_warptile_128x256x8_w64x64_t8x16_s2 sgemm_10_cp_async_128x128x16_w64x32_t8x8_s4_sw sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa; do
  for tool in memcheck racecheck; do
    for s in "260 200 40 0" "136 104 72 0.5"; do jobs+=("$tool $k nn $s"); done
  done
done
for k in bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast; do
  for tool in memcheck racecheck synccheck; do
    for s in "2176 2320 136 0" "1160 1800 72 0.5"; do jobs+=("$tool $k nn $s"); done
  done
done
printf '%s\n' "${jobs[@]}" | timeout 300 xargs -P 3 -L 1 bash -c 'tool=$0; k=$1; l=$2; log='$D'/$tool-$k-$3.log; compute-sanitizer --tool $tool --error-exitcode 3 bundle/rgemm check --kernel $k --layout $l --m $3 --n $4 --k $5 --beta $6 --batch 2 > $log 2>&1; echo "$tool $k $l $3x$4x$5 beta $6 rc=$? $(grep -hE "(ERROR|RACECHECK) SUMMARY" $log | tr "\n" " ") $(grep -h "passed," $log | tr "\n" " ")"' > $D/sanitize.txt
wait
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
tar czf $D/sanitize-logs.tgz -C $D $(cd $D && ls *check-*.log) && rm -f $D/*check-*.log
K=bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast
for i in 1 2 3 4 5 6 7 8 9 10; do
  [ $SECONDS -gt 560 ] && break
  S=$SECONDS
  timeout 40 bundle/rgemm bench --dtype bf16 --kernel $K --sizes 4096,8192 --iters 30 --out /tmp/b$i > $D/bf16-p$i.log 2>&1; echo "p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
  cp /tmp/b$i/results.json $D/bf16-p$i.json 2>/dev/null
done
cp bundle-diag/run149.sh $D/script.sh
cut -c1-170 $D/sanitize.txt | grep -v "rc=0" | head; echo "sanitize ok: $(grep -c "rc=0" $D/sanitize.txt) of $(wc -l < $D/sanitize.txt)"
cat $D/rc.txt; grep "==" $D/tests-summary.txt | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5
grep -h -A3 "cuBLAS best" $D/bf16-p1.log | head -8
cd $OUT && tar czf run149.tgz run149 && rm -rf run149
