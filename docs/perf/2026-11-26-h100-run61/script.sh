#!/usr/bin/env bash
# Run 61: decode GEMVs with two columns per warp (_1x16, _4x16) against one (_1x8, _4x8):
# checks at odd sizes and unaligned K, sanitizers, then three processes per type timed in turn
# with cuBLAS at M = 1, 2, 4.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run61; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv > $D/gpu.txt
for p in b h s; do
  w=256; [ $p = s ] && w=128
  for sz in "1 4097 4096" "3 1001 777" "4 28672 4096" "2 64 8"; do set -- $sz
    timeout 40 $R check --kernel ${p}gemm_00_gemv_1x16x${w}_nt --kernel ${p}gemm_00_gemv_4x16x${w}_nt --layout nt --m $1 --n $2 --k $3 >> $D/check.log 2>&1; echo "check $p $sz rc $?" >> $D/rc.txt
  done
done
S=$SECONDS
OUT=$D/san timeout 120 bash bundle/run.sh sanitize 'gemm_00_gemv_[14]x16x(128|256)_nt$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
G=1x4096x4096:nt,2x4096x4096:nt,4x4096x4096:nt,1x28672x4096:nt,4x28672x4096:nt,1x4096x14336:nt,4x4096x14336:nt
for i in 1 2 3; do
  for t in bf16 f16; do
    p=b; [ $t = f16 ] && p=h
    timeout 60 $R bench --dtype $t --kernel ${p}gemm_00_gemv_1x8x256_nt --kernel ${p}gemm_00_gemv_1x16x256_nt --kernel ${p}gemm_00_gemv_4x8x256_nt --kernel ${p}gemm_00_gemv_4x16x256_nt --sizes $G --iters 20 --out $D/$t-p$i > $D/$t-p$i.log 2>&1; echo "$t p$i rc $?" >> $D/rc.txt
  done
  timeout 60 $R bench --dtype f32 --kernel sgemm_00_gemv_1x8x128_nt --kernel sgemm_00_gemv_1x16x128_nt --kernel sgemm_00_gemv_4x8x128_nt --kernel sgemm_00_gemv_4x16x128_nt --sizes 1x4096x4096:nt,4x4096x4096:nt,1x28672x4096:nt,4x28672x4096:nt --iters 20 --out $D/f32-p$i > $D/f32-p$i.log 2>&1; echo "f32 p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run61.sh $D/script.sh
cd /tmp && tar czf $OUT/run61.tgz run61
