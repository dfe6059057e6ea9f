#!/usr/bin/env bash
# Run 95: every GPU test on the final bundle of this stop (named barriers through LLVM's
# convergent intrinsic).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run95; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 420 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run95.sh $D/script.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
cd /tmp && tar czf $OUT/run95.tgz run95
