# Experiment for scripts/gpu/run.sh: auto-halve's options (issue 4): --search bisect and
# --keep-effective-batch false, 16384 samples of the tiny GPT under --vram-budget 4GiB.
# Run on the H200 through the device tool from the repository root:
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh auto-halve-options
# Carries .device-bin/ (oomlab.xz; kernels.tar.xz from an earlier call, optional).
OUT=${OUT:?set OUT}
start_log bisect
TINY="--device cuda --config tiny --batch 16384 --max-steps 20 --strategy auto-halve --vram-budget 4GiB"
say "1. --search bisect"
timeout ${BISECT_TIMEOUT:-300} $BIN train $TINY --search bisect --out "$R/bisect" > "$R/bisect.stdout" 2> "$R/bisect.stderr"
echo "exit: $?" >> "$LOG"
say "2. --keep-effective-batch false"
timeout ${PLAIN_TIMEOUT:-120} $BIN train $TINY --keep-effective-batch false --out "$R/plain" > "$R/plain.stdout" 2> "$R/plain.stderr"
echo "exit: $?" >> "$LOG"
say "done"
rm -f "$R"/*/steps.jsonl
[ -n "${OUT:-}" ] && tar czf "$OUT/results.tar.gz" -C "${RESULTS:-/tmp/res}" bisect
cat "$LOG"
for f in bisect plain; do sed -n '/│ # /,/└/p' "$R/$f.stdout"; grep "│ batch\|│ steps\|time to first" "$R/$f.stdout"; tail -n 2 "$R/$f.stderr"; done
