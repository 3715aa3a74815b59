#!/usr/bin/env python3
"""A parent that starts a training process and, after it is killed, does not reap it for
a while: the child is a zombie. Reports, as JSON lines, the child's /proc state and the
VRAM in use while it is a zombie and after the parent reaps it. Used by
scripts/gpu/crash.sh.

  zombie-parent.py OOMLAB RUN_DIR   (oomlab train args are fixed below)
"""
import json
import os
import signal
import subprocess
import sys
import time

import importlib.util

spec = importlib.util.spec_from_file_location("vw", os.path.join(os.path.dirname(__file__), "vram-watch.py"))
vw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vw)
used = vw.device()

oomlab, run_dir = sys.argv[1], sys.argv[2]
before = used()
p = subprocess.Popen([oomlab, "train", "--device", "cuda", "--config", "tiny", "--max-steps", "1000000",
                      "--memory-mode", "prealloc=0.3", "--out", run_dir, "-q"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
start = time.monotonic()
while time.monotonic() - start < 120:
    try:
        if sum(1 for _ in open(os.path.join(run_dir, "steps.jsonl"))) >= 3:
            break
    except FileNotFoundError:
        pass
    time.sleep(0.05)


def state(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


print(json.dumps({"event": "training", "pid": p.pid, "state": state(p.pid), "used": used(), "used_before_start": before}), flush=True)
os.kill(p.pid, signal.SIGKILL)
t0 = time.monotonic()
for _ in range(40):
    time.sleep(0.05)
print(json.dumps({"event": "killed, not reaped (2 s later)", "pid": p.pid, "state": state(p.pid), "used": used()}), flush=True)
gpu = subprocess.run([oomlab, "gpu", "--json"], capture_output=True, text=True)
print(json.dumps({"event": "oomlab gpu --json while a zombie", "stdout": gpu.stdout, "exit": gpu.returncode}), flush=True)
p.wait()
time.sleep(0.5)
print(json.dumps({"event": "reaped", "pid": p.pid, "state": state(p.pid), "used": used(), "seconds_since_kill": round(time.monotonic() - t0, 2)}), flush=True)
