#!/usr/bin/env bash
# Run 171 (commit in bundle/COMMIT): the small-products kernel at five blocks per SM (96
# registers) against run 170's four: the driver's and ptxas's local-memory checks, the epilogue
# tests, the four sanitizers on its entries, its tuning run (run 167's cases) and the evaluation
# suite's small-batched class with the automatic choice.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run171; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 60 bundle/tests/gpu --include-ignored --exact the_driver_compiles_every_kernel_without_local_memory > $D/test-gpu-local.log 2>&1; echo "test gpu local memory rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 bundle/tests/ptx --include-ignored > $D/test-ptx.log 2>&1; echo "test ptx rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 bundle/tests/epilogue --include-ignored --test-threads 4 > $D/test-epilogue.log 2>&1; echo "test epilogue rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; OUT=$D/sanitize timeout 90 bash bundle/run.sh sanitize '^[bh]gemm_00_batched_' > $D/sanitize.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
CASES=4096x32x32x32,2048x64x64x64:nt,1024x64x64x128:tn,512x128x128x128:tt,1024x48x96x64:tt,1000x96x96x32:tn,256x128x128x64:nt,8192x16x16x16,600x50x70x90:tt,2000x72x72x72,128x256x256x64:nt,4x2048x2048x128:nt,64x512x512x64:nt,32x1024x1024x128
S=$SECONDS; timeout 60 $R tune --dtype bf16 --cases $CASES --iters 10 --json $D/tune-batched.json > $D/tune.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
SB=1831x104x72x88:nn,2259x40x40x40:nt,405x72x72x72:tn,2409x40x40x40:tt,294x59x49x61:nn,3479x94x94x94:nt,590x112x112x112:tn,1543x34x110x53:tt,1114x32x48x32:nn,389x64x96x120:nt,261x80x80x80:tn,669x32x96x96:tt,317x63x63x63:nn,1468x54x54x54:nt,267x96x57x70:tn,2199x40x40x40:tt
S=$SECONDS; timeout 60 $R bench --kernel best-bf16 --iters 10 --sizes $SB --out /tmp/sb > $D/small-batched.log 2>&1; echo "small-batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/sb/results.json $D/small-batched.json 2>/dev/null
cp bundle-diag/run171.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|panicked\|local memory per thread\|spills" $D/test-*.log | head; tail -2 $D/sanitize.log
grep -A16 "^case " $D/tune.log | cut -c1-110
cd $OUT && tar czf run171.tgz run171 && rm -rf run171
