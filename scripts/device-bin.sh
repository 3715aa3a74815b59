#!/usr/bin/env bash
# Packs the binaries a device call carries in `.device-bin/` (scripts/gpu/setup.sh unpacks
# them on the device machine): oomlab.xz, and with --tests gpu.xz, the GPU test binary.
#   bash scripts/device-bin.sh [--tests]
# Both come from one build of the library: the test binary was behind a `gpu-tests`
# feature until 2026-12-06, and building it linked target/release/oomlab again with that
# feature, whose other TypeIds gave oomlab's own kernels other cache keys than the shipped
# kernel pack's (docs/results/2026-12-06-h100-grads-together). Cargo.toml now has the test
# target without a feature (`test = false`), so either order gives the user's binary.
#   bash scripts/device-bin.sh --profile
# packs .device-prof/ for scripts/gpu/host-profile.sh instead: oomlab-prof.xz, oomlab built
# with its symbols and frame pointers in a target folder of its own (/tmp/proftarget: the
# flags rebuild every crate), and perf.tar.xz, this machine's perf and the libraries it
# needs beside the C library (the device machine has no perf).
#   bash scripts/device-bin.sh --before SHA
# packs .device-bin/oomlab-before.xz, the binary of commit SHA (benches/paired.sh's
# "before" rows and 100-step runs): built from a git worktree in /tmp into this checkout's
# target folder, so only what differs is compiled (75cc3a4 after HEAD: 8 min here);
# cargo then copies this checkout's own binary back to target/release/oomlab.
set -eu
if [ "${1:-}" = --before ]; then
  sha=$(git rev-parse --short "${2:?usage: bash scripts/device-bin.sh --before SHA}")
  tree=/tmp/oomlab-before-$sha
  [ -d "$tree" ] || git worktree add --detach "$tree" "$sha"
  (cd "$tree" && cargo build --release --target-dir "$OLDPWD/target")
  mkdir -p .device-bin
  xz -T2 -6 -c target/release/oomlab > .device-bin/oomlab-before.xz
  cargo build --release
  ls -l .device-bin
  exit 0
fi
if [ "${1:-}" = --profile ]; then
  mkdir -p .device-prof /tmp/perfpack/lib
  CARGO_PROFILE_RELEASE_STRIP=false RUSTFLAGS="-C force-frame-pointers=yes" \
    cargo build --release --target-dir /tmp/proftarget
  xz -T2 -6 -c /tmp/proftarget/release/oomlab > .device-prof/oomlab-prof.xz
  cp "$(command -v perf)" /tmp/perfpack/perf
  for l in $(ldd /tmp/perfpack/perf | awk '/=>/ {print $3}'); do
    case $(basename "$l") in
      libc.so* | libm.so* | libpthread* | libdl.so* | librt.so* | ld-linux*) ;;
      *) cp -L "$l" /tmp/perfpack/lib/ ;;
    esac
  done
  tar -C /tmp -cf - perfpack | xz -T2 -6 > .device-prof/perf.tar.xz
  ls -l .device-prof
  exit 0
fi
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
