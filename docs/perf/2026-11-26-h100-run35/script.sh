#!/usr/bin/env bash
# Run 35 (commit 618aae2): the fastest kernels of each type in all four layouts (library.sh
# layouts), then rung 15 in five processes timed in turn and two timed alone after 2 s.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
D=/tmp/run35; mkdir -p $D/l
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
OUT=$D/l timeout 240 bash bundle/library.sh layouts > $D/layouts-run.log 2>&1; echo "layouts rc $?" >> $D/rc.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
for i in 1 2 3 4 5; do
  timeout 100 $R bench --kernel $F --kernel ${F}_tn --sizes 4096,8192,4096:tn,8192:tn --iters 10 --out $D/f32-p$i > $D/f32-p$i.log 2>&1; echo "f32-p$i rc $?" >> $D/rc.txt
done
for i in 1 2; do
  timeout 100 $R bench --kernel $F --sizes 4096,8192 --iters 10 --sustain 2000 --out $D/f32-sustained-p$i > $D/f32-sustained-p$i.log 2>&1; echo "f32-sustained-p$i rc $?" >> $D/rc.txt
done
cp bundle-diag/run35.sh $D/script.sh
cd /tmp && tar czf $OUT/run35.tgz run35
