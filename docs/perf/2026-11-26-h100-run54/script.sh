#!/usr/bin/env bash
# Run 54: the new f16 twins: sanitizers and the catalog-wide GPU test over them, then the f16
# real-shape suite (the bf16 rows' f16 twins).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run54; rm -rf $D; mkdir -p $D/san
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'hgemm_14_wgmma_tma_(128x256x64_s4_(pairs|tmast)|128x128x64_s6(_pairs_nt)?|64x256x64_s4_pairs_nt|64x128x64_s4_pairs(_nt)?)$' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 240 $R bench --suite real --dtype f16 --iters 10 --out $D/suite-f16 > $D/suite-f16.log 2>&1; echo "suite f16 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run54.sh $D/script.sh
cd /tmp && tar czf $OUT/run54.tgz run54
