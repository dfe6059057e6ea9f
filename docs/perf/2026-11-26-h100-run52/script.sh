#!/usr/bin/env bash
# Run 52: run.sh bench with a filter that matches kernels of two element types (bf16 and f16).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run52; rm -rf $D; mkdir -p $D/out
OUT=$D/out RGEMM_BENCH_SIZES=2048,3072 RGEMM_BENCH_ITERS=10 timeout 200 bash bundle/run.sh bench 'streamk_tmast$' > $D/bench.log 2>&1; echo "bench rc $?" >> $D/rc.txt
cp bundle-diag/run52.sh $D/script.sh
cd /tmp && tar czf $OUT/run52.tgz run52
