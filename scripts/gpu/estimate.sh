# Experiment for scripts/gpu/run.sh (issue 13): `oomlab estimate` checked against measured
# runs on a GPU (device tool, repository root, or any NVIDIA machine with OOMLAB=path/to/oomlab):
#   COMMIT=<sha> bash scripts/gpu/run.sh estimate
# Parts (PARTS, default "compare calibrate bisect"; "h200" for the large config):
#   compare    `oomlab compare --config gpu`: every row in a fresh process, the predicted
#              peak beside the NVML peak (compare.json: predicted_peak_bytes).
#   calibrate  `oomlab estimate --config gpu --calibrate --device cuda`: two probe runs per
#              row at a quarter and half of its micro-batch, peak = a + b x micro-batch.
#   bisect     auto-halve --search bisect under --vram-budget: the largest micro-batch it
#              finds, beside the estimate's (analytic and calibrated).
#   h200       the `h200` config: baseline, grad-accum and amp-bf16 (compare), calibrated.
# Results in $RESULTS/estimate (default /tmp/res/estimate); the tables are made from them by
# scripts/estimate-validation.py.
start_log estimate
PARTS=${PARTS:-compare calibrate bisect}
export OOMLAB_CALIBRATION=$R/calibration-cache
for part in $PARTS; do
  case $part in
    compare)
      say "compare: $BIN compare --config gpu --device cuda --max-steps 3"
      timeout 400 $BIN compare --config gpu --device cuda --max-steps 3 --quiet --out "$R/gpu-compare" > "$R/gpu-compare.txt" 2>> "$LOG"
      echo "exit: $?" >> "$LOG" ;;
    calibrate)
      say "calibrate: $BIN estimate --config gpu --device cuda --calibrate --json"
      timeout 500 $BIN estimate --config gpu --device cuda --calibrate --json --quiet > "$R/gpu-estimate-calibrated.json" 2>> "$LOG"
      echo "exit: $?" >> "$LOG" ;;
    bisect)
      say "bisect: $BIN train --config gpu --device cuda --batch 1024 --strategy auto-halve --search bisect --vram-budget 24GiB --max-steps 8"
      timeout 300 $BIN train --config gpu --device cuda --batch 1024 --strategy auto-halve --search bisect --vram-budget 24GiB --max-steps 8 --quiet --json --out "$R/gpu-bisect-24GiB" > /dev/null 2>> "$LOG"
      echo "exit: $?" >> "$LOG"
      $BIN estimate --config gpu --batch 1024 --strategy auto-halve --card 24GiB --json > "$R/gpu-bisect-24GiB-estimate.json" 2>> "$LOG" ;;
    h200)
      say "h200: $BIN compare --config h200 --device cuda --strategies baseline,grad-accum,amp-bf16 --max-steps 2"
      timeout 550 $BIN compare --config h200 --device cuda --strategies baseline,grad-accum,amp-bf16 --max-steps 2 --quiet --out "$R/h200-compare" > "$R/h200-compare.txt" 2>> "$LOG"
      echo "exit: $?" >> "$LOG" ;;
  esac
done
# Bulky files stay behind: the run folders' memory timelines.
find "$R" -name memory.csv -delete
find "$R" -name 'steps.jsonl' -size +200k -delete
say done
