#!/usr/bin/env bash
# Run 67: the narrow configurations against the decode GEMV at 2 to 8 rows (bf16), the f16 suite
# with the retuned table (f16 takes each bf16 row's twin), and the bf16 suite again.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run67; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
P=bgemm_14_wgmma_tma
S=$SECONDS
timeout 100 $R bench --dtype bf16 --kernel bgemm_00_gemv_4x8x256_nt --kernel ${P}_64x64x64_s12_tmast_nt --kernel ${P}_64x128x64_s8_pairs_nt --sizes 2x4096x4096:nt,4x4096x4096:nt,8x4096x4096:nt,4x6144x4096:nt,4x4096x14336:nt --iters 10 --out $D/few-rows > $D/few-rows.log 2>&1; echo "few rows rc $? $((SECONDS-S)) s" >> $D/rc.txt
for m in 2 4 8; do timeout 20 $R run --kernel best-bf16 --m $m --n 4096 --k 4096 --layout nt --iters 10 > $D/best-m$m.txt 2>&1; echo "best m$m rc $?" >> $D/rc.txt; done
S=$SECONDS
timeout 190 $R bench --suite real --dtype f16 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 170 $R bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite bf16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run67.sh $D/script.sh
cd /tmp && tar czf $OUT/run67.tgz run67
