#!/usr/bin/env bash
set -u
tar xzf bundle.tgz
mkdir -p /tmp/v
OUT=/tmp/v timeout 540 bash bundle/run.sh all sgemm_15 > /tmp/v-run.log 2>&1; echo "all rc $?" > /tmp/v-rc.txt
cp /tmp/v-rc.txt /tmp/v-run.log $OUT/
cd /tmp && tar czf $OUT/verify.tgz v
