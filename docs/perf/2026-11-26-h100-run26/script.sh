#!/usr/bin/env bash
set -u
tar xzf bundle.tgz
mkdir -p /tmp/t /tmp/l
OUT=/tmp/t bash bundle/run.sh tests > /tmp/t-run.log 2>&1; echo "tests rc $?" > /tmp/final-rc.txt
OUT=/tmp/l bash bundle/library.sh layouts > /tmp/l-run.log 2>&1; echo "layouts rc $?" >> /tmp/final-rc.txt
cp /tmp/final-rc.txt /tmp/t-run.log /tmp/l-run.log $OUT/
cd /tmp && tar czf $OUT/final.tgz t l
