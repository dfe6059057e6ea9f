#!/usr/bin/env bash
# Run 122 (commit in bundle/COMMIT): every GPU test with the new row copies, then the real-shape
# suites for bf16 and f32 with the built-in dispatch table.
set -u
tar xzf bundle.tgz
D=$OUT/run122; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
cp $D/tests/summary.txt $D/tests-summary.txt 2>/dev/null; rm -rf $D/tests
OUT=$D timeout 290 bash bundle/library.sh suite > $D/library.log 2>&1; echo "suite rc=$?" >> $D/rc.txt
rm -f $D/suite-*/chart.png
cat $D/rc.txt; grep "==" $D/tests.log | tail -2; grep -E "FAILED|panicked" $D/tests.log | head -5; tail -12 $D/library.log
cp bundle-diag/run122.sh $D/script.sh
cd $OUT && tar czf run122.tgz run122 && rm -rf run122
