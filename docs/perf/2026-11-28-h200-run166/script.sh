#!/usr/bin/env bash
# Run 166 (commit in bundle/COMMIT): the small-products kernel (kernels-gpu/src/batched.rs).
# 1. every test of the bundle (the catalog walks reach the eight new entries; the epilogue tests
#    name them); 2. all four sanitizers on the new entries (rgemm check, every layout), and memcheck
#    and racecheck on a batch with unaligned rows and a fused epilogue; 3. its tuning run: every
#    candidate plan on batches of small products that are in no suite (the cost model's constants
#    for the kernel are fitted to this); 4. the output-bound batches of the tuning suite with bf16 C,
#    the new kernel against the automatic choice's and the best cuBLAS.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run166; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=$(cat bundle/COMMIT) RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; OUT=$D/sanitize timeout 120 bash bundle/run.sh sanitize '^[bh]gemm_00_batched_' > $D/sanitize.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
for tool in memcheck racecheck; do
  S=$SECONDS; timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_00_batched_64x64x32_w32x32_tt --layout tt --m 70 --n 45 --k 100 --lda 77 --ldb 103 --ldc 51 --batch 7 --beta 0.5 --out-dtype bf16 --epilogue bias-gelu-aux --iters 1 > $D/$tool-batch.log 2>&1; echo "$tool batch rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
CASES=4096x32x32x32,2048x64x64x64:nt,1024x64x64x128:tn,512x128x128x128:tt,1024x48x96x64:tt,1000x96x96x32:tn,256x128x128x64:nt,8192x16x16x16,600x50x70x90:tt,2000x72x72x72,128x256x256x64:nt,4x2048x2048x128:nt,64x512x512x64:nt,32x1024x1024x128
S=$SECONDS; timeout 240 $R tune --dtype bf16 --cases $CASES --iters 10 --json $D/tune-batched.json > $D/tune.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 $R bench --kernel bgemm_00_batched_64x64x32_w32x32_nt --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_nt --sizes 64x512x512x64:nt --out-dtype bf16 --iters 20 --out /tmp/ob1 > $D/bench-out-nt.log 2>&1; echo "bench out nt rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/ob1/results.json $D/bench-out-nt.json 2>/dev/null
S=$SECONDS; timeout 60 $R bench --kernel bgemm_00_batched_64x64x32_w32x32 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --sizes 32x1024x1024x128 --out-dtype bf16 --iters 20 --out /tmp/ob2 > $D/bench-out-nn.log 2>&1; echo "bench out nn rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/ob2/results.json $D/bench-out-nn.json 2>/dev/null
S=$SECONDS; OUT=$D/tests RGEMM_TEST_JOBS=8 timeout 320 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run166.sh $D/script.sh
cat $D/rc.txt; tail -3 $D/sanitize.log; grep -h "ERROR SUMMARY" $D/*-batch.log
grep -E "^[0-9]+x|cuBLAS|gemm_" $D/bench-out-*.log | grep -v " s  " | cut -c1-120
tail -40 $D/tune.log | cut -c1-160
grep -E "tests:|FAILED" $D/tests.log | head -20
cd $OUT && tar czf run166.tgz run166 && rm -rf run166
