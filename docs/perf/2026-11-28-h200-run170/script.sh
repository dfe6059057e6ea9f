#!/usr/bin/env bash
# Run 170 (commit in bundle/COMMIT): the small-products kernel with its idle warps skipping the
# multiplications and the store of C limited to C. 1. the driver's and ptxas's local-memory
# checks, the epilogue tests; 2. the four sanitizers on its entries; `rgemm check` of its eight
# entries on small, ragged, batched and unaligned problems with epilogues; 3. its tuning run
# again (run 167's cases); 4. the evaluation suite's small-batched class with the automatic choice
# (the cost model as in run 169).
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run170; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 60 bundle/tests/gpu --include-ignored --exact the_driver_compiles_every_kernel_without_local_memory > $D/test-gpu-local.log 2>&1; echo "test gpu local memory rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 90 bundle/tests/ptx --include-ignored > $D/test-ptx.log 2>&1; echo "test ptx rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 90 bundle/tests/epilogue --include-ignored --test-threads 4 > $D/test-epilogue.log 2>&1; echo "test epilogue rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; OUT=$D/sanitize timeout 120 bash bundle/run.sh sanitize '^[bh]gemm_00_batched_' > $D/sanitize.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
: > $D/check.log
for L in nn nt tn tt; do
  for T in bgemm hgemm; do
    K=${T}_00_batched_64x64x32_w32x32$([ $L = nn ] || echo _$L)
    for s in "1 1 1 1" "20 33 7 5" "64 64 64 9" "65 130 97 3" "37 45 200 11"; do
      set -- $s
      timeout 20 $R check --kernel $K --layout $L --m $1 --n $2 --k $3 --batch $4 --seed $(( $1 + $4 )) >> $D/check.log 2>&1 || echo "FAILED $K $s" >> $D/check.log
    done
    timeout 20 $R check --kernel $K --layout $L --m 50 --n 70 --k 90 --batch 4 --lda 101 --ldb 103 --ldc 77 --out-dtype bf16 --epilogue bias-relu-aux >> $D/check.log 2>&1 || echo "FAILED $K unaligned epilogue" >> $D/check.log
  done
done
echo "check failures: $(grep -c FAILED $D/check.log)" >> $D/rc.txt
CASES=4096x32x32x32,2048x64x64x64:nt,1024x64x64x128:tn,512x128x128x128:tt,1024x48x96x64:tt,1000x96x96x32:tn,256x128x128x64:nt,8192x16x16x16,600x50x70x90:tt,2000x72x72x72,128x256x256x64:nt,4x2048x2048x128:nt,64x512x512x64:nt,32x1024x1024x128
S=$SECONDS; timeout 120 $R tune --dtype bf16 --cases $CASES --iters 10 --json $D/tune-batched.json > $D/tune.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
SB=1831x104x72x88:nn,2259x40x40x40:nt,405x72x72x72:tn,2409x40x40x40:tt,294x59x49x61:nn,3479x94x94x94:nt,590x112x112x112:tn,1543x34x110x53:tt,1114x32x48x32:nn,389x64x96x120:nt,261x80x80x80:tn,669x32x96x96:tt,317x63x63x63:nn,1468x54x54x54:nt,267x96x57x70:tn,2199x40x40x40:tt
S=$SECONDS; timeout 90 $R bench --kernel best-bf16 --iters 10 --sizes $SB --out /tmp/sb > $D/small-batched.log 2>&1; echo "small-batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/sb/results.json $D/small-batched.json 2>/dev/null
cp bundle-diag/run170.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|panicked" $D/test-*.log | head; tail -2 $D/sanitize.log; grep FAILED $D/check.log | head
grep -A16 "^case " $D/tune.log | cut -c1-110
grep -E "^[0-9]+x|batched|cuBLAS best" $D/small-batched.log | grep -v " s  " | cut -c1-110 | head -50
cd $OUT && tar czf run170.tgz run170 && rm -rf run170
