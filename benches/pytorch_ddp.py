#!/usr/bin/env python3
"""The PyTorch yardstick for `oomlab train --devices` (issue 15): the same GPT
(benches/pytorch_gpt.py's `Gpt`, built from the same TOML config) trained with
DistributedDataParallel over NCCL, one process per GPU, started by torchrun:

  torchrun --standalone --nproc_per_node 2 benches/pytorch_ddp.py \\
      --config gpu.toml --data data.txt --batch 64 --steps 30 --out ddp.json [--zero]

--batch is the effective batch, split evenly over the processes (as oomlab splits it
over --devices). --zero wraps AdamW in torch.distributed.optim.ZeroRedundancyOptimizer
(ZeRO stage 1: each rank keeps 1/N of AdamW's state, the updated shards are
broadcast), what `--strategy shard-optimizer` does. --attention math|sdpa and --precision
f32|amp-bf16 as in pytorch_gpt.py (f32 allows TF32, as cubecl's matmul uses it).

Rank 0 writes one JSON object: the settings, and per rank its NVML peak for this PID on
its GPU (sampled every 10 ms), torch's max allocated/reserved, and the step times;
steady_step_s is the median of rank 0's steps after the first; samples_per_s =
effective batch / steady_step_s.
"""
import argparse
import json
import os
import statistics
import sys
import time
import tomllib

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytorch_gpt import Gpt, NvmlPeak  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--batch", type=int, help="effective batch (overrides train.batch)")
    p.add_argument("--steps", type=int, help="overrides train.max_steps")
    p.add_argument("--attention", choices=["math", "sdpa"], default="math")
    p.add_argument("--precision", choices=["f32", "amp-bf16"], default="f32")
    p.add_argument("--zero", action="store_true", help="ZeroRedundancyOptimizer (ZeRO stage 1)")
    p.add_argument("--out", required=True)
    args = p.parse_args()

    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    sampler = NvmlPeak(local)

    cfg = tomllib.load(open(args.config, "rb"))
    m, train, optim = cfg["model"], cfg["train"], cfg["optim"]
    batch = args.batch or train["batch"]
    if batch % world:
        raise SystemExit(f"--batch {batch} does not split over {world} processes")
    share = batch // world
    steps = args.steps or train["max_steps"]
    seed = train.get("seed", 42)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    amp = args.precision == "amp-bf16"

    text = open(args.data, encoding="utf-8").read()
    chars = sorted(set(text))
    lookup = {c: i for i, c in enumerate(chars)}
    tokens = torch.tensor([lookup[c] for c in text], dtype=torch.long)
    torch.manual_seed(seed)
    t_start = time.perf_counter()
    model = DistributedDataParallel(Gpt(len(chars), m, args.attention).to(dev), device_ids=[local])
    kw = dict(lr=optim["lr"], betas=(0.9, 0.999), eps=1e-5, weight_decay=optim.get("weight_decay", 0.0))
    if args.zero:
        from torch.distributed.optim import ZeroRedundancyOptimizer

        opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW, **kw)
    else:
        opt = torch.optim.AdamW(model.parameters(), **kw)
    # Every rank draws the whole batch from one generator and takes its rows, as oomlab's
    # peers do.
    gen = torch.Generator().manual_seed(seed)
    seq = m["seq_len"]
    times, losses, first = [], [], None
    for step in range(steps):
        t0 = time.perf_counter()
        starts = torch.randint(0, len(tokens) - seq - 1, (batch,), generator=gen)[rank * share:(rank + 1) * share]
        w = tokens[starts.unsqueeze(1) + torch.arange(seq + 1).unsqueeze(0)].to(dev)
        x, y = w[:, :-1], w[:, 1:]
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            logits = model(x)
        loss = F.cross_entropy(logits.float().reshape(-1, len(chars)), y.reshape(-1))
        loss.backward()
        opt.step()
        mean = loss.detach().clone()
        dist.all_reduce(mean)
        value = mean.item() / world
        torch.cuda.synchronize()
        if first is None:
            first = time.perf_counter() - t_start
        else:
            times.append(time.perf_counter() - t0)
        losses.append(value)
    mine = {
        "rank": rank,
        "device": torch.cuda.get_device_name(local),
        "peak_nvml_process_bytes": sampler.finish(),
        "peak_allocated_bytes": torch.cuda.max_memory_allocated(),
        "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
        "steady_step_s": statistics.median(times) if times else None,
    }
    ranks = [None] * world
    dist.all_gather_object(ranks, mine)
    if rank == 0:
        tail = max(1, len(losses) // 10)
        steady = mine["steady_step_s"]
        row = {
            "tool": f"pytorch {torch.__version__} DDP (NCCL)" + (" + ZeroRedundancyOptimizer" if args.zero else ""),
            "world": world,
            "zero": args.zero,
            "attention": args.attention,
            "precision": args.precision,
            "model": {k: m[k] for k in ("d_model", "n_layers", "n_heads", "d_ff", "seq_len")},
            "params": sum(p.numel() for p in model.parameters()),
            "vocab": len(chars),
            "batch": batch,
            "batch_per_rank": share,
            "steps": steps,
            "time_to_first_step_s": first,
            "steady_step_s": steady,
            "samples_per_s": batch / steady if steady else None,
            "first_loss": losses[0],
            "final_loss": sum(losses[-tail:]) / tail,
            "ranks": ranks,
        }
        json.dump(row, open(args.out, "w"), indent=2)
        print(json.dumps(row))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
