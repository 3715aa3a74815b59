#!/bin/bash
# Pure f16 on the CPU (tiny config, 80 steps) at seeds 1-6: first and final loss of each.
#   bash docs/results/2026-12-05-cpu-pure-f16-bisect/seeds.sh [BIN] > .../seeds.txt
BIN=${1:-target/release/oomlab}
echo "binary: $BIN ($(git rev-parse --short HEAD)); oomlab train --device cpu --strategy half --precision f16 --max-steps 80 --set train.seed=N"
for seed in 1 2 3 4 5 6; do
  dir=$(mktemp -d)
  "$BIN" train --device cpu --strategy half --precision f16 --max-steps 80 --set train.seed=$seed --quiet --out "$dir/run" > /dev/null 2>&1
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('seed', sys.argv[2], 'first_loss', d['first_loss'], 'final_loss', d['final_loss'])" "$dir/run/summary.json" $seed
  rm -rf "$dir"
done
