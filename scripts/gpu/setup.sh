# Sourced from the repository root by scripts/gpu/run.sh (before every experiment), by
# benches/paired.sh and by the one-off GPU commands kept in docs/results/<folder>/: picks
# the oomlab binary ($BIN), restores a carried kernel cache, and sets the environment
# every GPU run needs.
#
# Anyone with an NVIDIA GPU: `OOMLAB=path/to/oomlab OUT=dir bash scripts/gpu/run.sh
# oom-detector` (default: target/release/oomlab); results go to $RESULTS (default
# /tmp/res), NVRTC is looked for in $CUDA_LIB (default: /usr/local/cuda-13.0/lib64 and
# /usr/local/cuda/lib64).
#
# On the project's device machine instead:
# .device-bin/ (an ignored folder named in the device call's `carry`) holds the binaries
# xz-compressed (two of them exceed the 64 MiB carry uncompressed): oomlab.xz
# (target/release/oomlab) and, for the scripts that need it, gpu.xz (the test binary
# from `cargo test --release --test gpu --no-run`); optionally kernels.tar.xz, the
# kernel cache an earlier call returned. The machine has Python but not always xz.
# .device-prof/ (scripts/device-bin.sh --profile) likewise holds what host-profile.sh
# needs: oomlab-prof.xz and perf.tar.xz, unpacked to /tmp/bin/oomlab-prof and
# /tmp/bin/perf.tar.
#
# GPU_SETUP=new-user (set by run.sh for an experiment whose header has the line
# `# runner: new-user`): the binaries only. No carried kernel cache is restored and
# nothing is set for oomlab or cubecl (CUBECL_AUTOTUNE_LEVEL, OOMLAB_KERNEL_CACHE,
# LD_LIBRARY_PATH stay as the machine has them), as a new user's shell would be.
mkdir -p /tmp/bin
for packed in .device-bin/*.xz .device-prof/*.xz; do
  [ -e "$packed" ] || continue
  name=$(basename "$packed" .xz)
  [ "$name" = kernels.tar ] && continue
  python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" "$packed" "/tmp/bin/$name"
  chmod +x "/tmp/bin/$name"
done
if [ -n "${OOMLAB:-}" ]; then
  BIN=$OOMLAB
elif [ -x /tmp/bin/oomlab ] && [ -e .device-bin/oomlab.xz ]; then
  BIN=/tmp/bin/oomlab
else
  BIN=target/release/oomlab
fi
[ -x "$BIN" ] || { echo "no oomlab binary at $BIN: cargo build --release, or set OOMLAB=path" >&2; exit 2; }
KERNEL_CACHE_CARRIED=no
if [ "${GPU_SETUP:-}" != new-user ]; then
  if [ -f .device-bin/kernels.tar.xz ]; then
    tar xJf .device-bin/kernels.tar.xz -C /tmp
    KERNEL_CACHE_CARRIED=yes
  fi
  export CUBECL_AUTOTUNE_LEVEL=${CUBECL_AUTOTUNE_LEVEL:-minimal}
  export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:${CUDA_LIB:-/usr/local/cuda-13.0/lib64:/usr/local/cuda/lib64}
  export OOMLAB_KERNEL_CACHE=${OOMLAB_KERNEL_CACHE:-/tmp/oomlab-kernels}
fi

# start_log NAME (the experiments and the yardstick): the results folder /tmp/res/NAME ($R) and its log.txt ($LOG), opened
# with the date, commit, card and whether a kernel cache came along; say() writes a
# timestamped heading to it (and to stdout).
start_log() {
  R=${RESULTS:-/tmp/res}/$1
  mkdir -p "$R"
  LOG=$R/log.txt
  {
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo "kernel cache carried in: $KERNEL_CACHE_CARRIED"
  } >> "$LOG" 2>&1
}
say() { echo "### $* ($(date -u +%H:%M:%S))" | tee -a "$LOG"; }
