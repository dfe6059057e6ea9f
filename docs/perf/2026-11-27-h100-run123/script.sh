#!/usr/bin/env bash
# Run 123 (commit in bundle/COMMIT): vector stores of C that check their address: every GPU test,
# the packed batch of two 4095³ bf16 products with the automatic plan, and rung 15 `_raw` and
# rung 14 `_persistent_pairs` at 4096³ (their epilogues changed), timed in turn.
set -u
tar xzf bundle.tgz
D=$OUT/run123; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 250 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT)
timeout 40 bundle/rgemm run --kernel best-bf16 --m 4095 --n 4095 --k 4095 --batch 2 --iters 20 > $D/batch.log 2>&1; echo "batch rc=$?" >> $D/rc.txt
timeout 60 bundle/rgemm bench --kernel sgemm_15_tf32x3_128x128x32_s4_raw --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs --sizes 4096 --iters 10 --out /tmp/r123b > $D/bench.log 2>&1; echo "bench rc=$?" >> $D/rc.txt
cp /tmp/r123b/results.json $D/bench.json 2>/dev/null
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5; grep -E "^best|^kernel|^ratio|^check" $D/batch.log; grep -E "^  [sbh]gemm|cuBLAS" $D/bench.log | head
cp bundle-diag/run123.sh $D/script.sh
cd $OUT && tar czf run123.tgz run123 && rm -rf run123
