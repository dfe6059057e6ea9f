#!/usr/bin/env bash
# Run 177 (commit in bundle/COMMIT): a column bias and ReLU applied as rung 14 stages C, C then
# stored by the copy engine (f32, bf16, f16). 1. the epilogue, library and driver local-memory
# tests; 2. the four sanitizers on the new path; 3. the fused epilogues at the shapes in
# bf16 and f32 C, bare bf16 C at 4096³/8192³ and the output-bound batches; 4. Nsight Compute on
# one output-bound batch (what holds it).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run177; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 60 bundle/tests/gpu --include-ignored --exact the_driver_compiles_every_kernel_without_local_memory > $D/test-gpu-local.log 2>&1; echo "test gpu local memory rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in epilogue library; do
  S=$SECONDS; timeout 120 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for tool in memcheck racecheck synccheck initcheck; do
  for c in "bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt --layout nt --m 200 --n 264 --k 192 --batch 2 --out-dtype bf16 --epilogue bias-relu" "hgemm_14_wgmma_tma_64x128x64_s8_tmast_tn --layout tn --m 136 --n 72 --k 128 --out-dtype f16 --alpha 0.5 --epilogue bias" "bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast --m 130 --n 392 --k 64 --out-dtype f32 --epilogue bias-relu"; do
    S=$SECONDS; timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $c --iters 1 > /tmp/san.log 2>&1; rc=$?
    echo "$tool rc $rc $((SECONDS-S)) s: $c | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1) | $(grep '^check' /tmp/san.log | cut -c1-40)" >> $D/sanitize.txt
  done
done
B="$R bench --kernel best-bf16 --iters 20"
S=$SECONDS; timeout 60 $B --sizes 4096x4096x4096:nt,8192x8192x8192:nt --out-dtype bf16 --out /tmp/b-square > $D/bench-square.log 2>&1; echo "bench square rc $? $((SECONDS-S)) s" >> $D/rc.txt
for e in none bias bias-relu relu bias-gelu; do
  S=$SECONDS; timeout 60 $B --sizes 4096x11008x4096:nt,16x11008x4096:nt --out-dtype bf16 --epilogue $e --out /tmp/b-$e > $D/bench-$e.log 2>&1; echo "bench $e rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 60 $B --sizes 4096x11008x4096:nt --out-dtype f32 --epilogue bias --out /tmp/b-f32-bias > $D/bench-f32-bias.log 2>&1; echo "bench f32 bias rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 $B --sizes 64x512x512x128:nt,96x256x256x64,32x1024x1024x128:nt,64x512x512x64:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 120 ncu --set full -k regex:^bgemm_ -c 1 -o $D/batched $R run --kernel best-bf16 --m 512 --n 512 --k 128 --batch 64 --layout nt --out-dtype bf16 --iters 1 > $D/ncu.log 2>&1; echo "ncu rc $? $((SECONDS-S)) s" >> $D/rc.txt
ncu --import $D/batched.ncu-rep --page details > $D/ncu-details.txt 2>&1
for b in square none bias bias-relu relu bias-gelu f32-bias batched; do cp /tmp/b-$b/results.json $D/bench-$b.json 2>/dev/null; done
cp bundle-diag/run177.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|panicked\|local memory per thread\|spills" $D/test-*.log | head; cut -c1-220 $D/sanitize.txt
grep -h -E "^[0-9x:nt]+$|cuBLAS best|gemm_|failed" $D/bench-*.log | cut -c1-150 | head -60
cd $OUT && tar czf run177.tgz run177 && rm -rf run177
