#!/usr/bin/env bash
# Run 98. (1) How fast rung 15's loop runs when S's low part comes from global memory through the
# copy engine (no split in shared memory, no split barrier): `_presplit` loads "lo" from A itself
# (wrong values, the speed bound only) against `_raw`, nn, 4096³ and 8192³, three processes.
# (2) compute-sanitizer memcheck and racecheck of the final barriers: rung 14's persistent TMA-store
# and stream-K kernels and rung 15's raw kernels in every layout.
set -u
tar xzf bundle.tgz
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run98; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4
for i in 1 2 3; do
  RGEMM_COMMIT=presplit-probe timeout 120 bundle/rgemm bench --kernel ${F}_raw --kernel ${F}_presplit --sizes 4096,8192 --iters 10 --out /tmp/r98/p$i > $D/p$i.log 2>&1
  echo "p$i rc=$?" >> $D/times.txt
  cp /tmp/r98/p$i/results.json $D/p$i.json
done
grep -h "presplit\|_raw " $D/p*.log | grep -v "^ *[0-9.]* s" | head -12
OUT=$D/san timeout 400 bash bundle/run.sh sanitize 'wgmma_tma_128x256x64_s4_(persistent|streamk)_tmast(_nt|_tn|_tt)?$|tf32x3_128x128x32_s4_raw(_nt|_tn|_tt)?$' > $D/sanitize.log 2>&1
echo "sanitize rc=$?" >> $D/times.txt
cat $D/times.txt; tail -5 $D/sanitize.log
cp bundle-diag/run98.sh $D/script.sh
cd $OUT && tar czf run98.tgz run98 && rm -rf run98
