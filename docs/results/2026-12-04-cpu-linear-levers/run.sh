#!/usr/bin/env bash
# Issue 29's linear-layer levers on the CPU (2-core machine, release binary), from the
# repository root after `cargo build --release`:
#   bash docs/results/2026-12-04-cpu-linear-levers/run.sh
# The tiny config, 40 steps per process, f32 and bf16, each variant 3 times, interleaved:
#   defaults:   burn's Linear on [batch, seq, k] inputs (its weight gradient a batched
#               product summed over the batch)
#   2d:         OOMLAB_LINEAR=2d, burn's linear on the input as one [batch*seq, k] matrix
#   2d-split:   OOMLAB_LINEAR=2d OOMLAB_COLUMN_SUMS=split
#   custom:     OOMLAB_CUBLAS=1, oomlab's product operation (burn's matmul on the CPU)
# Then: python3 docs/results/2026-12-04-cpu-linear-levers/table.py (writes table.md).
set -u
DIR=docs/results/2026-12-04-cpu-linear-levers
BIN=${OOMLAB:-target/release/oomlab}
mkdir -p "$DIR/runs"
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +dirty)";
  echo "cpus: $(nproc)"; lscpu | grep -E "Model name|L2 cache" | sed "s/  */ /g"; } > "$DIR/machine.txt"
for r in 1 2 3; do for p in f32 bf16; do for v in defaults 2d 2d-split custom; do
  case $v in
    defaults) e=();;
    2d) e=(OOMLAB_LINEAR=2d);;
    2d-split) e=(OOMLAB_LINEAR=2d OOMLAB_COLUMN_SUMS=split);;
    custom) e=(OOMLAB_CUBLAS=1);;
  esac
  out=/tmp/cpu-linear-levers/$v-$p-$r
  rm -rf "$out"
  env "${e[@]}" "$BIN" train --config tiny --device cpu --precision $p --max-steps 40 --json --quiet --out "$out" \
    > "$DIR/runs/$v-$p-$r.json" 2>/dev/null
  echo "$v $p $r exit $?"
done; done; done
