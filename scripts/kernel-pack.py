#!/usr/bin/env python3
"""Makes the kernel pack oomlab ships for a card from a kernel cache folder a device run
returned (scripts/gpu/first-result.sh leaves it as kernel-cache.tar.xz).

    python3 scripts/kernel-pack.py KERNEL-CACHE.tar.xz [crates/oomlab-kernels/pack/nvidia-h200]

Writes into the card folder:
- the autotune result files (one per tuned operation family), as the union of the lines
  already shipped and the cache's, one line per key;
- ptx/toc.json.log: one line per compiled kernel (cubecl's table of contents), the
  union of the shipped table and the cache's;
- ptx/chunk.cbor.xz: every chunk file of the cache (cubecl's chunk0.cbor, and the chunk
  oomlab installed from an earlier pack), concatenated (a chunk is a sequence of CBOR
  entries; cubecl reads them one after another), xz-compressed;
- ptx/min-driver.txt: the CUDA driver version (cuDriverGetVersion's form) that loads the
  newest PTX ISA found in the chunk.
"""
import io
import json
import lzma
import re
import sys
import tarfile
from pathlib import Path

CUBECL = "0.10.0"


def key_of(line):
    try:
        return json.dumps(json.loads(line)["key"], sort_keys=True, separators=(",", ":"))
    except (ValueError, KeyError, TypeError):
        return None


def union(old_lines, new_lines):
    seen, out = set(), []
    for line in list(old_lines) + list(new_lines):
        line = line.strip()
        k = key_of(line)
        if not line or k is None or k in seen:
            continue
        seen.add(k)
        out.append(line)
    return out


def cbor_chars(text):
    """A text as cubecl's chunk holds it: PTX is a Vec<c_char>, a CBOR array of small
    integers, each byte from 24 up written as 0x18 and the byte."""
    return b"".join(bytes([c]) if c < 24 else bytes([0x18, c]) for c in text.encode())


def min_driver(chunk):
    digit = rb"((?:\x18[\x30-\x39])+)"
    pattern = re.escape(cbor_chars(".version ")) + digit + re.escape(cbor_chars(".")) + digit
    number = lambda b: int(b.replace(b"\x18", b"").decode())
    versions = {(number(m.group(1)), number(m.group(2))) for m in re.finditer(pattern, chunk)}
    if not versions:
        raise SystemExit("no PTX .version line in the chunk")
    major, minor = max(versions)
    # PTX ISA 9.x ships with CUDA 13.x; 8.x with CUDA 12.x (8.0 = 12.0 ... 8.5 = 12.5,
    # 8.6 = 12.7, 8.7 = 12.8, 8.8 = 12.9).
    if major == 9:
        return 13000 + 10 * minor, f"{major}.{minor}"
    if major == 8:
        cuda_minor = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 7, 7: 8, 8: 9}[minor]
        return 12000 + 10 * cuda_minor, f"{major}.{minor}"
    raise SystemExit(f"PTX ISA {major}.{minor}: add its CUDA version here")


def main():
    tarball = Path(sys.argv[1])
    card = Path(sys.argv[2] if len(sys.argv) > 2 else "crates/oomlab-kernels/pack/nvidia-h200")
    with lzma.open(tarball) as f:
        tar = tarfile.open(fileobj=io.BytesIO(f.read()))
    members = {m.name.lstrip("./"): m for m in tar.getmembers() if m.isfile()}
    read = lambda name: tar.extractfile(members[name]).read()

    tuned = 0
    for name in sorted(members):
        if name.startswith(f"autotune/{CUBECL}/device-0-0-cuda/") and name.endswith(".json.log"):
            target = card / Path(name).name
            old = target.read_text().splitlines() if target.exists() else []
            lines = union(old, read(name).decode().splitlines())
            target.write_text("\n".join(lines) + "\n")
            tuned += len(lines)

    ptx = card / "ptx"
    ptx.mkdir(parents=True, exist_ok=True)
    prefix = f"cuda/{CUBECL}/ptx/"
    toc_old = (ptx / "toc.json.log").read_text().splitlines() if (ptx / "toc.json.log").exists() else []
    toc = union(toc_old, read(prefix + "toc.json.log").decode().splitlines())
    # Every table line names chunk0.cbor: oomlab's installer writes its own chunk name.
    toc = [json.dumps({"key": json.loads(l)["key"], "value": "chunk0.cbor"}, separators=(",", ":")) for l in toc]
    chunks = sorted(n for n in members if n.startswith(prefix) and n.endswith(".cbor"))
    chunk = b"".join(read(n) for n in chunks)
    driver, isa = min_driver(chunk)
    (ptx / "toc.json.log").write_text("\n".join(toc) + "\n")
    (ptx / "chunk.cbor.xz").write_bytes(lzma.compress(chunk, preset=9))
    (ptx / "min-driver.txt").write_text(f"{driver}\n")
    old_gz = ptx / "chunk.cbor.gz"
    if old_gz.exists():
        old_gz.unlink()
    print(
        f"{card}: {tuned} autotune results, {len(toc)} kernels from {len(chunks)} chunk file(s) "
        f"({len(chunk) / 2**20:.1f} MiB, {(ptx / 'chunk.cbor.xz').stat().st_size / 2**20:.1f} MiB xz), "
        f"PTX ISA {isa}: driver >= {driver}"
    )


if __name__ == "__main__":
    main()
