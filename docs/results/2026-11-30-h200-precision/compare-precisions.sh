#!/usr/bin/env bash
# GPU evidence for mixed precision, pure half and preallocation (issue 6), run on the
# H200 through the device tool from the repository root:
#   COMMIT=<sha> bash docs/results/2026-11-30-h200-precision/compare-precisions.sh
# Carries .device-bin/ (oomlab.xz, optionally kernels.tar.xz; see scripts/gpu/setup.sh).
# 1. `oomlab compare` of f32 vs AMP bf16 / f16 vs pure half bf16 / f16 (tiny GPT, batch
#    2048, 40 steps), 2. one run with --memory-mode prealloc. Results: $OUT/results.tar.gz,
#    the kernel cache: $OUT/kernels.tar.xz.
# Kept here as the command of this folder's first calls (README, "Cold kernels"); the
# committed results came from `bash scripts/gpu/run.sh prealloc`.
set -u
OUT=${OUT:?set OUT}
BATCH=${BATCH:-2048}
STEPS=${STEPS:-40}
source scripts/gpu/setup.sh
start_log precision

say "1. oomlab compare --strategies baseline,amp-bf16,half-bf16,amp-f16,half-f16 --config tiny --batch $BATCH --max-steps $STEPS"
timeout ${COMPARE_TIMEOUT:-420} $BIN compare --strategies baseline,amp-bf16,half-bf16,amp-f16,half-f16 \
  --device cuda --config tiny --batch "$BATCH" --max-steps "$STEPS" --out "$R/compare" \
  > "$R/compare-stdout.txt" 2> "$R/compare-stderr.txt"
echo "exit: $?" >> "$LOG"
say "2. one run with --memory-mode prealloc (0.9 of the free VRAM)"
timeout ${PREALLOC_TIMEOUT:-90} $BIN train --device cuda --config tiny --batch "$BATCH" --max-steps 20 \
  --memory-mode prealloc --out "$R/prealloc" > /dev/null 2>> "$LOG"
echo "exit: $?" >> "$LOG"
say "done"
rm -f "$R"/compare/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" precision
tar cJf "$OUT/kernels.tar.xz" -C /tmp oomlab-kernels
cat "$LOG" "$R/compare-stdout.txt"
tail -5 "$R"/compare/*.stderr.txt
cat "$R/prealloc/summary.txt" 2>/dev/null | head -40
