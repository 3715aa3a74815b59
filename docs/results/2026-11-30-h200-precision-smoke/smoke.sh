#!/usr/bin/env bash
# Smoke run of the final issue-6 code on the H200 (device tool, repository root):
#   COMMIT=<sha> bash docs/results/2026-11-30-h200-precision-smoke/smoke.sh
# AMP bf16 with --memory-mode prealloc, and AMP f16 with grad-accum, 10 steps each.
# Carries .device-bin/ (oomlab.xz, kernels.tar.xz). Results: $OUT/results.tar.gz.
set -u
OUT=${OUT:?set OUT}
source scripts/gpu/setup.sh
start_log smoke
echo "### train --precision bf16 --memory-mode prealloc" >> "$LOG"
timeout 120 $BIN train --device cuda --config tiny --batch 2048 --max-steps 10 --precision bf16 \
  --memory-mode prealloc --out "$R/amp-bf16-prealloc" > /dev/null 2>> "$LOG"; echo "exit: $?" >> "$LOG"
echo "### train --precision f16 --strategy grad-accum --steps 4" >> "$LOG"
timeout 120 $BIN train --device cuda --config tiny --batch 2048 --max-steps 10 --precision f16 \
  --strategy grad-accum --steps 4 --out "$R/amp-f16-grad-accum" > /dev/null 2>> "$LOG"; echo "exit: $?" >> "$LOG"
rm -f "$R"/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" smoke
cat "$LOG"; cat "$R"/*/summary.txt | grep -E "precision|preallocation|loss|steady|steps"
