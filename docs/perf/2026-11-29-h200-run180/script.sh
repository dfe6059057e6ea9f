#!/usr/bin/env bash
# Run 180 (commit in bundle/COMMIT): rung 14 with one staging copy per C type and store path
# (run 178 had the type chosen per pair, and the bias-ReLU copy beside the plain one). 1. the
# driver's local-memory check, the epilogue and library tests; 2. memcheck and racecheck on the
# bias path; 3. the epilogue benchmarks of run 178; 4. Nsight Compute's instruction counts of
# the plain and the bias store at 4096 x 11008 x 4096.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run180; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 150 bundle/tests/gpu --include-ignored --exact the_driver_compiles_every_kernel_without_local_memory > $D/test-gpu-local.log 2>&1; echo "test gpu local memory rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in epilogue library; do
  S=$SECONDS; timeout 120 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for tool in memcheck racecheck; do
  for c in "bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt --layout nt --m 200 --n 520 --k 192 --batch 2 --out-dtype bf16 --epilogue bias-relu" "bgemm_14_wgmma_tma_128x192x64_s4_persistent_tmast --m 130 --n 392 --k 64 --out-dtype f32 --epilogue bias"; do
    S=$SECONDS; timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel $c --iters 1 > /tmp/san.log 2>&1; rc=$?
    echo "$tool rc $rc $((SECONDS-S)) s: $c | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1) | $(grep '^check' /tmp/san.log | cut -c1-40)" >> $D/sanitize.txt
  done
done
B="$R bench --kernel best-bf16 --iters 20"
S=$SECONDS; timeout 60 $B --sizes 4096x4096x4096:nt,8192x8192x8192:nt --out-dtype bf16 --out /tmp/b-square > $D/bench-square.log 2>&1; echo "bench square rc $? $((SECONDS-S)) s" >> $D/rc.txt
for e in none bias bias-relu relu; do
  S=$SECONDS; timeout 60 $B --sizes 4096x11008x4096:nt,16x11008x4096:nt --out-dtype bf16 --epilogue $e --out /tmp/b-$e > $D/bench-$e.log 2>&1; echo "bench $e rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 60 $B --sizes 4096x11008x4096:nt --out-dtype f32 --epilogue bias --out /tmp/b-f32-bias > $D/bench-f32-bias.log 2>&1; echo "bench f32 bias rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 $B --sizes 64x512x512x128:nt,96x256x256x64,32x1024x1024x128:nt,64x512x512x64:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
for e in none bias; do
  S=$SECONDS; timeout 90 ncu --section SpeedOfLight --section WarpStateStats --section InstructionStats -k regex:^bgemm_ -c 1 $R run --kernel best-bf16 --m 4096 --n 11008 --k 4096 --layout nt --out-dtype bf16 --epilogue $e --iters 1 > $D/ncu-$e.txt 2>&1; echo "ncu $e rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for b in square none bias bias-relu relu f32-bias batched; do cp /tmp/b-$b/results.json $D/bench-$b.json 2>/dev/null; done
cp bundle-diag/run180.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|panicked\|local memory per thread\|spills" $D/test-*.log | head; cut -c1-200 $D/sanitize.txt
grep -h -A3 "^[0-9x:nt]*$" $D/bench-*.log | grep -v kernel | cut -c1-130 | head -60
grep -h "Executed Instructions\|Elapsed Cycles" $D/ncu-*.txt
cd $OUT && tar czf run180.tgz run180 && rm -rf run180
