# Experiment for scripts/gpu/run.sh (issue 16): every compare row on the `gpu` config on a
# GPU (device tool, repository root, or any NVIDIA machine with OOMLAB=path/to/oomlab),
# each in a fresh process, with the estimate's prediction beside each measured peak; no
# budget.
#   COMMIT=<sha> bash scripts/gpu/run.sh compare
start_log compare-gpu
say "compare: $BIN compare --config gpu --device cuda --max-steps ${STEPS:-5} --brief"
timeout ${LIMIT:-500} $BIN compare --config gpu --device cuda --max-steps ${STEPS:-5} --brief --quiet --out "$R/compare" > "$R/compare.stdout" 2> "$R/compare.stderr"
echo "exit: $?" >> "$LOG"
find "$R" -name memory.csv -size +300k -delete
say done
