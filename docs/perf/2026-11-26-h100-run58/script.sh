#!/usr/bin/env bash
# Run 58: (1) A/B of rung 15's paired rows of MN-major R (new) against the commit before it
# (old: one scalar load per fragment value), three processes of each, alternating, the four
# layouts' `_raw` kernels at 4096³ and 8192³ with cuBLAS timed in turn; (2) checks of the four at
# odd sizes and padded leading dimensions; sanitizers on them and on the persistent bf16 kernel
# (tile groups of 16); (3) the bf16 and f16 real-shape suites.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run58; rm -rf $D; mkdir -p $D/san
gunzip -c bundle-ab/rgemm-old.gz > $D/rgemm-old; chmod +x $D/rgemm-old
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader > $D/device.txt
R=$PWD/bundle/rgemm
F=sgemm_15_tf32x3_128x128x32_s4_raw
for l in nn nt tn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for sz in "1000 1004 1000" "333 4100 1020" "129 260 68" "4096 4096 4096"; do set -- $sz
    RGEMM_COMMIT=$(cat bundle/COMMIT) timeout 60 $R check --kernel $k --layout $l --m $1 --n $2 --k $3 >> $D/check.log 2>&1; echo "check $l $sz rc $?" >> $D/rc.txt
  done
  RGEMM_COMMIT=$(cat bundle/COMMIT) timeout 60 $R check --kernel $k --layout $l --m 300 --n 264 --k 136 --lda 140 --ldb 300 --ldc 270 >> $D/check.log 2>&1; echo "check $l ld rc $?" >> $D/rc.txt
done
for i in 1 2 3; do
  for v in old new; do
    if [ $v = old ]; then RR=$D/rgemm-old; export RGEMM_COMMIT=$(cat bundle-ab/COMMIT); else RR=$R; export RGEMM_COMMIT=$(cat bundle/COMMIT); fi
    timeout 100 $RR bench --dtype f32 --kernel $F --kernel ${F}_nt --kernel ${F}_tn --kernel ${F}_tt --sizes 4096:nn,4096:nt,4096:tn,4096:tt,8192:nn,8192:tn --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $?" >> $D/rc.txt
  done
done
rm -f $D/rgemm-old
export RGEMM_COMMIT=$(cat bundle/COMMIT)
S=$SECONDS
OUT=$D/san timeout 200 bash bundle/run.sh sanitize "${F}(_nt|_tn|_tt)?\$|bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast\$" > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
for t in bf16 f16; do
  S=$SECONDS
  timeout 170 $R bench --suite real --dtype $t --iters 10 --out $D/suite-$t > $D/suite-$t.log 2>&1; echo "suite $t rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
cp bundle-diag/run58.sh $D/script.sh
cd /tmp && tar czf $OUT/run58.tgz run58
