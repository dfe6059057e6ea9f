#!/usr/bin/env bash
# Run 202: the dot-product kernel with a branch-free loop where both operands are read by vectors
# (windows up to 8 wide; Nsight, run 199, had the split plan's main kernel far from memory speed): GPU tests
# (edge sizes, library, epilogue), memcheck and racecheck of each read path, and the automatic choice on the fitting suite's dot-product and single-query attention shapes
# (tuning data, not the evaluation suite), bf16 and f32.
set -u
[ -d quick ] || xz -dc quick.txz | tar xf -
D=$OUT/run202; mkdir -p $D; cp "$0" $D/script.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_BIN=$PWD/quick/rgemm RGEMM_COMMIT=e0bf97416e39
R=quick/rgemm
DOT=288x1x1657x64:nt,125x1x396x64:nt,480x1x128x1572:nn,1056x1x231x96:nt,224x1x96x1419:nn,4x4x2994664:nn,2x1x592448:nt,1x12x4799200:tn,5x1x692640:tt,6x1x286944:nn,12x1x3370158:nt,10x1x731187:tn,3x2x2361691:tt,11x1x92960:nn,7x1x134520:nt,1x3x9210544:tn,7x1x194520:tt
S=$SECONDS; timeout 120 $R bench --kernel best-bf16 --iters 10 --sizes $DOT --out $D/fitdot-bf16 > $D/fitdot-bf16.log 2>&1; echo "bench bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 120 $R bench --kernel best --dtype f32 --iters 10 --sizes $DOT --out $D/fitdot-f32 > $D/fitdot-f32.log 2>&1; echo "bench f32 rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in every_kernel_on_edge_sizes; do
  S=$SECONDS; timeout 240 quick/tests/gpu --include-ignored --exact $t > $D/test-gpu-$t.log 2>&1; echo "test gpu $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS; timeout 90 quick/tests/library --include-ignored --test-threads 4 > $D/test-library.log 2>&1; echo "test library rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS; timeout 60 quick/tests/epilogue --include-ignored --test-threads 4 > $D/test-epilogue.log 2>&1; echo "test epilogue rc $? $((SECONDS-S)) s" >> $D/rc.txt
# Each read path: along K (nt, nn with one column of B), across a 16-wide window (nn's B, tt's A),
# elements (odd leading dimensions), with ragged ends.
for k in bgemm_00_dot_4x4x256_nt:nt:5:18:70008 bgemm_00_dot_16x1x256:nn:21:1:70001 bgemm_00_dot_1x16x256:nn:3:40:70003 sgemm_00_dot_16x1x256_tt:tt:40:3:70004 hgemm_00_dot_1x16x256_tn:tn:1:19:70001; do
  IFS=: read -r name lay m n kk <<< "$k"
  timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 $R run --kernel $name --layout $lay --m $m --n $n --k $kk --iters 2 > $D/memcheck-$name.log 2>&1; echo "memcheck $name rc $?" >> $D/rc.txt
done
timeout 30 compute-sanitizer --tool racecheck --error-exitcode 9 $R run --kernel bgemm_00_dot_1x16x256 --layout nn --m 3 --n 40 --k 70003 --iters 1 > $D/racecheck.log 2>&1; echo "racecheck rc $?" >> $D/rc.txt
cat $D/rc.txt
cd $OUT && tar czf run202.tgz run202 && rm -rf run202
