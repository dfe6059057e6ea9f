#!/usr/bin/env bash
# Rung 15 with a splitter warpgroup (_ws): checks, sanitizers, and in-turn timing against _raw.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run23; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
W=sgemm_15_tf32x3_128x128x32_s4_ws
F=sgemm_15_tf32x3_128x128x32_s4_raw
for L in nn nt tn tt; do k=$W; [ $L != nn ] && k=${k}_$L
  for s in "1001 1000 1000" "4096 4096 4096" "129 8 64" "3000 264 4104" "1 4 4"; do set -- $s
    timeout 60 $R run --kernel $k --m $1 --n $2 --k $3 --layout $L --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k $1x$2x$3: /" >> $D/checks.txt
  done
  timeout 60 $R run --kernel $k --m 300 --n 260 --k 520 --layout $L --batch 3 --iters 3 2>&1 | grep -E "check|error" | sed "s/^/$k batch 3: /" >> $D/checks.txt
  timeout 120 compute-sanitizer --tool memcheck $R run --kernel $k --m 1001 --n 1000 --k 1000 --layout $L --iters 1 > $D/memcheck-$L.txt 2>&1; echo "memcheck $L rc $? $(tail -1 $D/memcheck-$L.txt)" >> $D/checks.txt
  timeout 120 compute-sanitizer --tool racecheck $R run --kernel $k --m 260 --n 264 --k 200 --layout $L --iters 1 > $D/racecheck-$L.txt 2>&1; echo "racecheck $L rc $? $(tail -1 $D/racecheck-$L.txt)" >> $D/checks.txt
  timeout 120 compute-sanitizer --tool synccheck $R run --kernel $k --m 260 --n 264 --k 200 --layout $L --iters 1 > $D/synccheck-$L.txt 2>&1; echo "synccheck $L rc $? $(tail -1 $D/synccheck-$L.txt)" >> $D/checks.txt
done
for i in 1 2 3; do
  timeout 150 $R bench --kernel $F --kernel ${F}_nt --kernel ${F}_tn --kernel ${F}_tt --kernel $W --kernel ${W}_nt --kernel ${W}_tn --kernel ${W}_tt --sizes 4096,4096:nt,4096:tn,4096:tt,8192,8192:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1
done
timeout 100 $R bench --kernel $F --kernel $W --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/f32-sustained-p1 > $D/f32-sustained-p1.log 2>&1
cd /tmp && tar czf $OUT/run23.tgz run23
