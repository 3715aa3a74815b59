#!/usr/bin/env bash
# Step time and heap of the training step's variants on the CPU (issue 29's levers), each
# a set of environment variables, in fresh processes, interleaved, from the repository root
# after `cargo build --release`:
#   bash scripts/cpu-variants.sh DIR REPEATS NAME=[VAR=VALUE[,VAR=VALUE...]] ...
# e.g. bash scripts/cpu-variants.sh docs/results/X 5 defaults= burn=OOMLAB_LINEAR=burn
# A setting `bin=PATH` runs that variant with another oomlab binary (e.g. an earlier
# commit's build: before=bin=/tmp/oomlab-613997e).
# The tiny config, 40 steps per process, f32 and bf16. Writes DIR/runs/NAME-PRECISION-R.json
# (the run's --json summary), DIR/machine.txt and DIR/variants.txt (the names in order);
# then `python3 scripts/cpu-variants-table.py DIR BASE` writes DIR/table.md.
set -u
DIR=$1 REPEATS=$2
shift 2
BIN=${OOMLAB:-target/release/oomlab}
mkdir -p "$DIR/runs"
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +dirty)";
  echo "cpus: $(nproc)"; lscpu | grep -E "Model name|L2 cache" | sed "s/  */ /g"; } > "$DIR/machine.txt"
printf '%s\n' "${@%%=*}" > "$DIR/variants.txt"
for r in $(seq 1 "$REPEATS"); do for p in f32 bf16; do for v in "$@"; do
  name=${v%%=*} vars=${v#*=}
  IFS=, read -r -a e <<< "$vars"
  bin=$BIN settings=()
  for setting in "${e[@]}"; do
    case $setting in bin=*) bin=${setting#bin=};; *) settings+=("$setting");; esac
  done
  out=$(mktemp -d)
  env "${settings[@]}" "$bin" train --config tiny --device cpu --precision $p --max-steps 40 --json --quiet --out "$out/run" \
    > "$DIR/runs/$name-$p-$r.json" 2>/dev/null
  echo "$name $p $r exit $?"
  rm -rf "$out"
done; done; done
