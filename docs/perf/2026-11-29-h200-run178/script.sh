#!/usr/bin/env bash
# Run 178 (commit in bundle/COMMIT): 1. the library tests (the tuned choice's GPU test among
# them), the epilogue tests and the driver's local-memory check; 2. memcheck on a tuned `run`;
# 3. rung 14 with a bare bf16 C in a staging copy of its own (run 177 lost 7-9 points there when
# the bias and ReLU were runtime values in it), the bias and ReLU epilogues, f32 C with a bias,
# the output-bound batches; 4. `rgemm run --tune-cache` twice on one prefill shape; 5. the
# evaluation suite in bf16 with the (untuned) automatic choice.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run178; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
S=$SECONDS; timeout 60 bundle/tests/gpu --include-ignored --exact the_driver_compiles_every_kernel_without_local_memory > $D/test-gpu-local.log 2>&1; echo "test gpu local memory rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in epilogue library; do
  S=$SECONDS; timeout 120 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $R run --kernel best-bf16 --m 200 --n 264 --k 320 --layout nt --out-dtype bf16 --epilogue bias-relu --iters 1 --tune-cache /tmp/san.tune > $D/memcheck-tuned.log 2>&1; echo "memcheck tuned run rc $? $((SECONDS-S)) s" >> $D/rc.txt
B="$R bench --kernel best-bf16 --iters 20"
S=$SECONDS; timeout 60 $B --sizes 4096x4096x4096:nt,8192x8192x8192:nt --out-dtype bf16 --out /tmp/b-square > $D/bench-square.log 2>&1; echo "bench square rc $? $((SECONDS-S)) s" >> $D/rc.txt
for e in none bias bias-relu relu; do
  S=$SECONDS; timeout 60 $B --sizes 4096x11008x4096:nt,16x11008x4096:nt --out-dtype bf16 --epilogue $e --out /tmp/b-$e > $D/bench-$e.log 2>&1; echo "bench $e rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 60 $B --sizes 4096x11008x4096:nt --out-dtype f32 --epilogue bias --out /tmp/b-f32-bias > $D/bench-f32-bias.log 2>&1; echo "bench f32 bias rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 $B --sizes 64x512x512x128:nt,96x256x256x64,32x1024x1024x128:nt,64x512x512x64:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
for e in none bias; do
  S=$SECONDS; timeout 90 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats -k regex:^bgemm_ -c 1 $R run --kernel best-bf16 --m 4096 --n 11008 --k 4096 --layout nt --out-dtype bf16 --epilogue $e --iters 1 > $D/ncu-$e.txt 2>&1; echo "ncu $e rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 120 ncu --set full -k regex:^bgemm_ -c 1 -o $D/batched $R run --kernel best-bf16 --m 512 --n 512 --k 128 --batch 64 --layout nt --out-dtype bf16 --iters 1 > $D/ncu-batched.log 2>&1; echo "ncu batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
ncu --import $D/batched.ncu-rep --page details > $D/ncu-batched-details.txt 2>&1
ncu --import $D/batched.ncu-rep --page source --csv > $D/ncu-batched-source.csv 2>&1
rm -f $D/batched.ncu-rep
for i in 1 2; do
  S=$SECONDS; timeout 60 $R run --kernel best-bf16 --m 384 --n 4096 --k 14336 --layout nt --tune-cache $D/h200.tune > $D/run-tuned-$i.log 2>&1; echo "run tuned $i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 330 $R bench --suite eval --dtype bf16 --iters 10 --out /tmp/eval-bf16 > $D/eval-bf16.log 2>&1; echo "eval bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
for b in square none bias bias-relu relu f32-bias batched; do cp /tmp/b-$b/results.json $D/bench-$b.json 2>/dev/null; done
cp /tmp/eval-bf16/results.json $D/eval-bf16.json 2>/dev/null
cp bundle-diag/run178.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|panicked\|local memory per thread\|spills" $D/test-*.log | head; grep "ERROR SUMMARY" $D/memcheck-tuned.log
grep -h -A3 "^[0-9x:nt]*$" $D/bench-*.log | grep -v kernel | cut -c1-130 | head -60
grep -h "best \|why\|kernel \|ratio" $D/run-tuned-*.log
grep -A14 "per class" $D/eval-bf16.log | head -16
cd $OUT && tar czf run178.tgz run178 && rm -rf run178
