#!/usr/bin/env bash
# Rung 15 with two wgmma groups per K-tile (_halves): checks, sanitizers, in-turn timing against _raw.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run29; mkdir -p $D
H=sgemm_15_tf32x3_128x128x32_s4_halves
F=sgemm_15_tf32x3_128x128x32_s4_raw
for L in nn tn; do k=$H; [ $L != nn ] && k=${k}_$L
  for s in "1000 1000 1000" "4096 4096 4096" "128 8 64" "3000 264 4104" "8 4 4" "260 136 520"; do set -- $s
    timeout 60 $R run --kernel $k --m $1 --n $2 --k $3 --layout $L --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k $1x$2x$3: /" >> $D/checks.txt
  done
  timeout 60 $R run --kernel $k --m 300 --n 260 --k 520 --layout $L --batch 3 --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k batch 3: /" >> $D/checks.txt
  for tool in memcheck racecheck synccheck; do
    timeout 120 compute-sanitizer --tool $tool $R run --kernel $k --m 1000 --n 1000 --k 1000 --layout $L --iters 1 > $D/$tool-$L.txt 2>&1; echo "$tool $L rc $? $(tail -1 $D/$tool-$L.txt)" >> $D/checks.txt
  done
done
for i in 1 2 3; do
  timeout 150 $R bench --kernel $F --kernel ${F}_tn --kernel $H --kernel ${H}_tn --sizes 4096,8192,4096:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
cd /tmp && tar czf $OUT/run29.tgz run29
