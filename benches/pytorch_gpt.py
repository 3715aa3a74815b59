#!/usr/bin/env python3
"""oomlab's GPT in PyTorch, for the paired yardstick (benches/paired.py).

Reads the same TOML config file as `oomlab train --config FILE` and builds the same
network as src/model/gpt.rs: token + position embeddings; pre-norm blocks of causal
self-attention (separate Q, K, V and output projections with bias) and a GELU
feed-forward layer (Linear d->d_ff, GELU, Linear d_ff->d), each added to the residual
stream; a final LayerNorm; a linear head; mean cross-entropy on f32 logits. AdamW with
burn 0.21's defaults (betas 0.9/0.999, eps 1e-5) and the config's lr and weight decay.

--attention math writes attention out as oomlab's `math` does (scores in the compute
dtype, softmax in f32, probabilities back to the compute dtype for the product with V);
--attention sdpa is torch.nn.functional.scaled_dot_product_attention(is_causal=True).
--precision f32 runs with TF32 matmuls allowed (what cubecl's tensor-core matmul does with
f32 inputs: cubek-matmul stages them as tf32); --precision f32-strict disables TF32;
amp-bf16 is autocast(bfloat16) with f32 weights.

--device cpu runs the same on the CPU (autocast("cpu") for amp-bf16; TF32 does not exist
there, so f32 is f32). No NVML: the peak figures are then None, and the CPU's memory is
the process's peak RSS, which paired.py reads from outside (the same way for oomlab).

--offload keeps AdamW on the host, as ZeRO-Offload and FSDP's CPU offload do: f32 master
weights and both moments in pinned host memory, each step's gradients copied to them, the
update by torch.optim.AdamW on the CPU, the new weights copied back. (oomlab's
offload-optimizer keeps only the moments there and reads the weights back each step.)

One configuration per process. Prints one JSON object (also written to --out):
  peak_nvml_process_bytes  NVML's used memory for this PID, sampled every 10 ms (the
                           figure oomlab's own sampler reports); None on the CPU
  peak_allocated_bytes, peak_reserved_bytes  torch.cuda.max_memory_allocated/reserved
  time_to_first_step_s, steady_step_s (median of the steps after the first),
  final_loss (mean of the last 10% of steps), and the settings it ran with.
"""
import argparse
import json
import math
import os
import statistics
import threading
import time
import tomllib

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d_model, n_heads, kind):
        super().__init__()
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.n_heads = n_heads
        self.kind = kind

    def forward(self, x):
        b, t, d = x.shape
        h = self.n_heads
        heads = lambda y: y.view(b, t, h, d // h).transpose(1, 2)
        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        if self.kind == "sdpa":
            ctx = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = (q @ k.transpose(2, 3)) * (1.0 / math.sqrt(d // h))
            future = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
            probs = torch.softmax(scores.float().masked_fill(future, float("-inf")), dim=-1)
            ctx = probs.to(v.dtype) @ v
        return self.o(ctx.transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, kind):
        super().__init__()
        self.norm_attention = nn.LayerNorm(d_model)
        self.attention = Attention(d_model, n_heads, kind)
        self.norm_ff = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, x):
        x = x + self.attention(self.norm_attention(x))
        return x + self.ff(self.norm_ff(x))


class Gpt(nn.Module):
    def __init__(self, vocab, m, kind):
        super().__init__()
        self.token = nn.Embedding(vocab, m["d_model"])
        self.position = nn.Embedding(m["seq_len"], m["d_model"])
        self.blocks = nn.ModuleList(
            Block(m["d_model"], m["n_heads"], m["d_ff"], kind) for _ in range(m["n_layers"])
        )
        self.norm = nn.LayerNorm(m["d_model"])
        self.head = nn.Linear(m["d_model"], vocab)

    def forward(self, x):
        b, t = x.shape
        h = self.token(x) + self.position(torch.arange(t, device=x.device)).unsqueeze(0)
        for blk in self.blocks:
            h = blk(h)
        return self.head(self.norm(h))


class NvmlPeak:
    """NVML's used memory for this PID, sampled every 10 ms on a thread."""

    def __init__(self, index=0):
        import pynvml

        pynvml.nvmlInit()
        self.nvml = pynvml
        self.handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        self.peak = 0
        self.stop = False
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def read(self):
        for p in self.nvml.nvmlDeviceGetComputeRunningProcesses(self.handle):
            if p.pid == os.getpid() and p.usedGpuMemory:
                return p.usedGpuMemory
        return 0

    def loop(self):
        while not self.stop:
            try:
                self.peak = max(self.peak, self.read())
            except Exception:
                pass
            time.sleep(0.01)

    def finish(self):
        self.stop = True
        self.thread.join()
        return self.peak


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", required=True, help="the TOML file oomlab trains with")
    p.add_argument("--data", required=True, help="the text oomlab trains on (`oomlab dataset ...`)")
    p.add_argument("--batch", type=int, help="overrides train.batch")
    p.add_argument("--steps", type=int, help="overrides train.max_steps")
    p.add_argument("--attention", choices=["math", "sdpa"], required=True)
    p.add_argument("--precision", choices=["f32", "f32-strict", "amp-bf16"], required=True)
    p.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    p.add_argument("--offload", action="store_true", help="AdamW's state and update on the host")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    cuda = args.device == "cuda"

    cfg = tomllib.load(open(args.config, "rb"))
    m, train, optim = cfg["model"], cfg["train"], cfg["optim"]
    if m.get("kind", "gpt") != "gpt" or train.get("strategy", "baseline") != "baseline":
        raise SystemExit("the yardstick covers the gpt model with strategy baseline")
    batch = args.batch or train["batch"]
    steps = args.steps or train["max_steps"]
    seed = train.get("seed", 42)
    torch.backends.cuda.matmul.allow_tf32 = args.precision != "f32-strict"
    torch.backends.cudnn.allow_tf32 = args.precision != "f32-strict"
    amp = args.precision == "amp-bf16"

    sampler = NvmlPeak() if cuda else None
    text = open(args.data, encoding="utf-8").read()
    chars = sorted(set(text))
    lookup = {c: i for i, c in enumerate(chars)}
    tokens = torch.tensor([lookup[c] for c in text], dtype=torch.long)
    dev = torch.device(args.device)
    torch.manual_seed(seed)
    t_start = time.perf_counter()
    model = Gpt(len(chars), m, args.attention).to(dev)
    offload = args.offload and cuda
    if offload:
        host = [q.detach().to("cpu").pin_memory() for q in model.parameters()]
        for h in host:
            h.grad = torch.zeros_like(h).pin_memory()
        updated = host
    else:
        updated = list(model.parameters())
    opt = torch.optim.AdamW(updated, lr=optim["lr"], betas=(0.9, 0.999), eps=1e-5,
                            weight_decay=optim.get("weight_decay", 0.0))
    gen = torch.Generator().manual_seed(seed)
    seq = m["seq_len"]
    times, losses, first = [], [], None
    for step in range(steps):
        t0 = time.perf_counter()
        starts = torch.randint(0, len(tokens) - seq - 1, (batch,), generator=gen)
        w = tokens[starts.unsqueeze(1) + torch.arange(seq + 1).unsqueeze(0)].to(dev)
        x, y = w[:, :-1], w[:, 1:]
        model.zero_grad(set_to_none=True)
        with torch.autocast(args.device, dtype=torch.bfloat16, enabled=amp):
            logits = model(x)
        loss = F.cross_entropy(logits.float().reshape(-1, len(chars)), y.reshape(-1))
        loss.backward()
        value = loss.item()
        if offload:
            for q, h in zip(model.parameters(), host):
                h.grad.copy_(q.grad, non_blocking=True)
            torch.cuda.synchronize()
            opt.step()
            for q, h in zip(model.parameters(), host):
                q.data.copy_(h, non_blocking=True)
        else:
            opt.step()
        if cuda:
            torch.cuda.synchronize()
        if first is None:
            first = time.perf_counter() - t_start
        else:
            times.append(time.perf_counter() - t0)
        losses.append(value)
    tail = max(1, len(losses) // 10)
    row = {
        "tool": f"pytorch {torch.__version__}",
        "device": torch.cuda.get_device_name(0) if cuda else f"cpu, {torch.get_num_threads()} threads",
        "attention": args.attention,
        "precision": args.precision,
        "offload": offload,
        "tf32": torch.backends.cuda.matmul.allow_tf32 and cuda,
        "model": {k: m[k] for k in ("d_model", "n_layers", "n_heads", "d_ff", "seq_len")},
        "vocab": len(chars),
        "batch": batch,
        "steps": steps,
        "optim": {"kind": "adamw", "lr": optim["lr"], "weight_decay": optim.get("weight_decay", 0.0),
                  "betas": [0.9, 0.999], "eps": 1e-5},
        "peak_nvml_process_bytes": sampler.finish() if cuda else None,
        "peak_allocated_bytes": torch.cuda.max_memory_allocated() if cuda else None,
        "peak_reserved_bytes": torch.cuda.max_memory_reserved() if cuda else None,
        "time_to_first_step_s": first,
        "steady_step_s": statistics.median(times) if times else None,
        "final_loss": sum(losses[-tail:]) / tail,
    }
    json.dump(row, open(args.out, "w"), indent=2)
    print(json.dumps(row))


if __name__ == "__main__":
    main()
