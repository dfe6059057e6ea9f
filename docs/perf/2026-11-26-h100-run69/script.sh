#!/usr/bin/env bash
# Run 69: two independent accumulator chains per warpgroup in the narrow nt tiles (experiment:
# _64x64x64_s13_tmast_nt and _64x128x64_s9_pairs_nt carry two chains; s12, s8 one), A/B in one
# process, with the L2 flushed and without.
set -u
D=/tmp/run69; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-chains.gz > $D/rgemm; chmod +x $D/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT="271da47 + two accumulator chains (experiment)"
P=bgemm_14_wgmma_tma
KS="--kernel ${P}_64x64x64_s12_tmast_nt --kernel ${P}_64x64x64_s13_tmast_nt --kernel ${P}_64x128x64_s8_pairs_nt --kernel ${P}_64x128x64_s9_pairs_nt"
SZ=4x4096x4096:nt,16x4096x4096:nt,128x4096x4096:nt,128x6144x4096:nt,16x6144x4096:nt,128x4096x14336:nt,130x4100x4096:nt
for i in 1 2; do
S=$SECONDS
timeout 100 $D/rgemm bench --dtype bf16 $KS --sizes $SZ --iters 10 --out $D/flushed-p$i > $D/flushed-p$i.log 2>&1; echo "flushed p$i rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
S=$SECONDS
timeout 100 $D/rgemm bench --dtype bf16 $KS --sizes $SZ --iters 10 --no-flush --out $D/warm > $D/warm.log 2>&1; echo "warm rc $? $((SECONDS-S)) s" >> $D/rc.txt
rm -f $D/rgemm
cp bundle-diag/run69.sh $D/script.sh
cd /tmp && tar czf $OUT/run69.tgz run69
