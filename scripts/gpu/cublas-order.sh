# Issue 29: the linear layers' products on cuBLAS ordered with cubecl's kernels on the
# device (flags in device memory, crates/oomlab-kernels/src/cuda/fence.rs) against the host syncs of the first
# version and against cubecl's own products, with PyTorch's rows in the same script run.
# 1. (unless SKIP_TEST=1) tests/gpu/linear.rs in both orders (OOMLAB_CUBLAS_ORDER=device,
#    host; TEST_ORDERS reorders, TEST_TIMEOUT (default 150 s) bounds each; TEST_APIS="gemmex
#    lt" runs them for cuBLASLt too, as gpu-test-lt-ORDER.txt): the custom product against
#    burn's Linear on CUDA. Needs .device-bin/gpu.xz.
# 1b. (with TIMING_CONFIG=NAME) 30 f32 steps of that config with cuBLAS and
#    OOMLAB_CUBLAS_TIMING=1, once per API:ORDER[:SIDE] in TIMING_RUNS (default
#    "gemmex:device gemmex:host"; e.g. "lt:device:memops", SIDE being OOMLAB_FENCE_STREAM,
#    unset when left out; scripts/gpu/cublas-timing.bash): where the host's time goes in
#    each product (stderr; other stderr lines, a fence failure, in the log).
# 2. benches/paired.py on $CONFIG (default gpu), the defaults rows of the binary as is
#    (cubecl), with OOMLAB_CUBLAS=1 (ordered on the device), with OOMLAB_CUBLAS=1
#    OOMLAB_CUBLAS_ORDER=host and with OOMLAB_CUBLAS=1 OOMLAB_CUBLAS_API=lt (cuBLASLt)
#    (VARIANTS narrows these three: default "cublas-device cublas-host cublas-lt"; also
#    cublas-memops: OOMLAB_FENCE_STREAM=memops, cuBLAS's side of the fence by stream memory
#    operations, the default before 2026-12-04's fence-kernels run; dense and
#    cublas-dense: OOMLAB_EMBEDDING_GRAD=dense, the embeddings' gradients without burn's
#    scatter, without and with cuBLAS), and
#    PyTorch f32 SDPA and AMP bf16 SDPA; $REPEATS (default 2)
#    repeats of $STEPS (default 20) steps, interleaved, until $BUDGET s (default 560);
#    PRECISIONS (default "f32 bf16") narrows the rows (e.g. PRECISIONS=bf16 CONFIG=h200);
#    SKIP_PAIRED=1 leaves it out.
# An experiment, not what a new user meets: setup.sh sets CUBECL_AUTOTUNE_LEVEL=minimal and
# one kernel cache for every run of the call (the first run of each kind compiles; first-
# step times are not comparable between rows).
#   [COMMIT=<sha>] OUT=... [CONFIG=gpu] bash scripts/gpu/run.sh cublas-order
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
CONFIG=${CONFIG:-gpu}
BUDGET=${BUDGET:-560}
start_log "cublas-order-$CONFIG"
if [ "${SKIP_TEST:-0}" != 1 ]; then
  for api in ${TEST_APIS:-gemmex}; do for order in ${TEST_ORDERS:-device host}; do
    tag=$order; [ "$api" = gemmex ] || tag=$api-$order
    say "1. tests/gpu/linear.rs, OOMLAB_CUBLAS_API=$api OOMLAB_CUBLAS_ORDER=$order"
    OOMLAB_CUBLAS_API=$api OOMLAB_CUBLAS_ORDER=$order timeout ${TEST_TIMEOUT:-150} /tmp/bin/gpu --ignored --nocapture linear:: > "$R/gpu-test-$tag.txt" 2>&1
    echo "exit: $?" >> "$LOG"
    tail -4 "$R/gpu-test-$tag.txt" >> "$LOG"
  done; done
fi
if [ -n "${TIMING_CONFIG:-}" ]; then
  source scripts/gpu/cublas-timing.bash
  time_products "1b. the host's time per product" "$TIMING_CONFIG" "${TIMING_RUNS:-gemmex:device gemmex:host}"
fi
if [ "${SKIP_PAIRED:-0}" = 1 ]; then
  say done
  tar czf "$OUT/results.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
  cp "$LOG" "$OUT/log.txt"
  return 0 2>/dev/null || exit 0
fi
say "2. paired yardstick, $CONFIG"
ONLY=""
for p in ${PRECISIONS:-f32 bf16}; do
  torch=$([ "$p" = f32 ] && echo "pytorch f32 sdpa" || echo "pytorch amp-bf16 sdpa")
  ONLY="$ONLY,oomlab $p defaults"
  for v in ${VARIANTS:-cublas-device cublas-host cublas-lt}; do ONLY="$ONLY,oomlab-$v $p defaults"; done
  ONLY="$ONLY,$torch"
done
ONLY=${ONLY#,}
timeout $(( BUDGET - SECONDS - 10 )) python3 benches/paired.py --oomlab "$BIN" --config "$CONFIG" \
  --steps "${STEPS:-20}" --repeats "${REPEATS:-2}" --deadline-s $(( BUDGET - SECONDS - 60 )) --only "$ONLY" \
  --variant cublas-device:OOMLAB_CUBLAS=1 --variant cublas-host:OOMLAB_CUBLAS=1,OOMLAB_CUBLAS_ORDER=host \
  --variant cublas-lt:OOMLAB_CUBLAS=1,OOMLAB_CUBLAS_API=lt \
  --variant cublas-memops:OOMLAB_CUBLAS=1,OOMLAB_FENCE_STREAM=memops \
  --variant dense:OOMLAB_EMBEDDING_GRAD=dense \
  --variant cublas-dense:OOMLAB_CUBLAS=1,OOMLAB_EMBEDDING_GRAD=dense \
  --out "$R/paired" > "$R/paired-stdout.txt" 2>&1
echo "exit: $?" >> "$LOG"
[ -f "$R/paired/paired.md" ] || python3 benches/paired.py --tables-only --out "$R/paired" >> "$LOG" 2>&1
say done
rm -rf "$R/paired/runs"/*/memory.csv
tar czf "$OUT/results.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
cp "$LOG" "$OUT/log.txt"
