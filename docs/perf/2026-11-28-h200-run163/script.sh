#!/usr/bin/env bash
# Run 163 (commit in bundle/COMMIT): run 162's failures mended (the copy engine's store only for
# rows of whole 16-byte pieces; the test's narrow tile), the 16-row GEMV with the fused epilogue,
# the issue's benchmarks through `bench --kernel best-bf16 --sizes`, then the evaluation suite in
# f32 (run 161 stopped after 131 of its 172 cases).
set -u
[ -d bundle ] || xz -dc bundle.txz | tar xf -
D=$OUT/run163; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/bundle/rgemm
R=bundle/rgemm
for t in epilogue library cli; do
  S=$SECONDS; timeout 120 bundle/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for n in 211 212; do
  timeout 30 $R run --kernel hgemm_14_wgmma_tma_64x64x64_s12_tmast_tt --m 58 --n $n --k 236 --layout tt --lda 64 --ldb 240 --ldc 220 --alpha 1.25 --iters 2 > $D/run-tt-n$n.log 2>&1; echo "run tt n=$n rc $?" >> $D/rc.txt
done
for tool in memcheck racecheck synccheck initcheck; do
  S=$SECONDS; timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_00_gemv_16x8x256_nt --m 13 --n 1000 --k 4000 --layout nt --out-dtype bf16 --epilogue bias-silu-aux --iters 2 > $D/$tool-gemv16.log 2>&1; echo "$tool gemv16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
B="$R bench --kernel best-bf16 --iters 20"
S=$SECONDS
timeout 50 $B --sizes 4096x4096x4096:nt,8192x8192x8192:nt --out-dtype bf16 --out /tmp/b-square > $D/bench-square.log 2>&1; echo "bench square rc $?" >> $D/rc.txt
for e in none bias bias-relu bias-gelu; do
  timeout 40 $B --sizes 4096x11008x4096:nt,16x11008x4096:nt --out-dtype bf16 --epilogue $e --out /tmp/b-$e > $D/bench-$e.log 2>&1; echo "bench $e rc $?" >> $D/rc.txt
done
timeout 40 $B --sizes 64x512x512x128:nt,96x256x256x64,32x1024x1024x128:nt --out-dtype bf16 --out /tmp/b-batched > $D/bench-batched.log 2>&1; echo "bench batched rc $? $((SECONDS-S)) s" >> $D/rc.txt
for b in square none bias bias-relu bias-gelu batched; do cp /tmp/b-$b/results.json $D/bench-$b.json 2>/dev/null; done
S=$SECONDS
timeout 400 $R bench --suite eval --dtype f32 --iters 10 --out /tmp/eval-f32 > $D/eval-f32.log 2>&1; echo "eval f32 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-f32/results.json $D/eval-f32.json 2>/dev/null
cp bundle-diag/run163.sh $D/script.sh
cat $D/rc.txt; grep -h "test result\|FAILED\|panicked" $D/test-*.log | head -20
grep -h "^check\|^kernel" $D/run-tt-*.log
for f in $D/*check-*.log; do echo "$(basename $f): $(grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $f)"; done
for b in square none bias bias-relu bias-gelu batched; do echo "== $b"; grep -v -E "^ *[0-9.]+ s +[0-9]+/|^$|bandwidth|wrote|warning|chart" $D/bench-$b.log | cut -c1-150 | head -14; done
grep -B2 -A14 "per class" $D/eval-f32.log | head -24
cd $OUT && tar czf run163.tgz run163 && rm -rf run163
