# Issue 29: cuBLAS products beside cubecl's inside burn's CUDA pipeline
# (crates/oomlab-kernels/benches/gemm_handshake.rs: the linear layers of the gpu and h200 configs, forward and
# both backward products, f32 as TF32 and bf16; per-product milliseconds of cubecl, of the
# cuBLAS kernel, of the two host syncs alone, and of an element-wise kernel followed by the
# product either way). Needs .device-bin/gemm_handshake.xz (the binary of `cargo build
# --release -p oomlab-kernels --bench gemm_handshake`, target/release/deps/gemm_handshake-*). An experiment:
# setup.sh sets CUBECL_AUTOTUNE_LEVEL=minimal (said beside the figures). libcublas is taken
# from the CUDA toolkit, else from PyTorch's nvidia wheels.
#   [COMMIT=<sha>] OUT=... bash scripts/gpu/run.sh gemm-handshake
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
start_log gemm-handshake
CUBLAS=$(ls /usr/local/cuda*/lib64/libcublas.so* 2>/dev/null | head -1)
if [ -z "$CUBLAS" ]; then
  CUBLAS=$(python3 -c "import glob,site; print(next(iter(sorted(f for p in site.getsitepackages() for f in glob.glob(p + '/nvidia/**/libcublas.so*', recursive=True))), ''))")
fi
echo "libcublas: ${CUBLAS:-none found}" >> "$LOG"
[ -n "$CUBLAS" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$(dirname "$CUBLAS")
say "gemm_handshake (CUBECL_AUTOTUNE_LEVEL=${CUBECL_AUTOTUNE_LEVEL:-unset})"
/tmp/bin/gemm_handshake > "$R/gemm-handshake.jsonl" 2> "$R/stderr.txt"
echo "exit: $?" >> "$LOG"
tail -5 "$R/stderr.txt" >> "$LOG"
say done
cp "$R/gemm-handshake.jsonl" "$R/stderr.txt" "$LOG" "$OUT/"
