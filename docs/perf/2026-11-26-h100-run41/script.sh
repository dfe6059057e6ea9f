#!/usr/bin/env bash
# Run 41: run.sh all over the stream-K kernels (every test; the four sanitizers over them; their bench).
set -u
tar xzf bundle.tgz
mkdir -p /tmp/r41
OUT=/tmp/r41 timeout 570 bash bundle/run.sh all streamk > /tmp/r41-run.log 2>&1; echo "all rc $?" > /tmp/r41-rc.txt
cp /tmp/r41-rc.txt /tmp/r41-run.log bundle-diag/run41.sh /tmp/r41/
cd /tmp && tar czf $OUT/run41.tgz r41
