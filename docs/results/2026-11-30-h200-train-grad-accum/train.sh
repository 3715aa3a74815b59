#!/usr/bin/env bash
# GPU evidence for `oomlab train` (issue 2), run on the H200 through the device tool:
#   bash docs/results/2026-11-30-h200-train-grad-accum/train.sh
# (with OUT set to the folder that comes back)
# LD_LIBRARY_PATH is deliberately left without the CUDA toolkit: oomlab must find NVRTC
# (/usr/local/cuda-*/lib64 there) by itself.
set -u
BIN=${BIN:-target/release/oomlab}
OUT=${OUT:?set OUT to the results folder}
export CUBECL_AUTOTUNE_LEVEL=minimal
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  echo "commit: ${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "CUBECL_AUTOTUNE_LEVEL=$CUBECL_AUTOTUNE_LEVEL"
  echo "command: $BIN train --config gpu --strategy grad-accum --steps 4 --max-steps 40 --out \$OUT/run"
} > "$OUT/environment.txt" 2>&1
"$BIN" train --config gpu --strategy grad-accum --steps 4 --max-steps 40 --out "$OUT/run" \
  > "$OUT/stdout.txt" 2> "$OUT/stderr.txt"
echo "exit: $?" >> "$OUT/environment.txt"
cat "$OUT/environment.txt" "$OUT/stderr.txt" "$OUT/stdout.txt"
