#!/usr/bin/env bash
# Run 57: (1) the f16 decode GEMV with the hardware conversion against cuBLAS, three processes;
# (2) the persistent TMA-store kernel's tile-order groups (4, 8, 16, 32 block rows) timed in turn
# at 4096³ and 8192³, three processes; (3) which kernels PyTorch's cuBLAS runs there.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run57; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $D/smi.txt 2>&1
G=1x4096x4096:nt,1x6144x4096:nt,1x28672x4096:nt,1x4096x14336:nt,4x4096x4096:nt
for sz in "1 4096 4096" "3 1000 777" "4 28672 4096"; do set -- $sz
  timeout 60 $R check --kernel hgemm_00_gemv_1x8x256_nt --kernel hgemm_00_gemv_4x8x256_nt --layout nt --m $1 --n $2 --k $3 --skip-unsupported >> $D/check.log 2>&1; echo "check gemv $sz rc $?" >> $D/rc.txt
done
for i in 1 2 3; do
  timeout 60 $R bench --dtype f16 --kernel hgemm_00_gemv_1x8x256_nt --kernel hgemm_00_gemv_4x8x256_nt --sizes $G --iters 20 --out $D/gemv-f16-p$i > $D/gemv-f16-p$i.log 2>&1; echo "gemv f16 p$i rc $?" >> $D/rc.txt
done
K='bgemm_14_wgmma_tma_128x256x64_s4_persistent_(g[0-9]+_)?tmast$'
for k in g4 g16 g32; do
  for sz in "4096 4096 4096" "333 4099 1021" "3001 2999 3003"; do set -- $sz
    timeout 60 $R check --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_${k}_tmast --m $1 --n $2 --k $3 --skip-unsupported >> $D/check.log 2>&1; echo "check $k $sz rc $?" >> $D/rc.txt
  done
done
for i in 1 2 3; do
  timeout 90 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_g4_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_g16_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_g32_tmast --sizes 4096,8192,6144 --iters 20 --out $D/groups-p$i > $D/groups-p$i.log 2>&1; echo "groups p$i rc $?" >> $D/rc.txt
done
timeout 60 python3 bundle-diag/cublas_kernels.py 4096x4096x4096/bf16 8192x8192x8192/bf16 1x4096x4096:nt/f16 1x4096x4096:nt/bf16 > $D/cublas-kernels.txt 2>&1; echo "cublas kernels rc $?" >> $D/rc.txt
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'bgemm_14_wgmma_tma_128x256x64_s4_persistent_g16_tmast$|hgemm_00_gemv_1x8x256_nt$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run57.sh $D/script.sh
cd /tmp && tar czf $OUT/run57.tgz run57
