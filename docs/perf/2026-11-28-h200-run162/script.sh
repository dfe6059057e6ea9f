#!/usr/bin/env bash
# Run 162 (commit in bundle/COMMIT): rung 14's fused epilogue through shared memory (#43).
# 1. the epilogue, library and CLI tests on the GPU; 2. the four sanitizers on two fused rung 14
# plans; 3. the issue's benchmarks: bf16 C at 4096³ and 8192³ (nt), the fused epilogues at
# 4096×11008×4096 and 16×11008×4096 (nt, bf16 C) beside the plain product, output-bound batches
# (K ≤ 128, bf16 C), each against cuBLAS with the same output type and epilogue, timed in turn.
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run162; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
for t in epilogue library cli; do
  S=$SECONDS; timeout 150 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for tool in memcheck racecheck synccheck initcheck; do
  S=$SECONDS; timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt --m 520 --n 1104 --k 640 --layout nt --out-dtype bf16 --epilogue bias-gelu-aux --iters 2 > $D/$tool-persistent.log 2>&1; echo "$tool persistent rc $? $((SECONDS-S)) s" >> $D/rc.txt
  S=$SECONDS; timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel hgemm_14_wgmma_tma_64x64x64_s12_tmast_nt --m 200 --n 312 --k 520 --layout nt --out-dtype f16 --epilogue row-bias-silu --iters 2 > $D/$tool-narrow.log 2>&1; echo "$tool narrow rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
B="$R bench --kernel best-bf16 --dtype bf16 --iters 20"
S=$SECONDS
timeout 60 $B --sizes 4096x4096x4096:nt,8192x8192x8192:nt --out-dtype bf16 --out /tmp/b-square > $D/bench-square.log 2>&1; echo "bench square rc $?" >> $D/rc.txt
for e in none bias bias-relu bias-gelu; do
  timeout 60 $B --sizes 4096x11008x4096:nt,16x11008x4096:nt --out-dtype bf16 --epilogue $e --out /tmp/b-$e > $D/bench-$e.log 2>&1; echo "bench $e rc $?" >> $D/rc.txt
done
timeout 60 $B --sizes 64x512x512x128:nt,96x256x256x64:nn,32x1024x1024x128:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
for b in square none bias bias-relu bias-gelu batched; do cp /tmp/b-$b/results.json $D/bench-$b.json 2>/dev/null; done
cp bundle-diag/run162.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head -20
for f in $D/*check-*.log; do echo "$f: $(grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $f)"; done
for b in square none bias bias-relu bias-gelu batched; do echo "== $b"; grep -v -E "^ *[0-9.]+ s +[0-9]+/|^$|bandwidth|wrote|warning|chart" $D/bench-$b.log | cut -c1-150 | head -16; done
cd $OUT && tar czf run162.tgz run162 && rm -rf run162
