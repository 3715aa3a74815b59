#!/usr/bin/env bash
# The CPU's default linear layer (issue 29): burn's linear on the input seen as one
# matrix (oomlab's default on the CPU since this folder) against burn's `Linear`
# (`OOMLAB_LINEAR=burn`, the CPU's default before it), on this 2-core machine, release
# binary, from the repository root after `cargo build --release`:
#   bash docs/results/2026-12-04-cpu-linear-default/run.sh
# The tiny config, 40 steps per process, f32 and bf16, each variant 5 times, interleaved.
# Then: python3 docs/results/2026-12-04-cpu-linear-default/table.py (writes table.md).
set -u
DIR=docs/results/2026-12-04-cpu-linear-default
BIN=${OOMLAB:-target/release/oomlab}
mkdir -p "$DIR/runs"
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +dirty)";
  echo "cpus: $(nproc)"; lscpu | grep -E "Model name|L2 cache" | sed "s/  */ /g"; } > "$DIR/machine.txt"
for r in 1 2 3 4 5; do for p in f32 bf16; do for v in defaults burn; do
  case $v in
    defaults) e=();;
    burn) e=(OOMLAB_LINEAR=burn);;
  esac
  out=/tmp/cpu-linear-default/$v-$p-$r
  rm -rf "$out"
  env "${e[@]}" "$BIN" train --config tiny --device cpu --precision $p --max-steps 40 --json --quiet --out "$out" \
    > "$DIR/runs/$v-$p-$r.json" 2>/dev/null
  echo "$v $p $r exit $?"
done; done; done
