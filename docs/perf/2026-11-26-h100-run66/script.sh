#!/usr/bin/env bash
# Run 66: every GPU test on the committed bundle (the narrow nt configurations among the catalog's
# kernels), then the four sanitizers over the six new entries.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run66; rm -rf $D; mkdir -p $D/tests $D/san
S=$SECONDS
OUT=$D/tests timeout 270 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
OUT=$D/san timeout 240 bash bundle/run.sh sanitize '(64x64x64_s12|64x128x64_s8)' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle/COMMIT $D/; cp bundle-diag/run66.sh $D/script.sh
cd /tmp && tar czf $OUT/run66.tgz run66
