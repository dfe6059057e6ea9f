#!/usr/bin/env bash
# Run 165 (commit in bundle/COMMIT): the final state of rung 14's stores (one slice staging for
# the TMA store and the fused store): the epilogue and library tests, memcheck on a fused plan,
# and the bare bf16 C benchmarks of run 163 again.
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run165; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
for t in epilogue library; do
  S=$SECONDS; timeout 60 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 $R run --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt --m 520 --n 1104 --k 640 --layout nt --out-dtype bf16 --epilogue bias-gelu-aux --iters 2 > $D/memcheck-persistent.log 2>&1; echo "memcheck persistent rc $? $((SECONDS-S)) s" >> $D/rc.txt
B="$R bench --kernel best-bf16 --iters 20"
timeout 40 $B --sizes 4096x4096x4096:nt,4096x11008x4096:nt --out-dtype bf16 --out /tmp/b-plain > $D/bench-plain.log 2>&1; echo "bench plain rc $?" >> $D/rc.txt
cp /tmp/b-plain/results.json $D/bench-plain.json 2>/dev/null
cp bundle-diag/run165.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head
grep -h "ERROR SUMMARY" $D/memcheck-persistent.log
grep -E "^[0-9]+x|cuBLAS|gemm_" $D/bench-plain.log | grep -v " s  " | cut -c1-110
cd $OUT && tar czf run165.tgz run165 && rm -rf run165
