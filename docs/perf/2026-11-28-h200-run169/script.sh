#!/usr/bin/env bash
# Run 169 (commit in bundle/COMMIT): the automatic choice with the small-products kernel and the
# refitted cost model (run 167's tuning run), and a stream-K table row's persistent fusing twin.
# 1. the epilogue and library tests (GPU included); 2. the output-bound batches of the epilogue
# issue with bf16 C (run 163's sizes), the automatic choice against cuBLASLt with bf16 C; 3. the
# evaluation suite in bf16.
set -u
[ -d bundle ] && [ "$(cat bundle/COMMIT)" = "$(xz -dc bundle.txz | tar xOf - bundle/COMMIT)" ] || { rm -rf bundle; xz -dc bundle.txz | tar xf -; }
D=$OUT/run169; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
for t in epilogue library; do
  S=$SECONDS; timeout 90 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 60 $R bench --kernel best-bf16 --iters 20 --sizes 64x512x512x128:nt,96x256x256x64,32x1024x1024x128:nt,64x512x512x64:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/b-batched/results.json $D/bench-batched.json 2>/dev/null
S=$SECONDS; timeout 330 $R bench --suite eval --dtype bf16 --iters 10 --out /tmp/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-bf16/results.json $D/eval-bf16.json 2>/dev/null
cp bundle-diag/run169.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head
grep -v -E "^ *[0-9.]+ s +[0-9]+/|^$|bandwidth|wrote|warning|chart" $D/bench-batched.log | cut -c1-150 | head -24
grep -B2 -A14 "per class" $D/eval-bf16.log | head -24; tail -4 $D/eval-bf16.log
cd $OUT && tar czf run169.tgz run169 && rm -rf run169
