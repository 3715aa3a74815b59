"""Holds SIZE GiB of VRAM on GPU 0 until killed: `python3 holder.py 60`. Prints `held`
once the memory is taken, so a script can wait for it."""
import sys, time
import torch

x = torch.empty(int(float(sys.argv[1]) * 2**30), dtype=torch.uint8, device="cuda")
print("held", flush=True)
while True:
    time.sleep(1)
