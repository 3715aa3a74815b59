# Experiment for scripts/gpu/run.sh (issue 26): oomlab's defaults against PyTorch on the
# paired yardstick, and the estimate beside every compare row, on one machine. From the
# repository root on the device machine:
#   COMMIT=<sha> OUT=... PART=paired|compare-gpu|compare-h200|bisect|fixed bash scripts/gpu/run.sh memory-defaults
# runner: new-user
# PART=paired: benches/paired.py on the gpu config (oomlab f32 and AMP bf16 with the
#   defaults, f32 with the growth pool; PyTorch TF32 written out, f32 SDPA, AMP bf16 SDPA;
#   REPEATS (2) each, 20 steps), then on the h200 config (oomlab AMP bf16 defaults against
#   PyTorch AMP bf16 SDPA, REPEATS_H200 (2) each, 10 steps). $OUT/paired-gpu.tar.gz,
#   $OUT/paired-h200.tar.gz.
# PART=compare-gpu: `oomlab compare --config gpu --strategies all --max-steps 5` (every row
#   with the defaults, exact pool; pool-growth is the growth row), each row's estimate
#   beside its measured peak: $OUT/compare-gpu.json.
# PART=compare-h200: the same on the h200 config for ROWS (default
#   baseline,grad-accum,checkpointing,amp-bf16,half-bf16,pool-growth), 3 steps:
#   $OUT/compare-h200.json.
# PART=bisect: auto-halve with --search bisect on the gpu config (f32, defaults, batch 64)
#   under --vram-budget 3GiB and 4608MiB, beside `oomlab estimate --card` of the same
#   budget: the largest batch the estimate predicts against the micro-batch bisect finds.
#   $OUT/bisect.tar.gz (both summaries and estimates). WARM=1 warms the kernels first;
#   BISECT_STEPS (3) steps, so more probes with more steps; steps.jsonl kept (step times).
# PART=fixed: baseline at fixed batches (FIXED, budget:batch pairs) under the same budgets,
#   a fresh process each, kernels warmed first: $OUT/fixed.tar.gz.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
PART=${PART:-paired}
start_log "memory-defaults-$PART"
# warm_up BATCH...: one step at each batch without a budget, so that kernels are compiled
# and tuned before any budget is set.
warm_up() {
  for m in "$@"; do
    say "warm-up without a budget: --batch $m, 1 step"
    timeout 120 $BIN train --config gpu --device cuda --batch $m --max-steps 1 --json --quiet \
      --out "$R/warm-$m" > /dev/null 2>> "$LOG"
    echo "exit: $? (warm-up --batch $m)" >> "$LOG"
    rm -rf "$R/warm-$m"
  done
}
case "$PART" in
  paired)
    say "paired yardstick, gpu config"
    timeout 330 python3 benches/paired.py --oomlab "$BIN" --config gpu --steps 20 --repeats "${REPEATS:-2}" \
      --only "oomlab f32 defaults,oomlab bf16 defaults,oomlab f32 efficient growth,pytorch f32 math,pytorch f32 sdpa,pytorch amp-bf16 sdpa" \
      --deadline-s 300 --out "$R/paired-gpu" > "$R/paired-gpu.stdout" 2>&1
    echo "exit: $?" >> "$LOG"
    say "paired yardstick, h200 config"
    timeout 230 python3 benches/paired.py --oomlab "$BIN" --config h200 --steps 10 --repeats "${REPEATS_H200:-2}" \
      --only "oomlab bf16 defaults,pytorch amp-bf16 sdpa" --deadline-s 180 --out "$R/paired-h200" > "$R/paired-h200.stdout" 2>&1
    echo "exit: $?" >> "$LOG"
    rm -f "$R"/paired-*/data.txt "$R"/paired-*/runs/*/steps.jsonl
    find "$R" -name memory.csv -size +300k -delete
    tar czf "$OUT/paired-gpu.tar.gz" -C "$R" paired-gpu paired-gpu.stdout
    tar czf "$OUT/paired-h200.tar.gz" -C "$R" paired-h200 paired-h200.stdout
    ;;
  bisect)
    # WARM=1: first train once without a budget at each micro-batch bisect can try (1
    # step each), so that kernels are compiled and tuned before any budget: on a cold
    # machine cubecl's autotune runs out of memory under the ballast and burn 0.21 does
    # not recover (docs/results/2026-12-02-h100-bisect-failed). Says so in the log.
    if [ "${WARM:-0}" = 1 ]; then
      warm_up ${WARM_BATCHES:-64 48 40 32 28 24 20 16 12 8}
    fi
    for b in 3GiB 4608MiB; do
      say "bisect under --vram-budget $b"
      timeout 200 $BIN train --config gpu --device cuda --strategy auto-halve --search bisect --vram-budget $b \
        --max-steps ${BISECT_STEPS:-3} --json --quiet --out "$R/bisect-$b" > /dev/null 2> "$R/bisect-$b.stderr"
      echo "exit: $?" >> "$LOG"
      $BIN estimate --config gpu --card $b --json > "$R/estimate-$b.json" 2>> "$LOG"
      rm -f "$R/bisect-$b/memory.csv"
    done
    tar czf "$OUT/bisect.tar.gz" -C "$R" .
    ;;
  fixed)
    # Fresh processes at fixed batches under the bisect's budgets (baseline, 2 steps):
    # the largest batch a fresh run fits, beside the estimate's and what bisect found
    # within one process. Kernels warmed first without a budget, as PART=bisect WARM=1.
    warm_up ${WARM_BATCHES:-48 32 24 16}
    for spec in ${FIXED:-3GiB:16 3GiB:20 3GiB:24 3GiB:28 4608MiB:32 4608MiB:40 4608MiB:47}; do
      b=${spec%%:*}; m=${spec##*:}
      say "baseline --batch $m under --vram-budget $b, 2 steps"
      timeout 120 $BIN train --config gpu --device cuda --strategy baseline --batch $m --vram-budget $b \
        --max-steps 2 --json --quiet --out "$R/fixed-$b-$m" > /dev/null 2> "$R/fixed-$b-$m.stderr"
      echo "exit: $? (--batch $m under $b)" >> "$LOG"
      rm -f "$R/fixed-$b-$m/memory.csv" "$R/fixed-$b-$m/steps.jsonl"
    done
    tar czf "$OUT/fixed.tar.gz" -C "$R" .
    ;;
  compare-gpu|compare-h200)
    config=${PART#compare-}
    if [ "$config" = gpu ]; then rows=all; steps=5; else rows=${ROWS:-baseline,grad-accum,checkpointing,amp-bf16,half-bf16,pool-growth}; steps=3; fi
    say "compare --config $config --strategies $rows --max-steps $steps"
    timeout ${LIMIT:-540} $BIN compare --config "$config" --device cuda --strategies "$rows" --max-steps $steps \
      --json --quiet --out "$R/compare" > "$OUT/compare-$config.json" 2> "$R/compare.stderr"
    echo "exit: $?" >> "$LOG"
    tail -5 "$R/compare.stderr" >> "$LOG"
    ;;
esac
say done
cp "$LOG" "$OUT/log-$PART.txt"
cat "$LOG"
