# Issue 28: real Hugging Face transformers training on this GPU against `oomlab estimate
# --model NAME`: benches/hf_memory.py trains the built-in shapes (configs/hf/*.json, random
# weights, AdamW, f32 / AMP bf16 / pure bf16, SDPA, with and without gradient
# checkpointing, several batches, 4 steps each, a fresh process per model), records
# torch.cuda.max_memory_allocated / max_memory_reserved and the NVML process peak, searches
# the largest AMP bf16 batch under an emulated 24 GiB card, and counts each shape's
# parameters as transformers builds them. $OUT/hf-memory.tar.gz.
#   [COMMIT=<sha>] OUT=... [DEADLINE=900] [HF_MEMORY_SET=validation] bash scripts/gpu/run.sh hf-estimate
# (HF_MEMORY_SET=validation: the out-of-sample set of benches/hf_memory.py)
# runner: new-user
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
start_log hf-estimate
say "benches/hf_memory.py (deadline ${DEADLINE:-900} s)"
python3 benches/hf_memory.py --out "$R/hf-memory" --deadline-s "${DEADLINE:-900}" ${HF_ARGS:-} > "$R/hf-memory.stdout" 2>&1
echo "exit: $?" >> "$LOG"
tail -5 "$R/hf-memory.stdout" >> "$LOG"
say done
tar czf "$OUT/hf-memory.tar.gz" -C "$R" hf-memory hf-memory.stdout log.txt
