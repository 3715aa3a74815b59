#!/usr/bin/env bash
# Packs the binaries a device call carries in `.device-bin/` (scripts/gpu/setup.sh unpacks
# them on the device machine): oomlab.xz, and with --tests gpu.xz, the GPU test binary.
#   bash scripts/device-bin.sh [--tests]
# Both come from one build of the library: the test binary was behind a `gpu-tests`
# feature until 2026-12-06, and building it linked target/release/oomlab again with that
# feature, whose other TypeIds gave oomlab's own kernels other cache keys than the shipped
# kernel pack's (docs/results/2026-12-06-h100-grads-together). Cargo.toml now has the test
# target without a feature (`test = false`), so either order gives the user's binary.
set -eu
mkdir -p .device-bin
if [ "${1:-}" = --tests ]; then
  exe=$(cargo test --release --test gpu --no-run --message-format=json |
    python3 -c 'import json, sys
found = [m["executable"] for m in map(json.loads, sys.stdin)
         if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "gpu"]
print(found[-1])')
  xz -T2 -3 -c "$exe" > .device-bin/gpu.xz
fi
cargo build --release
xz -T2 -6 -c target/release/oomlab > .device-bin/oomlab.xz
ls -l .device-bin
