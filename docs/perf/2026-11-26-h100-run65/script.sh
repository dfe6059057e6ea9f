#!/usr/bin/env bash
# Run 65: deeper rings and 64 × 64 tiles for the linear layers of few rows (bf16): the bf16 rows
# of the dispatch table retuned with three new candidates (64x128x64_s8_pairs_nt,
# 64x64x64_s12_pairs_nt, 64x64x64_s12_tmast_nt), then the real-shape suite on that table.
set -u
D=/tmp/run65; rm -rf $D; mkdir -p $D
gunzip -c bundle-ab/rgemm-narrow.gz > $D/rgemm; chmod +x $D/rgemm
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cublas")]' 2>/dev/null); do
  [ -d "$d" ] && LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
export LD_LIBRARY_PATH
export RGEMM_COMMIT="$(cat bundle-ab/COMMIT-narrow) + three narrow nt entries (experiment)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $D/gpu.txt
P=bgemm_14_wgmma_tma
S=$SECONDS
timeout 60 $D/rgemm bench --dtype bf16 --kernel ${P}_64x128x64_s8_pairs_nt --kernel ${P}_64x64x64_s12_pairs_nt --kernel ${P}_64x64x64_s12_tmast_nt --kernel ${P}_128x128x64_s6_pairs_nt --sizes 16x4096x4096:nt,128x4096x4096:nt,128x6144x4096:nt,16x6144x4096:nt,1000x1000x1000:nt,130x4100x4096:nt --iters 10 --out $D/direct > $D/direct.log 2>&1; echo "direct rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
timeout 200 $D/rgemm tune --suite real --dtype bf16 --iters 5 --warmup 2 --table $D/dispatch.tsv --json $D/tune-bf16.json > $D/tune-bf16.log 2>&1; echo "tune rc $? $((SECONDS-S)) s" >> $D/rc.txt
S=$SECONDS
RGEMM_DISPATCH_TABLE=$D/dispatch.tsv timeout 150 $D/rgemm bench --suite real --dtype bf16 --out $D/suite-bf16 > $D/suite-bf16.log 2>&1; echo "suite rc $? $((SECONDS-S)) s" >> $D/rc.txt
rm -f $D/rgemm
cp bundle-diag/run65.sh $D/script.sh
cd /tmp && tar czf $OUT/run65.tgz run65
