#!/usr/bin/env bash
# Run 68: every GPU test on the committed bundle (decode rows per type; a GEMV row runs the GEMV
# that holds all M rows), then the automatic plans at a few rows.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run68; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
for mk in "2 4096" "3 4096" "4 4096" "4 4095" "8 4096"; do set -- $mk
  for t in bf16 f16 f32; do k=best-$t; [ $t = f32 ] && k=best
    timeout 20 bundle/rgemm run --kernel $k --m $1 --n 4096 --k $2 --layout nt --iters 5 > $D/best-$t-m$1-k$2.txt 2>&1; echo "best $t m$1 k$2 rc $?" >> $D/rc.txt
  done
done
cp bundle/COMMIT $D/; cp bundle-diag/run68.sh $D/script.sh
cd /tmp && tar czf $OUT/run68.tgz run68
