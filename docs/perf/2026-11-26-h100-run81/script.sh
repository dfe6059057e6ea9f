#!/usr/bin/env bash
# Run 81: every GPU test on the final bundle of this stop (the dispatch test asks at 3840³ now),
# and the f16 twins of the 128 × 192 entries checked again.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run81; rm -rf $D; mkdir -p $D/tests
S=$SECONDS
OUT=$D/tests timeout 300 bash bundle/run.sh tests > $D/tests.log 2>&1; echo "tests rc $? $((SECONDS-S)) s" >> $D/rc.txt
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
R=bundle/rgemm; P=hgemm_14_wgmma_tma
{
for k in ${P}_128x192x64_s4_tmast ${P}_128x192x64_s4_persistent_tmast; do
  timeout 60 $R check --kernel $k --m 1536 --n 1536 --k 1536 --beta 0; echo "rc=$?"
  timeout 60 $R check --kernel $k --m 130 --n 392 --k 264 --batch 3; echo "rc=$?"
done
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $R check --kernel ${P}_128x192x64_s4_tmast --kernel ${P}_128x192x64_s4_persistent_tmast --m 260 --n 392 --k 264 --beta 0 2>&1 | tail -2; echo "$tool rc=$?"
done
} > $D/checks-f16.txt 2>&1
cp bundle/COMMIT $D/; cp bundle-diag/run81.sh $D/script.sh
cd /tmp && tar czf $OUT/run81.tgz run81
