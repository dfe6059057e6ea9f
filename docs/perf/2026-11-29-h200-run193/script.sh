#!/usr/bin/env bash
# Run 193: the small-products kernel storing plain C by quads (vector stores), the tensor-core
# GEMV reading nothing for rows past M: tests, sanitizers, the tiny-K and small-batched classes
# of the evaluation suite through the automatic choice.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run193; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm
R=quick/rgemm
for t in epilogue library cli; do
  S=$SECONDS; timeout 90 quick/tests/$t --include-ignored --test-threads 4 > $D/test-$t.log 2>&1; echo "test $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
for tool in memcheck racecheck synccheck initcheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_00_batched_64x64x32_w32x32_tn --m 70 --n 66 --k 5 --ldc 68 --batch 3 --out-dtype bf16 --iters 2 > $D/$tool-batched.log 2>&1; echo "$tool batched tn bf16 rc $?" >> $D/rc.txt
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel hgemm_00_batched_64x64x32_w32x32_nt --m 130 --n 68 --k 40 --batch 2 --iters 2 > $D/$tool-batched-f32.log 2>&1; echo "$tool batched nt f32 rc $?" >> $D/rc.txt
done
for tool in memcheck racecheck; do
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $R run --kernel bgemm_00_gemv_16x16x128_w16x8_mma_nt --m 3 --n 1000 --k 4001 --layout nt --out-dtype bf16 --epilogue bias-silu-aux --iters 2 > $D/$tool-mma.log 2>&1; echo "$tool mma m3 rc $?" >> $D/rc.txt
done
SB=1831x104x72x88:nn,2259x40x40x40:nt,405x72x72x72:tn,2409x40x40x40:tt,294x59x49x61:nn,3479x94x94x94:nt,590x112x112x112:tn,1543x34x110x53:tt,1114x32x48x32:nn,389x64x96x120:nt,261x80x80x80:tn,669x32x96x96:tt,317x63x63x63:nn,1468x54x54x54:nt,267x96x57x70:tn,2199x40x40x40:tt
TK=7907x6764x5:nn,3208x14590x16:nt,14561x2723x4:tn,1369x6524x10:tt,4491x594x12:nn,5457x1093x1:nt,5214x5940x7:tn,5837x16361x14:tt
S=$SECONDS
timeout 200 $R bench --kernel best-bf16 --iters 10 --sizes $SB,$TK --out $D/bench-best > $D/bench-best.log 2>&1; echo "bench best rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 90 $R bench --kernel bgemm_00_gemv_16x64x128_w16x8_mma_nt --kernel bgemm_00_gemv_16x16x128_w16x8_mma_nt --iters 10 --sizes 2x14336x4096:nt,8x14336x4096:nt,4x4096x11008:nt,8x4096x11008:nt --out $D/bench-mma > $D/bench-mma.log 2>&1; echo "bench mma rc $? $((SECONDS-S)) s" >> $D/rc.txt
cat $D/rc.txt
cd $OUT && tar czf run193.tgz run193 && rm -rf run193
