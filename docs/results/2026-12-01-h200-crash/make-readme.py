#!/usr/bin/env python3
"""Writes docs/results/2026-12-01-h200-crash/README.md from the files of that folder (the
figures are quoted from log.txt and the JSON files, never typed).

  python3 docs/results/2026-12-01-h200-crash/make-readme.py [FOLDER, default: its own]
"""
import json
import pathlib
import re
import sys

d = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent)
log = (d / "log.txt").read_text()
# The log of the call that produced these files starts at its own 'date:' line.
head = log[log.rfind("date: "):] if "date: " in log else log


def line(pattern):
    m = re.search(pattern, head, re.M)
    return m.group(0).strip() if m else f"(not found: {pattern})"


def gib(b):
    return f"{int(b) / 2**30:.2f} GiB"


zombie = [json.loads(l) for l in (d / "c-zombie.jsonl").read_text().splitlines() if l.strip()]
leak = {p.stem: json.loads(p.read_text()) for p in (d / "leak").glob("*.json")}
b = json.loads((d / "b" / "summary.json").read_text())
soak = (d / "soak.txt").read_text()
soak_lines = [l for l in soak.splitlines() if l.startswith(("OOMs caught", "after 100 cycles", "largest deviation", "median time", "test result"))]
meta = head.splitlines()[:3]
L0 = line(r"^in use while training: .*$")
L1 = line(r"^exit status 137 .*$")
L2 = line(r"^in use while stopped: .*$")
L3 = line(r"^training process exit status .*$")
L4 = line(r"^parent \d+ child \d+; in use .*$")
L5 = line(r"^2 s after kill -9 of the parent: .*$")
L6 = line(r"^after kill -9 of the child: .*$")
soak_text = "\n".join(soak_lines)
def size_key(row):
    cells = [c.strip() for c in row.strip("|").split("|")]
    m = re.match(r"(\d+)(MiB|GiB)", cells[1])
    return (int(cells[0]), int(m.group(1)) * (1024 if m.group(2) == "GiB" else 1)) if m else (0, 0)


phases_lines = (d / "phases.md").read_text().strip().splitlines()
rows = [l for l in phases_lines if l.startswith("| ") and l[2].isdigit()]
phases_text = "\n".join([l for l in phases_lines if l not in rows] + sorted(rows, key=size_key))

out = f"""# Crash-safe training on the H200: stuck VRAM, OOM in every phase, the soak, the leak detector

Issue 14's GPU evidence. {meta[0]}; {meta[1]} (the script; the binary was built from
4cee7c6, whose Rust code a12604a keeps: e224cfd and a12604a changed the script only);
card: {meta[2]}.

Commands, from the repository root, through the device tool (carry `.device-bin` with
`oomlab.xz` and `gpu.xz`, see scripts/gpu/setup.sh):

    COMMIT=a12604a PART=stuck,phases,soak STOP_AT=300 bash scripts/gpu/run.sh crash
    # then, same machine (leak/):
    oomlab train --device cuda --config tiny --max-steps 60 --leak-demo --json
    oomlab train --device cuda --config tiny --max-steps 2000 --leak-demo --strategy auto-halve --vram-budget 2GiB --json
    oomlab train --device cuda --config tiny --max-steps 60 --leak-demo loss-total --json
    oomlab train --device cuda --config tiny --max-steps 60 --json

`log.txt` is this call's log. `log-earlier-calls.txt` keeps the two calls before it,
whose A and B parts went wrong: the holder was started in a subshell, so `$!` named the
subshell, not oomlab (fixed in e224cfd), and the second reused the first's folders on a
warm machine and checked only once per step (fixed in a12604a). Their C and D parts
measured what this call's did. This README is written by `python3 docs/results/2026-12-01-h200-crash/make-readme.py`.

## A. A training process killed with SIGKILL

- {L0}
- {L1}

The driver frees a killed process's VRAM as soon as the process exits. `a-before.json`
and `a-after.json` are `oomlab gpu --json` before and after.

## B. A process stopped with SIGSTOP keeps its VRAM

- {L2}
- `oomlab gpu` flags it `STOPPED (not running)` (`b-stopped.txt`).
- `oomlab gpu --kill PID --yes` sent SIGTERM, then SIGCONT so the stopped process
  receives it: {L3}
- The run wrote its checkpoint and summary on the way out: stop `{b['stop']['kind']}`,
  {b['steps_completed']} steps, checkpoint `{pathlib.Path(b['checkpoints']['last']).name}`.

## C. A zombie holds no VRAM

A parent started a training run, killed it, and did not reap it for 2 s
(`scripts/gpu/zombie-parent.py`, `c-zombie.jsonl`):

| moment | /proc state | device memory in use (NVML) |
|---|---|---|
""" 
for z in zombie:
    if "used" in z:
        out += f"| {z['event']} | {z['state']} | {gib(z['used'])} |\n"
