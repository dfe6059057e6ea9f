#!/usr/bin/env bash
# Run 47: stream-K whose sharers wait for each other and each add up a share of the tile
# (cooperative launch). Sanitizers and checks over the stream-K kernels, persistent against
# stream-K in three processes timed in turn, then the bf16 rows retuned and the suite with them.
set -u
rm -rf bundle; tar xzf bundle.tgz
D=/tmp/run47; rm -rf $D; mkdir -p $D/san
cp dispatch/h100.tsv $D/dispatch.tsv
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT=$(cat bundle/COMMIT)
R=$PWD/bundle/rgemm
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/device.txt
S=$SECONDS
OUT=$D/san timeout 150 bash bundle/run.sh sanitize 'streamk_tmast' > $D/san.log 2>&1; echo "sanitize rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
for l in nn nt tn tt; do
  sfx=_$l; [ $l = nn ] && sfx=
  for dt in bgemm hgemm; do
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast$sfx --layout $l --m 3072 --n 3072 --k 3072 >> $D/check.log 2>&1; echo "check $dt $l 3072 rc $?" >> $D/rc.txt
    timeout 60 $R check --kernel ${dt}_14_wgmma_tma_128x256x64_s4_streamk_tmast$sfx --layout $l --m 128 --n 4096 --k 4096 --beta 0 >> $D/check.log 2>&1; echo "check $dt $l 128x4096x4096 rc $?" >> $D/rc.txt
  done
done
timeout 60 $R check --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --m 256 --n 256 --k 131072 >> $D/check.log 2>&1; echo "check 256x256x131072 rc $?" >> $D/rc.txt
echo "checks $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
for i in 1 2 3; do
  timeout 60 $R bench --dtype bf16 --kernel bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast --kernel bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast --sizes 3072x3072x3072,3072x3072x8192,1024x1024x16384,4096x4608x4096,2048x1024x8192,4096x4096x4096 --iters 20 --out $D/b-p$i > $D/b-p$i.log 2>&1; echo "bench p$i rc $?" >> $D/rc.txt
done
echo "bench $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 200 $R tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 120 $R bench --suite real --dtype bf16 --iters 10 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp bundle-diag/run47.sh $D/script.sh
cd /tmp && tar czf $OUT/run47.tgz run47
