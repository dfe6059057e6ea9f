#!/usr/bin/env bash
# Run 195: the dot-product kernel with four steps of K in flight per thread (was two): GPU tests
# (edge sizes, K = 2^20, the split tests), memcheck, and the cases of the evaluation suite that
# the automatic choice runs on it, bf16 and f32.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run195; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm RGEMM_COMMIT=be86ca1bb0d2
R=quick/rgemm
DOT=80x1x64x7886:nn,80x1x64x488:nn,3x3x352792:nn,12x1x495064:nt,3x4x14168376:tn,2x1x2325592:tt,1x11x312341:nn,8x2x3804857:nt,1x12x1581343:tn,4x1x2589801:tt,6x1x636216:nn,4x2x1746568:nt,3x4x729592:tn,9x1x4866944:tt,3x1x11610:nn,13x4x267:nt
S=$SECONDS; timeout 120 $R bench --kernel best-bf16 --iters 10 --sizes $DOT --out $D/bench-bf16 > $D/bench-bf16.log 2>&1; echo "bench bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 120 $R bench --kernel best --dtype f32 --iters 10 --sizes $DOT --out $D/bench-f32 > $D/bench-f32.log 2>&1; echo "bench f32 rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in every_kernel_on_edge_sizes every_kernel_passes_at_k_2_pow_20; do
  S=$SECONDS; timeout 100 quick/tests/gpu --include-ignored --exact $t > $D/test-gpu-$t.log 2>&1; echo "test gpu $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 60 quick/tests/library --include-ignored --test-threads 4 > $D/test-library.log 2>&1; echo "test library rc $? $((SECONDS-S)) s" >> $D/rc.txt
for k in bgemm_00_dot_4x4x256:nn sgemm_00_dot_16x1x256_tt:tt hgemm_00_dot_1x16x256_nt:nt; do
  timeout 20 compute-sanitizer --tool memcheck --error-exitcode 9 $R run --kernel ${k%%:*} --layout ${k##*:} --m 5 --n 18 --k 70001 --iters 2 > $D/memcheck-${k%%:*}.log 2>&1; echo "memcheck ${k%%:*} rc $?" >> $D/rc.txt
done
cat $D/rc.txt
cd $OUT && tar czf run195.tgz run195 && rm -rf run195
