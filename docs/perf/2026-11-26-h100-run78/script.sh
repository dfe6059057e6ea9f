#!/usr/bin/env bash
# Run 78: the bf16 rows of the dispatch table retuned with the 8-stage 64 × 128 nn entries among
# the candidates (the suite's deep-K and small cases may take them, directly or split), then the
# real-shape suite on that table.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run78; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
cp dispatch/h100.tsv $D/dispatch.tsv
S=$SECONDS
timeout 220 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 $R bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run78.sh $D/script.sh
cd /tmp && tar czf $OUT/run78.tgz run78
