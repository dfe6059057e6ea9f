#!/usr/bin/env bash
# Run 40: run.sh all over rung 15 on commit 6e83523 (every test, the sanitizers over rung 15).
set -u
tar xzf bundle.tgz
mkdir -p /tmp/v
OUT=/tmp/v timeout 560 bash bundle/run.sh all sgemm_15 > /tmp/v-run.log 2>&1; echo "all rc $?" > /tmp/v-rc.txt
cp /tmp/v-rc.txt /tmp/v-run.log bundle-diag/run40.sh /tmp/v/
cd /tmp && tar czf $OUT/run40.tgz v
