#!/usr/bin/env bash
# The one bench command of issue 5: `oomlab compare --strategies all` on the GPU, the
# PyTorch yardstick (benches/pytorch_yardstick.py) on the same model, data sizes and
# strategies, and the side-by-side table of ratios (benches/side_by_side.py).
# Run on the H200 through the device tool from the repository root:
#   COMMIT=<sha> BATCH=4096 STEPS=40 bash benches/yardstick.sh
# Carries .device-bin/ (oomlab.xz; optionally kernels.tar.xz, a kernel cache from an
# earlier call). Results: $OUT/results.tar.gz.
set -u
OUT=${OUT:?set OUT}
BATCH=${BATCH:-4096}
STEPS=${STEPS:-40}
source scripts/device-setup.sh
start_log compare

# The tiny config's own data: the generated 'mix' language, 200000 chars, seed 7.
$BIN dataset --chars 200000 > /tmp/text.txt
say "1. oomlab compare --strategies all --config tiny --batch $BATCH --max-steps $STEPS"
timeout ${COMPARE_TIMEOUT:-330} $BIN compare --strategies all --device cuda --config tiny --batch "$BATCH" \
  --max-steps "$STEPS" --out "$R/oomlab" > "$R/compare-stdout.txt" 2> "$R/compare-stderr.txt"
echo "exit: $?" >> "$LOG"
say "2. PyTorch yardstick, same model and sizes"
timeout ${PYTORCH_TIMEOUT:-150} python3 benches/pytorch_yardstick.py --data /tmp/text.txt --batch "$BATCH" \
  --steps "$STEPS" --out "$R/pytorch.json" > "$R/pytorch-stdout.txt" 2>&1
echo "exit: $?" >> "$LOG"
say "3. side by side"
python3 benches/side_by_side.py "$R/oomlab/compare.json" "$R/pytorch.json" > "$R/side-by-side.md" 2>> "$LOG"
say "done"
rm -f "$R"/oomlab/*/steps.jsonl
tar czf "$OUT/results.tar.gz" -C /tmp/res compare
tar cJf "$OUT/kernels.tar.xz" -C /tmp oomlab-kernels
cat "$LOG" "$R/compare-stdout.txt" "$R/pytorch-stdout.txt" "$R/side-by-side.md"
