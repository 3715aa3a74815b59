# Experiment for scripts/gpu/run.sh: the OOM detector (issue 3) on a GPU, run on the H200
# through the device tool from the repository root:
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh oom-detector
# OOM_CYCLES (default 5) and TEST_TIMEOUT (default 400 s) bound part 1, SKIP_TEST=1 leaves it
# out (then gpu.xz need not be carried); any oomlab variable
# set for the call (e.g. OOMLAB_CUBLAS=1) reaches both parts.
# Carries .device-bin/ (oomlab.xz and, for part 1, gpu.xz; see setup.sh).
OUT=${OUT:?set OUT}
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} > "$OUT/environment.txt" 2>&1

if [ "${SKIP_TEST:-0}" != 1 ]; then
echo "### 1. tests/gpu/oom.rs: budget 4 GiB, ${OOM_CYCLES:-5} cycles of a 16384-sample step that cannot fit" | tee -a "$OUT/environment.txt"
OOMLAB_TEST_OOM_CYCLES=${OOM_CYCLES:-5} OOMLAB_TEST_VRAM_BUDGET=4GiB \
  timeout ${TEST_TIMEOUT:-400} /tmp/bin/gpu --ignored --nocapture --test-threads 1 oom:: > "$OUT/gpu-oom-test.txt" 2>&1
echo "exit: $?" >> "$OUT/environment.txt"
fi

echo "### 2. oomlab train --vram-budget 4GiB --batch 16384: the CLI stops on the detected OOM (exit 3)" | tee -a "$OUT/environment.txt"
timeout 150 /tmp/bin/oomlab train --device cuda --vram-budget 4GiB --batch 16384 --max-steps 5 --out "$OUT/run" \
  > "$OUT/train-stdout.txt" 2> "$OUT/train-stderr.txt"
echo "exit: $?" >> "$OUT/environment.txt"
rm -f "$OUT/run/steps.jsonl" "$OUT/run/summary.txt"
cat "$OUT/environment.txt" "$OUT/gpu-oom-test.txt" "$OUT/train-stderr.txt" "$OUT/train-stdout.txt"
