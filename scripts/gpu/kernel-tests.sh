# Experiment for scripts/gpu/run.sh: every CUDA operation of the kernels crate against
# burn's own on the same inputs (the GPU test binary's softmax::, norm::, gelu::, adamw::,
# batched:: and linear:: tests), one module at a time, one test at a time (they count the
# process's kernel calls):
#   COMMIT=<sha> OUT=<dir> bash scripts/gpu/run.sh kernel-tests
# Carries .device-bin/ with oomlab.xz and gpu.xz (scripts/device-bin.sh --tests). A 1-step
# tiny run first installs the kernel pack, as a user's first run would. TEST_TIMEOUT
# (default 90 s) bounds each module. Results: $OUT/kernel-tests.txt, one block per module
# with its exit status.
OUT=${OUT:?set OUT}
[ -x /tmp/bin/gpu ] || { echo "no GPU test binary: carry .device-bin/gpu.xz" >&2; exit 2; }
start_log kernel-tests
say "installing the kernel pack: oomlab train --config tiny --max-steps 1"
timeout 120 "$BIN" train --config tiny --device cuda --max-steps 1 --out "$R/run" >> "$LOG" 2>&1
echo "exit: $?" >> "$LOG"
for module in softmax norm gelu adamw batched linear; do
  say "$module::"
  timeout "${TEST_TIMEOUT:-90}" /tmp/bin/gpu --ignored --test-threads=1 "$module::" >> "$LOG" 2>&1
  echo "exit: $?" >> "$LOG"
done
cp "$LOG" "$OUT/kernel-tests.txt"
grep -E '^(###|exit|test result)' "$LOG"
