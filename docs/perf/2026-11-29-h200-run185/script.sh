#!/usr/bin/env bash
# Run 185 (commit 31dfe0d, as run 184): the 40 cases of the evaluation suite that run 184 did not
# reach in its time (tiny K, random aligned and unaligned: the suite's last classes), bf16, with
# the automatic choice; then the whole evaluation suite in f32.
set -u
rm -rf quick; xz -dc quick.txz | tar xf -
D=$OUT/run185; mkdir -p $D
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
S=$SECONDS; timeout 150 quick/rgemm bench --kernel best-bf16 --iters 10 --sizes 7907x6764x5,3208x14590x16:nt,14561x2723x4:tn,1369x6524x10:tt,4491x594x12,5457x1093x1:nt,5214x5940x7:tn,5837x16361x14:tt,4584x96x264,1032x152x3152:nt,6x56x40x11768:tn,24x1568x8920:tt,10x11112x56x48,3216x48x88:nt,4176x296x40:tn,72x3576x248:tt,1368x16x3096,5x8x5304x632:nt,48x14024x96:tn,4x320x88x3544:tt,696x72x12304,944x136x4576:nt,3240x328x15984:tn,3x48x8x96:tt,6689x23x3502,739x1x89:nt,3x973x100:tn,3x38x2122:tt,42x16x55,3652x2588x10:nt,178x80x864:tn,5826x28x21:tt,3x1x11610,8187x22x3487:nt,8x11885x2:tn,300x48x1112:tt,1x66x2,13x4x267:nt,51x20x116:tn,85x203x310:tt --out /tmp/eval-bf16-rest > $D/eval-bf16-rest.log 2>&1; echo "eval bf16 rest rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-bf16-rest/results.json $D/eval-bf16-rest.json 2>/dev/null
S=$SECONDS; timeout 400 quick/rgemm bench --suite eval --dtype f32 --iters 10 --out /tmp/eval-f32 > $D/eval-f32.log 2>&1; echo "eval f32 rc $? $((SECONDS-S)) s" >> $D/rc.txt
cp /tmp/eval-f32/results.json $D/eval-f32.json 2>/dev/null
cp bundle-diag/run185.sh $D/script.sh
cat $D/rc.txt; grep -A14 "per class" $D/eval-f32.log | head -16
cd $OUT && tar czf run185.tgz run185 && rm -rf run185
