#!/usr/bin/env bash
# Run 46: stream-K in every layout. Sanitizers over the new kernels, checks where they cut, then
# the bf16 dispatch rows retuned with them as candidates (into a copy of the repository's table).
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run46; rm -rf $D; mkdir -p $D/san
cp dispatch/h100.tsv $D/dispatch.tsv
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
S=$SECONDS
OUT=$D/san timeout 170 bash bundle/run.sh sanitize 'streamk_tmast_' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
for l in nt tn tt; do
  for dt in bgemm hgemm; do
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast_$l --layout $l --m 3072 --n 3072 --k 3072 >> $D/check.log 2>&1; echo "check $dt $l 3072 rc $?" >> $D/rc.txt
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast_$l --layout $l --m 128 --n 4096 --k 4096 --beta 0 >> $D/check.log 2>&1; echo "check $dt $l 128x4096x4096 rc $?" >> $D/rc.txt
  done
done
echo "checks $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 330 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run46.sh $D/script.sh
cd /tmp && tar czf $OUT/run46.tgz run46
