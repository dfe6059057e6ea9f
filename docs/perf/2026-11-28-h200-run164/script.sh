#!/usr/bin/env bash
# Run 164 (commit in bundle/COMMIT): rung 14's fused store reading each column's sixteen values
# before it stores them (FusedOutput::store_column): the epilogue tests, two sanitizers, and run
# 163's epilogue benchmarks again.
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run164; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 60 bundle/tests/epilogue --include-ignored --test-threads 4 > $D/test-epilogue.log 2>&1; echo "test epilogue rc $? $((SECONDS-S)) s" >> $D/rc.txt
for tool in memcheck racecheck; do
  S=$SECONDS; timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt --m 520 --n 1104 --k 640 --layout nt --out-dtype bf16 --epilogue bias-gelu-aux --iters 2 > $D/$tool-persistent.log 2>&1; echo "$tool persistent rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
B="$R bench --kernel best-bf16 --iters 20"
timeout 50 $B --sizes 4096x4096x4096:nt,8192x8192x8192:nt --out-dtype bf16 --out /tmp/b-square > $D/bench-square.log 2>&1; echo "bench square rc $?" >> $D/rc.txt
for e in none bias bias-relu bias-gelu; do
  timeout 40 $B --sizes 4096x11008x4096:nt,16x11008x4096:nt --out-dtype bf16 --epilogue $e --out /tmp/b-$e > $D/bench-$e.log 2>&1; echo "bench $e rc $?" >> $D/rc.txt
done
for b in square none bias bias-relu bias-gelu; do cp /tmp/b-$b/results.json $D/bench-$b.json 2>/dev/null; done
cp bundle-diag/run164.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head
for f in $D/*check-*.log; do echo "$(basename $f): $(grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $f)"; done
for b in square none bias bias-relu bias-gelu; do echo "== $b"; grep -E "^[0-9]+x|cuBLAS|gemm_" $D/bench-$b.log | cut -c1-110; done
cd $OUT && tar czf run164.tgz run164 && rm -rf run164
