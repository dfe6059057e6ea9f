#!/usr/bin/env bash
# Run 55: the new f16 twins under the four sanitizers (run 54 matched none: the filter was
# an extended regex, which run.sh now reads as one), plus a filter that matches nothing.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run55; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'hgemm_14_wgmma_tma_(128x256x64_s4_(pairs|tmast)|128x128x64_s6(_pairs_nt)?|64x256x64_s4_pairs_nt|64x128x64_s4_pairs(_nt)?)$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
OUT=$D/none timeout 30 bash bundle/run.sh sanitize 'no_such_kernel' > $D/none.log 2>&1; echo "sanitize of nothing rc $?" >> $D/rc.txt
cp bundle-diag/run55.sh $D/script.sh
cd /tmp && tar czf $OUT/run55.tgz run55
