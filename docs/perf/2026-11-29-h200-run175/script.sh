#!/usr/bin/env bash
# Run 175 (commit in bundle/COMMIT): rung 14 stores a bare 16-bit C through the copy engine
# (rounded as it is staged). 1. every test, GPU ones included; 2. the four sanitizers on the new
# path (bf16 and f16 C, batched, tails); 3. bare bf16 C against cuBLASLt with bf16 C: the
# epilogue issue's squares and LLM shape, and its output-bound batches (run 169's sizes).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run175; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; OUT=$D/tests RGEMM_TEST_JOBS=8 timeout 330 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for tool in memcheck racecheck synccheck initcheck; do
  for c in "bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt --layout nt --m 200 --n 264 --k 192 --batch 2 --out-dtype bf16" "hgemm_14_wgmma_tma_64x128x64_s8_tmast_tn --layout tn --m 136 --n 72 --k 128 --out-dtype f16 --alpha 0.5" "bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast --m 130 --n 392 --k 64 --out-dtype bf16"; do
    S=$SECONDS; timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $c --iters 1 > /tmp/san.log 2>&1; rc=$?
    echo "$tool rc $rc $((SECONDS-S)) s: $c | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1) | $(grep '^check' /tmp/san.log | cut -c1-40)" >> $D/sanitize.txt
  done
done
S=$SECONDS; timeout 120 $R bench --kernel best-bf16 --iters 20 --sizes 4096x4096x4096:nt,8192x8192x8192:nt,4096x11008x4096:nt,4096x4096x4096 --out-dtype bf16 --out /tmp/b-sq > $D/bench-squares.log 2>&1; echo "bench squares rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/b-sq/results.json $D/bench-squares.json 2>/dev/null
S=$SECONDS; timeout 60 $R bench --kernel best-bf16 --iters 20 --sizes 64x512x512x128:nt,96x256x256x64,32x1024x1024x128:nt,64x512x512x64:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/b-batched/results.json $D/bench-batched.json 2>/dev/null
cp bundle-diag/run175.sh $D/script.sh
cat $D/rc.txt; grep -h "passed\|failed\|FAILED\|panicked" $D/tests.log | tail -8; cat $D/sanitize.txt | cut -c1-200
grep -v -E "^ *[0-9.]+ s +[0-9]+/|^$|bandwidth|wrote|warning|chart" $D/bench-squares.log $D/bench-batched.log | cut -c1-170 | head -40
cd $OUT && tar czf run175.tgz run175 && rm -rf run175
