#!/usr/bin/env bash
# Run 51: the real-shape suite for bf16 and f32 with the repository's table (built in), timed in turn.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run51; rm -rf $D; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
for dt in bf16 f32; do
  S=$SECONDS
  timeout 270 $R bench --suite real --dtype $dt --iters 10 --out $D/suite-$dt > $D/suite-$dt.log 2>&1; echo "suite $dt rc $? $((SECONDS-S)) s" >> $D/rc.txt
done
cp bundle-diag/run51.sh $D/script.sh
cd /tmp && tar czf $OUT/run51.tgz run51
