#!/usr/bin/env bash
# Run 53: the new 64 x 128 nn configuration: checks and sanitizers, then the bf16 rows retuned
# with it among the candidates (into a copy of the repository's table) and the suite with them.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run53; rm -rf $D; mkdir -p $D/san
cp dispatch/h100.tsv $D/dispatch.tsv
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
K=bgemm_14_wgmma_tma_64x128x64_s4_pairs
S=$SECONDS
OUT=$D/san timeout 100 bash bundle/run.sh sanitize "${K}\$" > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
for sz in "1000 1000 1000" "4096 4096 4096" "333 4099 1021"; do set -- $sz
  timeout 60 $R check --kernel $K --m $1 --n $2 --k $3 --skip-unsupported >> $D/check.log 2>&1; echo "check $sz rc $?" >> $D/rc.txt
done
for i in 1 2 3; do
  timeout 60 $R bench --dtype bf16 --kernel $K --kernel bgemm_14_wgmma_tma_128x128x64_s6 --sizes 1000x1000x1000,1024x1024x1024,2048x2048x1024 --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bench p$i rc $?" >> $D/rc.txt
done
S=$SECONDS
timeout 200 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 $R bench --suite real --dtype bf16 --iters 10 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run53.sh $D/script.sh
cd /tmp && tar czf $OUT/run53.tgz run53
