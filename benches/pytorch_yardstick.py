#!/usr/bin/env python3
"""The PyTorch yardstick for `oomlab compare` (issue 5).

Trains the same model as oomlab's GPT (token + position embeddings, pre-norm transformer
blocks with a causal mask and GELU feed-forward, final LayerNorm, linear head; AdamW) on
the same kind of data (random windows of a character-level text), with the same
strategies, and prints rows in the shape of oomlab's compare.json rows:
strategy, split, precision, peak_in_use_bytes (torch.cuda.max_memory_allocated),
peak_reserved_bytes (max_memory_reserved), time_to_first_step_s, steady_step_s
(median after the first step), samples_per_s, final_loss (mean of the last 10% of steps).

PyTorch's defaults are kept (TF32 off for f32 matmuls), as oomlab's f32 does not use TF32
either. Run on the GPU machine, e.g.
  python3 benches/pytorch_yardstick.py --data text.txt --batch 512 --steps 60 --out py.json
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Gpt(nn.Module):
    def __init__(self, vocab, d_model, n_layers, n_heads, d_ff, seq_len):
        super().__init__()
        self.token = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(seq_len, d_model)
        self.blocks = nn.ModuleList(
            nn.TransformerEncoderLayer(
                d_model, n_heads, d_ff, dropout=0.0, activation="gelu",
                batch_first=True, norm_first=True,
            )
            for _ in range(n_layers)
        )
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)
        self.checkpointing = False

    def forward(self, x):
        b, t = x.shape
        pos = torch.arange(t, device=x.device).unsqueeze(0).expand(b, t)
        h = self.token(x) + self.position(pos)
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=x.device, dtype=h.dtype)
        for blk in self.blocks:
            if self.checkpointing:
                h = checkpoint(blk, h, mask, None, True, use_reentrant=False)
            else:
                h = blk(h, src_mask=mask, is_causal=True)
        return self.head(self.norm(h))


def batches(tokens, seq_len, batch, step, seed):
    g = torch.Generator().manual_seed(seed * 1_000_003 + step)
    starts = torch.randint(0, len(tokens) - seq_len - 1, (batch,), generator=g)
    idx = starts.unsqueeze(1) + torch.arange(seq_len + 1).unsqueeze(0)
    w = tokens[idx]
    return w[:, :-1], w[:, 1:]


def run(strategy, args, tokens, vocab, dev):
    torch.manual_seed(args.seed)
    model = Gpt(vocab, args.d_model, args.n_layers, args.n_heads, args.d_ff, args.seq_len).to(dev)
    precision = "f32"
    amp_dtype = None
    scaler = None
    accum = 1
    if strategy == "grad-accum":
        accum = args.accum
    elif strategy == "amp-bf16":
        amp_dtype, precision = torch.bfloat16, "f32 weights, bf16 compute"
    elif strategy == "amp-f16":
        amp_dtype, precision = torch.float16, "f32 weights, f16 compute"
        scaler = torch.amp.GradScaler("cuda")
    elif strategy == "half-bf16":
        model = model.to(torch.bfloat16)
        precision = "bf16"
    elif strategy == "checkpointing":
        model.checkpointing = True
    elif strategy not in ("baseline", "empty-cache"):
        raise SystemExit(f"unknown strategy {strategy}")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0)
    micro = args.batch // accum
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    t_start = time.perf_counter()
    times, losses = [], []
    first = None
    loss_fn = nn.CrossEntropyLoss()
    for step in range(args.steps):
        t0 = time.perf_counter()
        x, y = batches(tokens, args.seq_len, args.batch, step, args.seed)
        x, y = x.to(dev), y.to(dev)
        opt.zero_grad(set_to_none=True)
        total = 0.0
        for i in range(accum):
            xs, ys = x[i * micro:(i + 1) * micro], y[i * micro:(i + 1) * micro]
            with torch.autocast("cuda", dtype=amp_dtype, enabled=amp_dtype is not None):
                logits = model(xs)
            loss = loss_fn(logits.float().reshape(-1, vocab), ys.reshape(-1)) / accum
            if scaler is not None:
                scaler.scale(loss).backward()
            else:
                loss.backward()
            total += loss.item()
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        if strategy == "empty-cache":
            torch.cuda.empty_cache()
        torch.cuda.synchronize()
        dt = time.perf_counter() - t0
        if first is None:
            first = time.perf_counter() - t_start
        else:
            times.append(dt)
        losses.append(total)
    tail = max(1, len(losses) // 10)
    steady = statistics.median(times) if times else None
    return {
        "strategy": strategy,
        "split": f"{micro} x {accum}",
        "effective_batch": args.batch,
        "precision": precision,
        "memory_kind": "gpu",
        "peak_in_use_bytes": torch.cuda.max_memory_allocated(),
        "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
        "time_to_first_step_s": first,
        "steady_step_s": steady,
        "samples_per_s": args.batch / steady if steady else None,
        "final_loss": sum(losses[-tail:]) / tail,
        "steps_completed": len(losses),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, help="UTF-8 text (e.g. from `oomlab dataset`)")
    p.add_argument("--d-model", type=int, default=64)
    p.add_argument("--n-layers", type=int, default=2)
    p.add_argument("--n-heads", type=int, default=4)
    p.add_argument("--d-ff", type=int, default=256)
    p.add_argument("--seq-len", type=int, default=64)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--accum", type=int, default=4)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--strategies", default="baseline,grad-accum,amp-bf16,amp-f16,half-bf16,checkpointing,empty-cache")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    text = open(args.data, encoding="utf-8").read()
    chars = sorted(set(text))
    lookup = {c: i for i, c in enumerate(chars)}
    tokens = torch.tensor([lookup[c] for c in text], dtype=torch.long)
    dev = torch.device("cuda")
    # One unmeasured pass first: CUDA context, cuBLAS handles and GPU clocks warm up on
    # whichever strategy runs first, which would otherwise flatter every later one.
    warm = argparse.Namespace(**{**vars(args), "steps": 10})
    run("baseline", warm, tokens, len(chars), dev)
    rows = []
    for s in args.strategies.split(","):
        rows.append(run(s, args, tokens, len(chars), dev))
        r = rows[-1]
        print(f"{s}: peak allocated {r['peak_in_use_bytes'] / 2**20:.1f} MiB, reserved "
              f"{r['peak_reserved_bytes'] / 2**20:.1f} MiB, steady step {r['steady_step_s'] * 1e3:.2f} ms, "
              f"first step {r['time_to_first_step_s']:.2f} s, final loss {r['final_loss']:.4f}", flush=True)
    out = {
        "tool": f"pytorch {torch.__version__}",
        "device": torch.cuda.get_device_name(0),
        "args": vars(args),
        "rows": rows,
    }
    json.dump(out, open(args.out, "w"), indent=2)


if __name__ == "__main__":
    main()
