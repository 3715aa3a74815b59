# Experiment for scripts/gpu/run.sh (issue 15): data parallelism and shard-optimizer on the
# GPU (device tool, repository root, or any NVIDIA machine with OOMLAB=path/to/oomlab):
#   MODE=two-gpus COMMIT=<sha> bash scripts/gpu/run.sh data-parallel   (needs 2 GPUs: the table)
#   MODE=one-gpu  COMMIT=<sha> bash scripts/gpu/run.sh data-parallel   (one GPU: two peers share it)
# two-gpus: oomlab on one GPU at the per-GPU batch, on cuda:0,cuda:1 (plain data parallel
#   and shard-optimizer), the same with PyTorch DDP over NCCL (torchrun) and
#   ZeroRedundancyOptimizer; then a state-heavy model (d_model 2048, batch 8) where
#   AdamW's state dominates, both tools.
# one-gpu: what one GPU can check: the CUDA path of burn-collective, the vote and the
#   broadcast with two peers on cuda:0 (loss against one device at the same effective
#   batch, identical replicas, the sharded state's saving in the process's total), and
#   that the PyTorch script runs (torchrun, one process). Not a scaling figure.
# Results: $RESULTS/parallel-$MODE (log.txt, one run folder per oomlab run, torch-*.json),
# tarred to $OUT/parallel.tar.gz when OUT is set; README of the one-gpu results:
# docs/results/2026-12-01-h200-parallel-one-gpu/make-readme.py.
MODE=${MODE:-two-gpus}
STEPS=${STEPS:-20}
start_log "parallel-$MODE"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader >> "$LOG"
$BIN configs gpu > "$R/gpu.toml"
$BIN dataset --task mix --chars 2000000 --seed 7 > "$R/data.txt"
BIG=(--d-model 2048 --set model.d_ff=8192 --batch 8)

# Every run gets at most LIMIT seconds and what is left of BUDGET (the device's 600 s per
# call, less time for the tar); a run with under 45 s left is skipped and logged.
BUDGET=${BUDGET:-560}
limit() {
  local left=$(( BUDGET - SECONDS - 15 ))
  [ "$left" -lt 45 ] && { echo "skipped: $left s left of BUDGET=$BUDGET" >> "$LOG"; return 1; }
  echo $(( left < ${LIMIT:-240} ? left : ${LIMIT:-240} ))
}
run() {
  local name=$1; shift
  say "oomlab $name: train --config gpu --max-steps $STEPS $*"
  local t; t=$(limit) || return 0
  timeout "$t" $BIN train --config gpu --max-steps "$STEPS" --quiet --json --out "$R/$name" "$@" \
    > "$R/$name.json" 2> "$R/$name.stderr.txt"
  echo "exit: $?" >> "$LOG"
}
torch() {
  local name=$1 procs=$2; shift 2
  say "pytorch $name: torchrun --nproc_per_node $procs benches/pytorch_ddp.py --steps $STEPS $*"
  local t; t=$(limit) || return 0
  timeout "$t" torchrun --standalone --nproc_per_node "$procs" benches/pytorch_ddp.py \
    --config "$R/gpu.toml" --data "$R/data.txt" --steps "$STEPS" --out "$R/torch-$name.json" "$@" \
    > "$R/torch-$name.stdout.txt" 2> "$R/torch-$name.stderr.txt"
  echo "exit: $?" >> "$LOG"
}
big_toml() {
  python3 - "$R/gpu.toml" "$R/big.toml" <<'PY'
import sys, re
t = open(sys.argv[1]).read()
t = re.sub(r"(?m)^d_model = .*$", "d_model = 2048", t)
t = re.sub(r"(?m)^d_ff = .*$", "d_ff = 8192", t)
open(sys.argv[2], "w").write(t)
PY
}

if [ "$MODE" = one-gpu ]; then
  run single --device cuda:0 --batch 64
  run dp-shared --devices cuda:0,cuda:0 --batch 64
  run zero-shared --devices cuda:0,cuda:0 --batch 64 --strategy shard-optimizer
  # BUCKET=MiB: the same data-parallel run with train.bucket_mib set.
  if [ -n "${BUCKET:-}" ]; then
    run dp-shared-bucket --devices cuda:0,cuda:0 --batch 64 --set "train.bucket_mib=$BUCKET"
  fi
  run big-zero-shared --devices cuda:0,cuda:0 "${BIG[@]}" --strategy shard-optimizer
  run big-dp-shared --devices cuda:0,cuda:0 "${BIG[@]}"
  if [ "${SKIP_TORCH:-0}" != 1 ]; then
    torch ddp-1 1 --batch 64
    torch zero-1 1 --batch 64 --zero
  fi
else
  run single --device cuda:0 --batch 32
  run dp --gpus 2 --batch 64
  run zero --gpus 2 --batch 64 --strategy shard-optimizer
  torch ddp-1 1 --batch 32
  torch ddp-2 2 --batch 64
  torch zero-2 2 --batch 64 --zero
  big_toml
  run big-dp --gpus 2 "${BIG[@]}"
  run big-zero --gpus 2 "${BIG[@]}" --strategy shard-optimizer
  say "pytorch big: same d_model 2048 / d_ff 8192"
  for z in "" --zero; do
    n=big-$([ -n "$z" ] && echo zero || echo ddp)-2
    t=$(limit) || continue
    timeout "$t" torchrun --standalone --nproc_per_node 2 benches/pytorch_ddp.py \
      --config "$R/big.toml" --data "$R/data.txt" --steps "$STEPS" --batch 8 --out "$R/torch-$n.json" $z \
      > "$R/torch-$n.stdout.txt" 2> "$R/torch-$n.stderr.txt"
    echo "$n exit: $?" >> "$LOG"
  done
fi
find "$R" -name memory.csv -size +300k -delete
rm -f "$R/data.txt"
say done
if [ -n "${OUT:-}" ]; then tar czf "$OUT/parallel.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"; fi
