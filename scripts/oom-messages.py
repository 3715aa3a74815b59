"""Provokes real CUDA out-of-memory errors with PyTorch, one per case `oomlab diagnose`
classifies, and keeps each error text exactly as PyTorch printed it (issue 16).

    python3 scripts/oom-messages.py OUT_DIR [--oomlab path/to/oomlab]

Cases (each in its own process, so one case's cache cannot help or hurt the next):
  shortage-one-tensor   one request larger than the whole card
  shortage-filled       2 GiB tensors kept until the card is full (a real shortage)
  other-process         a second process holds most of the card; this one asks for more
                        than is left (with nvidia-smi and `oomlab gpu` taken meanwhile)
  fragmentation         under a memory fraction, a cached segment cut into 120 MiB
                        blocks, every other one freed, then a 200 MiB request: the free
                        reserved bytes are many times the request, but no hole is large
                        enough
  fragmentation-expandable
                        the same sequence with PYTORCH_CUDA_ALLOC_CONF=
                        expandable_segments:True (does the advice help?)
  context               a second process holds all but 200 MiB; a new process cannot
                        create its CUDA context
CASES="a b" runs only those. Writes OUT_DIR/<case>.txt (the error text, then `torch.cuda.memory_summary()` where the
process could still give it) and OUT_DIR/<case>.nvidia-smi.txt where taken.
"""

import os
import subprocess
import sys
import time

GIB = 1 << 30
MIB = 1 << 20


def holder(nbytes_expr):
    """A child that allocates, prints 'ready' and sleeps until killed."""
    code = (
        "import torch,sys,time\n"
        "free,total=torch.cuda.mem_get_info()\n"
        f"n=int({nbytes_expr})\n"
        "x=torch.empty(n,dtype=torch.uint8,device='cuda')\n"
        "print('ready',n,flush=True)\n"
        "time.sleep(600)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if not line.startswith("ready"):
        p.kill()
        raise SystemExit(f"holder failed to start: {line!r}")
    return p


def case_child(name):
    import torch

    torch.cuda.init()
    kept = []
    try:
        if name == "shortage-one-tensor":
            _, total = torch.cuda.mem_get_info()
            kept.append(torch.empty(int(total * 1.5), dtype=torch.uint8, device="cuda"))
        elif name == "shortage-filled":
            while True:
                kept.append(torch.empty(2 * GIB, dtype=torch.uint8, device="cuda"))
        elif name == "other-process":
            # One and a half times what the holder left free.
            free, _ = torch.cuda.mem_get_info()
            kept.append(torch.empty(int(free * 1.5), dtype=torch.uint8, device="cuda"))
        elif name.startswith("fragmentation"):
            _, total = torch.cuda.mem_get_info()
            torch.cuda.set_per_process_memory_fraction(4 * GIB / total)
            big = torch.empty(int(3.9 * GIB), dtype=torch.uint8, device="cuda")
            del big
            blocks = []
            try:
                while len(blocks) < 64:
                    blocks.append(torch.empty(120 * MIB, dtype=torch.uint8, device="cuda"))
            except torch.OutOfMemoryError:
                pass
            kept.extend(blocks[1::2])
            del blocks
            kept.append(torch.empty(200 * MIB, dtype=torch.uint8, device="cuda"))
        elif name == "context":
            torch.zeros(1, device="cuda")
        print("no error: the case did not run out of memory")
        return 3
    except Exception as e:  # noqa: BLE001 - the error text is the result
        print(f"{type(e).__module__}.{type(e).__name__}: {e}")
        try:
            print("\n--- torch.cuda.memory_summary() ---")
            print(torch.cuda.memory_summary())
        except Exception as e2:  # noqa: BLE001
            print(f"(memory_summary failed: {e2})")
        return 0


def smi(path):
    with open(path, "w") as f:
        subprocess.run(["nvidia-smi"], stdout=f, stderr=subprocess.STDOUT)


def run_case(out, name, oomlab, env=None):
    t0 = time.time()
    held = None
    if name == "other-process":
        held = holder("free*0.7")
    elif name == "context":
        held = holder("free-200*2**20")
    try:
        if held is not None:
            smi(os.path.join(out, f"{name}.nvidia-smi.txt"))
            if oomlab and name == "other-process":
                with open(os.path.join(out, f"{name}.oomlab-gpu.txt"), "w") as f:
                    subprocess.run([oomlab, "gpu"], stdout=f, stderr=subprocess.STDOUT)
        with open(os.path.join(out, f"{name}.txt"), "w") as f:
            r = subprocess.run(
                [sys.executable, __file__, "--case", name],
                stdout=f,
                stderr=subprocess.STDOUT,
                env={**os.environ, **(env or {})},
            )
    finally:
        if held is not None:
            held.kill()
            held.wait()
    print(f"{name}: exit {r.returncode}, {time.time() - t0:.1f} s", flush=True)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        sys.exit(case_child(sys.argv[2]))
    out = sys.argv[1]
    oomlab = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--oomlab" else None
    os.makedirs(out, exist_ok=True)
    import torch

    print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}", flush=True)
    cases = os.environ.get("CASES", "shortage-one-tensor shortage-filled other-process "
                           "fragmentation fragmentation-expandable context").split()
    for name in cases:
        env = None
        if name == "fragmentation-expandable":
            env = {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}
        run_case(out, name, oomlab, env)


if __name__ == "__main__":
    main()
