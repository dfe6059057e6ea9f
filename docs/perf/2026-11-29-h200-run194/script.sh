#!/usr/bin/env bash
# Run 194: the evaluation suite in bf16 with the untuned automatic choice, the small-products
# kernel storing plain C by quads (or element by element without the fused epilogue's
# decisions); then its GPU epilogue tests and the sanitizers on it.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run194; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm RGEMM_COMMIT=077bbac41147
R=quick/rgemm
S=$SECONDS; timeout 480 $R bench --suite eval --dtype bf16 --iters 10 --out $D/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 quick/tests/epilogue --include-ignored --test-threads 4 > $D/test-epilogue.log 2>&1; echo "test epilogue rc $? $((SECONDS-S)) s" >> $D/rc.txt
for tool in memcheck racecheck; do
  timeout 15 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_00_batched_64x64x32_w32x32_tn --layout tn --m 70 --n 66 --k 5 --ldc 68 --batch 3 --out-dtype bf16 --iters 2 > $D/$tool-batched.log 2>&1; echo "$tool batched tn bf16 ldc 68 rc $?" >> $D/rc.txt
  timeout 15 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel hgemm_00_batched_64x64x32_w32x32_nt --layout nt --m 130 --n 66 --k 40 --batch 2 --iters 2 > $D/$tool-batched-f32.log 2>&1; echo "$tool batched nt f32 n 66 rc $?" >> $D/rc.txt
done
cat $D/rc.txt
cd $OUT && tar czf run194.tgz run194 && rm -rf run194
