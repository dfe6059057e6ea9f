#!/usr/bin/env bash
# Run 38: every test, the GPU ones included, on commit c808797.
set -u
tar xzf bundle.tgz
mkdir -p /tmp/t
OUT=/tmp/t timeout 560 bash bundle/run.sh tests > /tmp/t-run.log 2>&1; echo "tests rc $?" > /tmp/t/rc.txt
cp /tmp/t-run.log bundle-diag/run38.sh /tmp/t/
cd /tmp && tar czf $OUT/run38.tgz t
