#!/usr/bin/env bash
# Run 154 (commit in bundle/COMMIT): every GPU test with rung 11's double-fragment entry in the
# catalog (its walks over every kernel take it) and the bench's round order.
set -u
rm -rf bundle; xz -dc bundle.txz | tar xf -
D=$OUT/run154; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 400 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
cp bundle-diag/run154.sh $D/script.sh
cat $D/rc.txt; grep "==" $D/tests-summary.txt | tail -3; grep -E "FAILED|panicked|^not ok" $D/tests.log | head -10
cd $OUT && tar czf run154.tgz run154 && rm -rf run154
