#!/usr/bin/env bash
# Packs the binaries a device call carries in `.device-bin/` (scripts/gpu/setup.sh unpacks
# them on the device machine): oomlab.xz, and with --tests gpu.xz, the GPU test binary.
#   bash scripts/device-bin.sh [--tests]
# The order matters. `cargo test --features gpu-tests` links target/release/oomlab again
# with that feature, and a binary built with other features gives oomlab's own kernels
# (src/device/cube/, fence.rs) other cache keys: cubecl's key hashes the TypeId of each
# kernel's settings type, and a crate's TypeIds change with its feature set. The shipped
# kernel pack (src/device/compiled.rs) holds the keys of the default build, so a binary
# of the test build compiled the kernels it missed at its first step (2026-12-06: gpu AMP
# bf16 compiled one kernel on a fresh H100, docs/results/2026-12-06-h100-grads-together).
# So the test binary is built first and the default binary last.
set -eu
mkdir -p .device-bin
if [ "${1:-}" = --tests ]; then
  exe=$(cargo test --release --features gpu-tests --test gpu --no-run --message-format=json |
    python3 -c 'import json, sys
found = [m["executable"] for m in map(json.loads, sys.stdin)
         if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "gpu"]
print(found[-1])')
  xz -T2 -3 -c "$exe" > .device-bin/gpu.xz
fi
cargo build --release
xz -T2 -6 -c target/release/oomlab > .device-bin/oomlab.xz
ls -l .device-bin
