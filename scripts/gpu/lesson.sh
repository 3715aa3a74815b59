# Experiment for scripts/gpu/run.sh (issue 16): `oomlab lesson` on a GPU (device tool,
# repository root, or any NVIDIA machine with OOMLAB=path/to/oomlab): the `gpu` config
# at batch 96 under --vram-budget 7.5GiB (the lesson's defaults), every stage a fresh process, no
# questions.
#   COMMIT=<sha> bash scripts/gpu/run.sh lesson
start_log lesson
say "lesson: $BIN lesson --yes --device cuda --max-steps ${STEPS:-5} --out $R/lesson"
timeout ${LIMIT:-520} $BIN lesson --yes --device cuda --max-steps ${STEPS:-5} --out "$R/lesson" > "$R/lesson.stdout" 2> "$R/lesson.stderr"
echo "exit: $?" >> "$LOG"
find "$R" -name memory.csv -size +300k -delete
say done
