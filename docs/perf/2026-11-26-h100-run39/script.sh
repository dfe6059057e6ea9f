#!/usr/bin/env bash
# Run 39: rung 15's tn with S (A stored K×M) loaded from global memory into registers a K-tile
# ahead and written transposed by the split (g), against commit c808797, where the copy engine
# brings S and the split reads it back (a). Checks and sanitizers of g's tn; A/B in turn.
set -u
cd bundle-ab && for v in a g; do gunzip -kf rgemm-$v.gz; chmod +x rgemm-$v; done && cd ..
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
D=/tmp/run39; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
F=sgemm_15_tf32x3_128x128x32_s4_raw
G=bundle-ab/rgemm-g
{
for args in "--m 4096 --n 4096 --k 4096" "--m 130 --n 77 --k 99 --lda 132 --ldb 80" "--m 1001 --n 1003 --k 1005 --lda 1004 --ldb 1004" "--m 131 --n 140 --k 333 --lda 132 --batch 3" "--m 7 --n 9 --k 5 --lda 8 --ldb 12" "--m 3000 --n 264 --k 4104"; do
  $G check --kernel ${F}_tn --layout tn $args
done
for tool in memcheck racecheck synccheck initcheck; do
  echo "== $tool"; compute-sanitizer --tool $tool $G check --kernel ${F}_tn --layout tn --m 520 --n 300 --k 260 --lda 520 --ldb 300 2>&1 | tail -2
done
} > $D/checks.txt 2>&1
for i in 1 2 3; do for v in a g; do
  RGEMM_COMMIT=$v timeout 100 bundle-ab/rgemm-$v bench --kernel $F --kernel ${F}_tn --sizes 4096,4096:tn,8192:tn --iters 10 --out $D/$v-p$i > $D/$v-p$i.log 2>&1; echo "$v p$i rc $?" >> $D/rc.txt
done; done
cp bundle-ab/script.sh $D/
cd /tmp && tar czf $OUT/run39.tgz run39
