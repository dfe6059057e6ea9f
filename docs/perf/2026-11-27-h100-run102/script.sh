#!/usr/bin/env bash
# Run 102 (commit in bundle/COMMIT): every GPU test, then the fastest kernels of each type in all
# four layouts at 4096³ and 8192³ (library.sh layouts; f32 now with rung 15's split-ahead kernels).
set -u
tar xzf bundle.tgz
D=$OUT/run102; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1
echo "tests rc=$?" >> $D/rc.txt
OUT=$D/l timeout 250 bash bundle/library.sh layouts > $D/layouts-run.log 2>&1; echo "layouts rc $?" >> $D/rc.txt
cp $D/l/layouts-f32/results.json $D/layouts-f32.json 2>/dev/null; cp $D/l/layouts-bf16/results.json $D/layouts-bf16.json 2>/dev/null
cat $D/rc.txt; grep "==" $D/tests.log | tail -3; grep -E "%" $D/layouts-run.log | grep -v "^ *[0-9.]* s" | head -60
cp bundle-diag/run102.sh $D/script.sh
cd $OUT && tar czf run102.tgz run102 && rm -rf run102
