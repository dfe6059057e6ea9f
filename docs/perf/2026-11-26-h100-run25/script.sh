#!/usr/bin/env bash
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run25; mkdir -p $D
W=sgemm_15_tf32x3_128x128x32_s4_ws
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2; do
  timeout 150 $R bench --kernel $F --kernel ${F}_tn --kernel $W --kernel ${W}_tn --sizes 4096,4096:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
for k in $W ${W}_tn; do L=nn; [ $k != $W ] && L=tn
  timeout 150 ncu --set full -k "regex:^$k\$" --launch-count 1 -o $D/$L $R run --kernel $k --m 4096 --n 4096 --k 4096 --layout $L --iters 1 > $D/ncu-$L.log 2>&1
  ncu -i $D/$L.ncu-rep --page details --csv --print-units base > $D/details-ws-$L.csv 2>&1
  ncu -i $D/$L.ncu-rep --page source --csv --print-source sass > $D/source-ws-$L.csv 2>&1
done
rm -f $D/*.ncu-rep
cd /tmp && tar czf $OUT/run25.tgz run25
