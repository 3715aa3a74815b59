#!/usr/bin/env bash
# The one runner of the GPU experiments in scripts/gpu/ (scripts/README.md lists them):
#   [COMMIT=<sha>] [OUT=<dir>] [SETTING=...] bash scripts/gpu/run.sh EXPERIMENT
# from the repository root, on the device machine (carrying .device-bin/) or on any machine
# with an NVIDIA GPU (OOMLAB=path/to/oomlab, default target/release/oomlab). It does what
# every experiment needs first (scripts/gpu/setup.sh: the binaries unpacked from
# .device-bin/ to /tmp/bin, $BIN, the environment, start_log and say), then runs
# scripts/gpu/EXPERIMENT.sh in this shell. Each experiment's header says what it
# measures, its settings and where its results go. An experiment that measures what a new
# user meets has the line `# runner: new-user` in its header: then nothing is set for
# oomlab (see setup.sh).
set -u
GPU_EXPERIMENT=${1:-}
GPU_SCRIPT=scripts/gpu/$GPU_EXPERIMENT.sh
if [ -z "$GPU_EXPERIMENT" ] || [ "$GPU_EXPERIMENT" = run ] || [ "$GPU_EXPERIMENT" = setup ] || [ ! -f "$GPU_SCRIPT" ]; then
  echo "usage: bash scripts/gpu/run.sh EXPERIMENT (from the repository root), EXPERIMENT one of:" >&2
  for f in scripts/gpu/*.sh; do
    n=$(basename "$f" .sh)
    [ "$n" = run ] || [ "$n" = setup ] || echo "  $n" >&2
  done
  exit 2
fi
shift
grep -q '^# runner: new-user' "$GPU_SCRIPT" && GPU_SETUP=new-user
source scripts/gpu/setup.sh
source "$GPU_SCRIPT"
