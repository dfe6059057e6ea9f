#!/usr/bin/env bash
# Run 127: rung 15 with panels and split-ahead planes in one load everywhere (N) or everywhere but
# `_raw`'s B in nn (N2), against A (3c02591); alternating processes, each timing its kernel and
# cuBLAS in turn, at 4096³ (and N2 against A at 8192³, 2048³, 1000³).
set -u
D=$OUT/run127; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH RGEMM_COMMIT=3c02591+
for b in A N N2; do gunzip -c bundle-ab/rgemm-$b.gz > /tmp/rgemm-$b; chmod +x /tmp/rgemm-$b; done
one() { # binary kernel size layout rep
  timeout 60 /tmp/rgemm-$1 bench --kernel sgemm_15_tf32x3_128x128x32_s4_$2 --sizes $3:$4 --iters 10 --out /tmp/o > $D/bench-$1-$5-$2-$3.log 2>&1
  echo "$1 rep$5 $2 $3 $4 rc=$? $(tail -1 /tmp/o/results.csv 2>/dev/null | cut -d, -f7,8,13,15)" >> $D/order.log
  cp /tmp/o/results.json $D/bench-$1-$5-$2-$3.json 2>/dev/null; rm -rf /tmp/o
}
for rep in 1 2; do
  for b in A N N2; do
    one $b raw 4096 nn $rep
    [ $b = N ] && continue
    one $b presplit 4096 nn $rep
    one $b presplit_tn 4096 tn $rep
    one $b raw_tt 4096 tt $rep
    one $b raw 2048 nn $rep
    one $b presplit 2048 nn $rep
    one $b raw 1000 nn $rep
    one $b presplit 1000 nn $rep
    one $b raw 8192 nn $rep
    one $b presplit 8192 nn $rep
    one $b presplit_tn 8192 tn $rep
  done
done
cp bundle-diag/run127.sh $D/script.sh
cat $D/order.log
cd $OUT && tar czf run127.tgz run127 && rm -rf run127
