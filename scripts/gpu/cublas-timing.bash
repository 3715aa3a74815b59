# Sourced by scripts/gpu/cublas-order.sh and cublas-diag.sh (after setup.sh: $BIN, $R,
# $LOG, say). time_products HEADING CONFIG RUNS: 30 f32 steps of CONFIG with cuBLAS and
# OOMLAB_CUBLAS_TIMING=1, once per API:ORDER[:SIDE] in RUNS (SIDE is OOMLAB_FENCE_STREAM,
# unset when left out). Each run's stderr goes to $R/timing-TAG.stderr.txt (TAG: ORDER for
# gemmex, API-ORDER otherwise, then -SIDE when given); its last timing line and any other
# stderr line (a fence failure) to $LOG.
time_products() {
  local heading=$1 config=$2 run api order side tag
  for run in $3; do
    IFS=: read -r api order side <<< "$run"
    tag=$order; [ "$api" = gemmex ] || tag=$api-$order; [ -z "$side" ] || tag=$tag-$side
    say "$heading, $config f32, OOMLAB_CUBLAS_API=$api OOMLAB_CUBLAS_ORDER=$order OOMLAB_FENCE_STREAM=${side:-(unset)}"
    OOMLAB_CUBLAS=1 OOMLAB_CUBLAS_API=$api OOMLAB_CUBLAS_ORDER=$order OOMLAB_FENCE_STREAM=$side OOMLAB_CUBLAS_TIMING=1 timeout 150 "$BIN" train --config "$config" \
      --device cuda --precision f32 --max-steps 30 --quiet --json --out "$R/timing-$tag" \
      > "$R/timing-$tag.json" 2> "$R/timing-$tag.stderr.txt"
    echo "exit: $?" >> "$LOG"
    grep "host time per product" "$R/timing-$tag.stderr.txt" | tail -1 >> "$LOG"
    grep -v "host time per product" "$R/timing-$tag.stderr.txt" | head -5 >> "$LOG"
    rm -f "$R/timing-$tag/memory.csv"
  done
}
