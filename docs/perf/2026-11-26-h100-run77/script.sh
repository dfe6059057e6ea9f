#!/usr/bin/env bash
# A/B: rung 15 at HEAD (base); with K-tiles in pairs, one group of 24 wgmmas per pair (pr).
# Checks and sanitizers of pr in nn and tt (no spills there), then processes alternating, in turn
# with the best cuBLAS.
set -u
cd bundle-ab && for v in base pr; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=$OUT/run77; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
B=bundle-ab/rgemm-pr
{
for l in nn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  timeout 60 $B check --kernel $k --layout $l --m 1000 --n 1000 --k 1000; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 260 --n 136 --k 520 --batch 3 --beta 0; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 132 --n 258 --k 203 --ldb 260; echo "rc=$?"
  timeout 60 $B check --kernel $k --layout $l --m 4096 --n 4096 --k 4096; echo "rc=$?"
done
for l in nn tt; do
  k=$F; [ $l != nn ] && k=${F}_$l
  for tool in memcheck synccheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool $B check --kernel $k --layout $l --m 136 --n 260 --k 200 2>&1 | tail -3; echo "$tool $l rc=$?"
  done
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in base pr; do
  s=$SECONDS
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tt --sizes 4096,8192,4096:tt --iters 10 --out /tmp/r77/$v-p$i > $D/$v-p$i.log 2>&1
  echo "$v p$i rc=$? $((SECONDS - s)) s" | tee -a $D/times.txt
  cp /tmp/r77/$v-p$i/results.json $D/$v-p$i.json
done; done
cp bundle-diag/run77.sh $D/script.sh
