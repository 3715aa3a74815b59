#!/usr/bin/env python3
"""A PyTorch process that holds GIB GiB of VRAM and then forks a child that never touches
CUDA (as a DataLoader worker or a subprocess started with fork does). Used by
scripts/gpu/crash.sh to show who keeps VRAM after the parent is killed.

  fork-holder.py GIB READY_FILE   writes 'parent_pid child_pid' to READY_FILE, sleeps
"""
import os
import sys
import time

import torch

gib, ready = float(sys.argv[1]), sys.argv[2]
x = torch.empty(int(gib * (1 << 30)), dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
child = os.fork()
if child == 0:
    time.sleep(120)
    os._exit(0)
with open(ready, "w") as f:
    f.write(f"{os.getpid()} {child}\n")
time.sleep(120)
