# Issue 29: why a cuBLAS product costs ~0.25 ms of host time in the `gpu` config's step
# while the same call alone is a few microseconds of GPU work. One call:
# 1. The host's time per product (OOMLAB_CUBLAS_TIMING=1, 30 f32 steps) for each
#    API:ORDER[:SIDE] in $TIMING_RUNS (default "lt:host gemmex:host lt:device"; SIDE is
#    OOMLAB_FENCE_STREAM, unset when left out; scripts/gpu/cublas-timing.bash), with any
#    other stderr line of the run (a fence failure) in the log: with host syncs the context's synchronize is its own
#    phase, so the cuBLAS call is timed on an idle GPU.
# 2. If Nsight Systems is on the machine (nsys): 10 f32 steps with cuBLASLt ordered on the
#    device, and 10 with cubecl's products, traced (CUDA API and GPU kernels); the summary
#    reports as CSV (nsys-ROW-*.csv): how long each CUDA API call takes on the host, and
#    the kernels' GPU time.
# 3. (unless SKIP_TEST=1) tests/gpu/linear.rs with OOMLAB_CUBLAS_API=$TEST_API (default
#    lt), ordered on the device, bounded by TEST_TIMEOUT (default 200 s; its lines are
#    printed as each case ends). Needs .device-bin/gpu.xz.
# With KEEP_KERNELS=1 the kernel cache comes back too, as kernels.tar.gz (gzip, 60 s at
# most, after the results; setup.sh restores .device-bin/kernels.tar.xz, so recompress it).
# An experiment, not what a new user meets: setup.sh sets CUBECL_AUTOTUNE_LEVEL=minimal and
# one kernel cache for every run of the call.
#   [COMMIT=<sha>] OUT=... bash scripts/gpu/run.sh cublas-diag
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
start_log cublas-diag
source scripts/gpu/cublas-timing.bash
time_products "1. the host's time per product" gpu "${TIMING_RUNS:-lt:host gemmex:host lt:device}"
NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda*/nsight-systems*/bin/nsys 2>/dev/null | head -1)
say "2. Nsight Systems: ${NSYS:-not found}"
if [ -n "$NSYS" ]; then
  for row in lt cubecl; do
    vars="OOMLAB_CUBLAS=0"; [ $row = lt ] && vars="OOMLAB_CUBLAS=1 OOMLAB_CUBLAS_API=lt"
    env $vars timeout 200 "$NSYS" profile --trace=cuda --sample=none --cpuctxsw=none \
      -o "$R/nsys-$row" --force-overwrite true "$BIN" train --config gpu --device cuda \
      --precision f32 --max-steps 10 --quiet --out "$R/nsys-run-$row" > "$R/nsys-$row.txt" 2>&1
    echo "exit: $?" >> "$LOG"
    timeout 120 "$NSYS" stats --report cuda_api_sum,cuda_gpu_kern_sum --format csv \
      --output "$R/nsys-$row" "$R/nsys-$row.nsys-rep" >> "$R/nsys-$row.txt" 2>&1
    echo "stats exit: $?" >> "$LOG"
    head -12 "$R/nsys-$row"_cuda_api_sum.csv >> "$LOG" 2>/dev/null
    rm -f "$R/nsys-$row.nsys-rep" "$R/nsys-$row.sqlite" "$R/nsys-run-$row/memory.csv"
  done
fi
if [ "${SKIP_TEST:-0}" != 1 ]; then
  api=${TEST_API:-lt}; tag=device; [ "$api" = gemmex ] || tag=$api-device
  say "3. tests/gpu/linear.rs, OOMLAB_CUBLAS_API=$api OOMLAB_CUBLAS_ORDER=device"
  OOMLAB_CUBLAS_API=$api OOMLAB_CUBLAS_ORDER=device timeout "${TEST_TIMEOUT:-200}" /tmp/bin/gpu --ignored --nocapture linear:: > "$R/gpu-test-$tag.txt" 2>&1
  echo "exit: $?" >> "$LOG"
  grep -c "relative difference" "$R/gpu-test-$tag.txt" >> "$LOG"
  tail -4 "$R/gpu-test-$tag.txt" >> "$LOG"
fi
say done
tar czf "$OUT/results.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
cp "$LOG" "$OUT/log.txt"
# Last and bounded: packing the cache took minutes once and the call's limit ended it
# before the results above were written (2026-12-04, commit 2671f7c: that call's results
# were lost).
if [ "${KEEP_KERNELS:-0}" = 1 ]; then
  timeout 60 python3 -c "import tarfile,sys,os; t=tarfile.open(sys.argv[1],'w:gz'); t.add(sys.argv[2], arcname=os.path.basename(sys.argv[2])); t.close()" \
    "$OUT/kernels.tar.gz" "$OOMLAB_KERNEL_CACHE" || rm -f "$OUT/kernels.tar.gz"
fi