out += f"""
Before the run started: {gib(zombie[0]['used_before_start'])}. While it was a zombie,
NVML listed no holder (`oomlab gpu --json` in the same file). So `oomlab gpu` no longer
tells users to end a zombie's parent: the memory was back before the reaping.

## D. An exited process's VRAM kept by a forked child

PyTorch allocated 20 GiB, then forked a child that never used CUDA (as a DataLoader
worker or a `fork` subprocess does); the parent was killed with SIGKILL
(`scripts/gpu/fork-holder.py`):

- {L4}
- {L5}
- NVML still charged the memory to the dead parent's PID (`d-after-parent.txt`): the
  child holds the device files it inherited (count of its `/dev/nvidia*` descriptors in
  log.txt after "open NVIDIA device files").
- {L6}

`oomlab gpu` now looks for such processes when a holder is gone or a zombie (who has
`/dev/nvidia-uvm` open without being in NVML's list) and names them, and
`oomlab gpu --kill` may end them. (`d-after-parent.txt` was taken by the binary of this
call, before that change: it still shows the old advice.)

## E. Out of memory in each phase, model and optimizer untouched

The `gpu` config trained 3 steps with a checkpoint (`e0`), then each run resumed from a
copy of it under a smaller `--vram-budget`, with `--check-every phase` (and `--batch 1
--force` for the rows of batch 1, where weights, gradients and AdamW's state dominate).
The last two columns compare the weights after the failed step with the 3-step run's
(fingerprint of every bit) and the model and AdamW sections of the checkpoint written at
the out-of-memory stop with those of the checkpoint the run resumed from, byte for byte
(`scripts/gpu/oom-phases.py`):

{phases_text}

## F. 100 OOM -> recover cycles (tests/gpu/oom.rs on this code, 4 GiB budget)

```
{soak_text}
```

Full output: `soak.txt`.

## The leak detector on the GPU (`leak/`)

"""
for name, label in [("leak-demo", "--leak-demo (eval-graph)"), ("leak-auto-halve", "--leak-demo with auto-halve under --vram-budget 2GiB"), ("leak-loss-total", "--leak-demo loss-total"), ("no-leak", "no demo")]:
    s = leak[name]
    alarm = s["leak"]["alarm"]
    what = (f"alarm: {int(alarm['per_step']) / 2**20:.1f} MiB per step at micro-batch {alarm['micro_batch']}" if alarm else "no alarm")
    extra = ""
    if s["adaptation"].get("gave_up"):
        extra = f"; stopped at step {s['steps_completed']} without halving: \"{s['adaptation']['gave_up'][:160]}...\""
    out += f"- {label}: {s['steps_completed']} steps, {what}{extra}\n"
out += """
`loss-total` (the PyTorch FAQ's `total_loss += loss`) raises no alarm: burn's backward
pass frees the saved activations, so the running total keeps only small graph nodes.
"""
(d / "README.md").write_text(out)
