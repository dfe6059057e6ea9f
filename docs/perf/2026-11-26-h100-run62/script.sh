#!/usr/bin/env bash
# Run 62: every test on the final code (run.sh tests).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run62; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 400 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run62.sh $D/script.sh
cd /tmp && tar czf $OUT/run62.tgz run62
