#!/usr/bin/env python3
"""The real GPU memory of training Hugging Face decoder-only models, to check the memory
estimator against.

The models are built from configs/hf/NAME.json (exact Hugging Face config.json contents)
with random weights (AutoConfig.for_model + AutoModelForCausalLM.from_config, no download,
use_cache off, attention "sdpa") and trained for a few steps of AdamW (torch defaults,
lr 1e-4) on random tokens, with the input as the labels. Each row of PLAN is one
(precision, batch, seq, checkpointing):
  f32       everything float32 (torch's default matmul precision, no TF32 switch)
  amp-bf16  float32 model, torch.autocast(bfloat16) around the forward and the loss only,
            backward outside autocast
  bf16      the model built in bfloat16 (pure bf16: grads and AdamW state in bf16), no autocast
checkpointing is model.gradient_checkpointing_enable() with transformers' default kwargs.

  python3 benches/hf_memory.py --out DIR [--only NAME,NAME] [--deadline-s 900] [--quick]

The parent process counts every config's parameters on the meta device (no GPU memory),
then runs each model of PLAN/SEARCH in a fresh worker process (this file, --worker NAME)
with a timeout of min(--model-cap-s, time left before the deadline); a worker that times
out or crashes leaves a row {"model", "status": "worker-failed", "detail": stderr's tail}.
The parent never touches CUDA itself (a short --probe subprocess reads the device
properties), so it holds no GPU memory. --quick: only the first two rows of gpt2 and no
search (a smoke test).

Per row the worker measures, after gc.collect + empty_cache + reset_peak_memory_stats:
  peak_allocated_bytes / peak_reserved_bytes  torch.cuda.max_memory_allocated/reserved
  allocated_per_step     max_memory_allocated after each step, so far
  phases_per_step        per step, after the forward pass, the backward pass and the
                         optimizer step: memory_allocated, memory_reserved, the peaks so
                         far, and the cache's segments, largest segment, largest free
                         block and free bytes (where the reserved peak is reached: issue
                         28's one miss had its peak at the optimizer step)
  peak_nvml_bytes        NVML's used memory for this PID, sampled every 5 ms on a thread
                         from just before the build to after the last step (null where
                         NVML does not list this PID, e.g. a container's PID namespace);
                         peak_nvml_device_used_bytes is the device-wide figure
  allocated_at_start_bytes / reserved_at_start_bytes  allocated / reserved when the row
                         starts: after gc.collect, dropping cuBLAS's workspaces (an earlier
                         row's pin its segments), empty_cache and the context's matmul again,
                         as in a fresh process; with alive_at_start: the largest CUDA
                         tensors the garbage collector reaches and their referrers
  context_nvml_bytes     NVML used for this PID minus memory_reserved after torch.cuda.init
                         and a tiny matmul (the CUDA context and the libraries' own), the
                         same in every row of a worker
An out-of-memory error is a result: status "oom" with the phase (build, forward,
backward, step) and the peaks so far; any other exception is status "error" with the
traceback's tail; the worker goes on with the next row either way.

After a model's rows, the largest-batch search (SEARCH) emulates a card of CARD bytes:
the allocator is capped with set_per_process_memory_fraction((CARD - outside) / total)
where outside is what the process holds outside the caching allocator (NVML used minus
memory_reserved); one model + AdamW; a trial of batch b is 2 full training steps; b doubles
from 1 until a trial fails (or 512), then bisects to adjacent good/bad batches.

Writes under DIR:
  env.json           versions (torch, transformers, accelerate or null), GPU name, total
                     memory (torch and NVML), driver, the command line, start/end UTC
  param-counts.json  {name: {"params", "transformers"}} for every configs/hf/*.json
  rows.jsonl         one JSON object per measured row, appended as each finishes
  search.jsonl       one JSON object per largest-batch search
Progress lines go to stdout with the seconds since the parent started.
"""
import argparse
import datetime
import gc
import glob
import json
import math
import os
import shlex
import subprocess
import sys
import threading
import time
import traceback

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# (precision, batch, seq, checkpointing), run in this order within a model.
PLAN = {
    "gpt2": [
        ("f32", 4, 1024, False),
        ("f32", 8, 1024, False),
        ("amp-bf16", 4, 1024, False),
        ("amp-bf16", 8, 1024, False),
        ("amp-bf16", 16, 1024, False),
        ("amp-bf16", 16, 1024, True),
        ("bf16", 8, 1024, False),
        ("f32", 8, 1024, True),
    ],
    "gpt2-medium": [
        ("f32", 4, 1024, False),
        ("amp-bf16", 4, 1024, False),
        ("amp-bf16", 8, 1024, False),
        ("amp-bf16", 8, 1024, True),
        ("bf16", 8, 1024, False),
    ],
    "qwen2.5-0.5b": [
        ("f32", 2, 1024, False),
        ("amp-bf16", 2, 1024, False),
        ("amp-bf16", 4, 1024, False),
        ("amp-bf16", 8, 1024, False),
        ("amp-bf16", 8, 1024, True),
        ("bf16", 4, 1024, False),
    ],
    "llama-3.2-1b": [
        ("f32", 2, 1024, False),
        ("amp-bf16", 2, 1024, False),
        ("amp-bf16", 4, 1024, False),
        ("amp-bf16", 8, 1024, False),
        ("amp-bf16", 8, 1024, True),
        ("bf16", 4, 1024, False),
        ("amp-bf16", 4, 2048, False),
    ],
    "mistral-7b": [
        ("bf16", 1, 1024, True),
        ("bf16", 2, 1024, True),
        ("bf16", 1, 1024, False),
        ("amp-bf16", 1, 1024, True),  # f32 weights + AdamW: may run out of memory (a result)
    ],
}

# Largest-batch searches: (precision, seq, checkpointing) under an emulated CARD-byte card.
SEARCH = {
    "gpt2": ("amp-bf16", 1024, False),
    "gpt2-medium": ("amp-bf16", 1024, False),
    "qwen2.5-0.5b": ("amp-bf16", 1024, False),
    "llama-3.2-1b": ("amp-bf16", 1024, False),
}
CARD = 24 * 2**30

# HF_MEMORY_SET=validation: the out-of-sample set (issue 28). The set above is the one
# src/hf/measured.rs reads its constants from (scripts/hf-calibrate.py); this one has
# other batches, sequences, settings, a model not in the first (llama-3-8b) and a 40 GiB
# card for the searches, and is what docs/results/2026-12-04-hf-estimate-validation.md counts.
if os.environ.get("HF_MEMORY_SET") == "validation":
    PLAN = {
        "gpt2": [
            ("f32", 16, 512, False),
            ("amp-bf16", 32, 512, False),
            ("amp-bf16", 4, 1024, True),
            ("bf16", 24, 1024, True),
        ],
        "gpt2-medium": [
            ("f32", 8, 1024, True),
            ("amp-bf16", 12, 1024, False),
            ("bf16", 2, 1024, False),
        ],
        "qwen2.5-0.5b": [
            ("f32", 4, 1024, True),
            ("amp-bf16", 4, 2048, False),
            ("bf16", 8, 1024, False),
            ("amp-bf16", 1, 512, False),
        ],
        "llama-3.2-1b": [
            ("f32", 4, 1024, True),
            ("amp-bf16", 16, 1024, True),
            ("bf16", 8, 1024, False),
            ("amp-bf16", 2, 4096, False),
            ("amp-bf16", 1, 1024, False),
        ],
        "mistral-7b": [
            ("bf16", 4, 2048, True),
            ("bf16", 2, 2048, False),
        ],
        "llama-3-8b": [
            ("bf16", 1, 1024, True),
            ("bf16", 4, 1024, True),
        ],
    }
    # the default SEARCH's four models, on a 40 GiB card
    CARD = 40 * 2**30

# HF_MEMORY_SET=optimizer-peak and optimizer-peak-holdout (issue 28's one miss: the
# reserved peak of llama-3.2-1b f32, checkpointing, 4 x 1024 formed after the optimizer
# step): rows whose allocated peak is at the optimizer step, with the phases' cache shape
# recorded. The first set is read to model the reserved peak there; the second is run in
# the same call but read only after that model is committed, and is its test.
if os.environ.get("HF_MEMORY_SET") == "optimizer-peak":
    PLAN = {
        "qwen2.5-0.5b": [
            ("f32", 2, 1024, True),
        ],
        "llama-3.2-1b": [
            ("f32", 4, 1024, True),
            ("f32", 2, 1024, True),
            ("amp-bf16", 4, 1024, True),
            ("amp-bf16", 1, 1024, False),
            ("bf16", 8, 1024, True),
        ],
        "mistral-7b": [
            ("bf16", 4, 2048, True),
        ],
        "llama-3-8b": [
            ("bf16", 4, 1024, True),
            ("bf16", 2, 1024, True),
        ],
    }
    SEARCH = {}
elif os.environ.get("HF_MEMORY_SET") == "optimizer-peak-holdout":
    PLAN = {
        "gpt2-medium": [
            ("f32", 16, 1024, True),
        ],
        "qwen2.5-0.5b": [
            ("f32", 4, 512, True),
            ("amp-bf16", 4, 1024, True),
            ("bf16", 8, 1024, True),
        ],
        "llama-3.2-1b": [
            ("f32", 3, 1024, True),
            ("f32", 2, 2048, True),
            ("amp-bf16", 6, 1024, True),
            ("amp-bf16", 2, 2048, True),
            ("bf16", 16, 1024, True),
        ],
        "mistral-7b": [
            ("bf16", 8, 1024, True),
        ],
        "llama-3-8b": [
            ("bf16", 8, 1024, True),
            ("bf16", 2, 2048, True),
        ],
    }
    SEARCH = {}

# HF_MEMORY_SET=trace: checkpointed rows across the allocator slack's range (issue 28's
# last miss, qwen2.5-0.5b pure bf16 8 x 1024, reserved 1.046 x allocated; others 1.1-1.3),
# run with HF_MEMORY_TRACE=1 to see where the caching allocator's segments come from.
elif os.environ.get("HF_MEMORY_SET") == "trace":
    PLAN = {
        "gpt2-medium": [
            ("f32", 16, 1024, True),
        ],
        "qwen2.5-0.5b": [
            ("bf16", 8, 1024, True),
            ("amp-bf16", 4, 1024, True),
            ("amp-bf16", 4, 1024, False),
        ],
        "llama-3.2-1b": [
            ("bf16", 8, 1024, True),
            ("amp-bf16", 8, 1024, True),
        ],
    }
    SEARCH = {}

# HF_MEMORY_SET=search: the validation set's largest-batch searches alone (the default
# SEARCH on a 40 GiB card),
# each from a fresh cache (fresh_cache; the searches of the first fresh-rows run began
# with 180-536 MiB an earlier row had left reserved).
elif os.environ.get("HF_MEMORY_SET") == "search":
    PLAN = {}
    # the default SEARCH's four models, on a 40 GiB card
    CARD = 40 * 2**30

# HF_MEMORY_SET=trace2 (with HF_MEMORY_TRACE=1): the combinations the first trace set
# lacks, for a model of the allocator's placements to be written against: GPT-2 under AMP
# and pure bf16 with checkpointing, f32 grouped-query attention written out, an
# optimizer-step peak, and the pure-bf16 rows without checkpointing whose reserve moved by
# one logits segment between runs.
elif os.environ.get("HF_MEMORY_SET") == "trace2":
    PLAN = {
        "gpt2": [
            ("amp-bf16", 16, 1024, True),
            ("bf16", 24, 1024, True),
            ("f32", 8, 1024, False),
            ("bf16", 8, 1024, False),
        ],
        "qwen2.5-0.5b": [
            ("f32", 4, 1024, True),
            ("bf16", 8, 1024, False),
        ],
        "llama-3.2-1b": [
            ("f32", 4, 1024, True),
            ("bf16", 8, 1024, False),
        ],
    }
    SEARCH = {}

# HF_MEMORY_SET=templates (with --configs configs/hf-templates, HF_MEMORY_TRACE=1): small
# models of each architecture the estimate replays (GPT-2; Qwen2, Llama and Mistral, tied
# or untied head; qwen2-untied added in a later call, without the one-head shape b), in
# two shapes whose dimensions differ from each other everywhere, every
# precision with and without checkpointing: the traces scripts/hf-templates.py reads the
# allocation sequence of a training step from (src/hf/templates/).
elif os.environ.get("HF_MEMORY_SET") == "templates":
    _combos = [(p, c) for c in (False, True) for p in ("f32", "amp-bf16", "bf16")]
    PLAN = {}
    for _family in ("gpt2", "qwen2-tied", "llama-tied", "llama-untied", "mistral-untied",
                    "qwen2-untied"):
        PLAN[_family + "-a"] = [(p, 3, 320, c) for p, c in _combos]
        if _family in ("gpt2", "qwen2-tied", "llama-tied", "llama-untied", "mistral-untied"):
            PLAN[_family + "-b"] = [(p, 2, 448, c) for p, c in _combos]
        if _family != "gpt2":
            # -b has one key/value head, and multi-query attention takes other kernels
            # (its backward pass frees in another order): -c has three, as -a has two
            PLAN[_family + "-c"] = [(p, 2, 448, c) for p, c in _combos]
    SEARCH = {}

# HF_MEMORY_SET=template-holdout: rows of the built-in shapes in none of the sets above,
# measured before the replay of src/hf/templates/ was written (issue 28's last check).
elif os.environ.get("HF_MEMORY_SET") == "template-holdout":
    PLAN = {
        "gpt2": [("amp-bf16", 12, 1024, True), ("f32", 6, 1024, False)],
        "gpt2-medium": [("bf16", 12, 1024, True), ("amp-bf16", 6, 512, False)],
        "qwen2.5-0.5b": [("bf16", 12, 1024, True), ("f32", 2, 2048, True), ("amp-bf16", 6, 1024, False)],
        "llama-3.2-1b": [("bf16", 6, 2048, True), ("amp-bf16", 3, 2048, True), ("f32", 1, 2048, False)],
        "mistral-7b": [("bf16", 2, 4096, True)],
    }
    SEARCH = {}

# HF_MEMORY_SET=untied-holdout: a Qwen2 with an untied head (Qwen2.5-7B), the built-in shape
# of the template traced last (qwen2-untied), measured before its replay was written.
elif os.environ.get("HF_MEMORY_SET") == "untied-holdout":
    PLAN = {"qwen2.5-7b": [("bf16", 2, 2048, True), ("bf16", 1, 1024, False)]}
    SEARCH = {}

# HF_MEMORY_SET=expandable: every checkpointed row of the four earlier runs (their reserved
# over allocated spans 1.01-1.42 where the allocator places AdamW's state in the logits'
# segments or not) and a few without, to run once with the default allocator and once
# with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True in the same call.
elif os.environ.get("HF_MEMORY_SET") == "expandable":
    PLAN = {
        "gpt2": [
            ("f32", 8, 1024, True),
            ("amp-bf16", 4, 1024, True),
            ("amp-bf16", 16, 1024, True),
            ("bf16", 24, 1024, True),
            ("f32", 16, 512, False),
            ("amp-bf16", 32, 512, False),
        ],
        "gpt2-medium": [
            ("f32", 8, 1024, True),
            ("f32", 16, 1024, True),
            ("amp-bf16", 8, 1024, True),
            ("amp-bf16", 12, 1024, False),
        ],
        "qwen2.5-0.5b": [
            ("f32", 2, 1024, True),
            ("f32", 4, 1024, True),
            ("amp-bf16", 4, 1024, True),
            ("amp-bf16", 8, 1024, True),
            ("bf16", 8, 1024, True),
            ("amp-bf16", 4, 2048, False),
            ("bf16", 8, 1024, False),
        ],
        "llama-3.2-1b": [
            ("f32", 2, 1024, True),
            ("f32", 3, 1024, True),
            ("f32", 4, 1024, True),
            ("amp-bf16", 6, 1024, True),
            ("amp-bf16", 8, 1024, True),
            ("amp-bf16", 16, 1024, True),
            ("bf16", 8, 1024, True),
            ("bf16", 16, 1024, True),
            ("amp-bf16", 2, 4096, False),
            ("bf16", 8, 1024, False),
        ],
    }
    SEARCH = {}

# HF_MEMORY_TRACE=1: per row, the caching allocator's event trace
# (torch.cuda.memory._record_memory_history, no stack traces) from before the build to
# the last step, written to DIR/traces/<row>.tsv.gz: one line per event, `action addr
# size time_us` (alloc, free_requested, free_completed, segment_alloc, segment_free, ...),
# and `mark <phase> <step> time_us` lines at the build's end and after each step's
# forward pass, backward pass and optimizer step (host time; the allocator's events are
# made on the host in program order).
TRACE = os.environ.get("HF_MEMORY_TRACE") == "1"

STEPS = 4                # training steps per row
SEARCH_STEPS = 2         # training steps per search trial
SEARCH_MAX_BATCH = 512
SEARCH_CAP_S = 150.0
MODEL_CAP_S = 240.0      # per worker process
SAMPLE_PERIOD_S = 0.005  # NVML sampler
LR = 1e-4

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CONFIGS = os.path.join(os.path.dirname(HERE), "configs", "hf")
PROBE_TAG = "HF_MEMORY_PROBE "


# ---------------------------------------------------------------------------- helpers

def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def say(t0, text):
    print(f"[{time.time() - t0:7.1f}s] {text}", flush=True)


def dumps(obj):
    return json.dumps(obj, default=str)


def append_jsonl(path, obj):
    with open(path, "a", encoding="utf-8") as f:
        f.write(dumps(obj) + "\n")
        f.flush()


def write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(obj, indent=2, default=str) + "\n")
    os.replace(tmp, path)


def gib(n):
    return "n/a" if n is None else f"{n / 2**30:.2f}"


def finite(v):
    v = float(v)
    return v if math.isfinite(v) else str(v)


def load_config(configs_dir, name):
    """A transformers config from configs/hf/NAME.json, use_cache off."""
    from transformers import AutoConfig

    with open(os.path.join(configs_dir, name + ".json"), encoding="utf-8") as f:
        d = json.load(f)
    d.pop("architectures", None)
    d.pop("torch_dtype", None)
    model_type = d.pop("model_type")
    try:
        cfg = AutoConfig.for_model(model_type, **d)
    except AttributeError:  # no for_model in this version
        from transformers import CONFIG_MAPPING

        cfg = CONFIG_MAPPING[model_type](**d)
    cfg.use_cache = False
    return cfg


def versions():
    out = {}
    try:
        import torch

        out["torch"] = torch.__version__
        out["torch_cuda"] = torch.version.cuda
    except Exception as e:
        out["torch"] = f"import failed: {e!r}"
    try:
        import transformers

        out["transformers"] = transformers.__version__
    except Exception as e:
        out["transformers"] = f"import failed: {e!r}"
    try:
        from importlib.metadata import version

        out["accelerate"] = version("accelerate")
    except Exception:
        try:
            import accelerate

            out["accelerate"] = getattr(accelerate, "__version__", "unknown")
        except Exception:
            out["accelerate"] = None
    return out


class Nvml:
    """NVML readings for this process (by PID) and for the whole device; None on failure."""

    def __init__(self):
        self.nv = None
        self.handle = None
        self.pid = os.getpid()
        self.error = None
        try:
            import pynvml

            pynvml.nvmlInit()
            index = 0
            visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
            if visible.isdigit():
                index = int(visible)
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            self.nv = pynvml
        except Exception as e:
            self.error = repr(e)

    def process_used(self):
        if self.nv is None:
            return None
        try:
            for p in self.nv.nvmlDeviceGetComputeRunningProcesses(self.handle):
                if p.pid == self.pid and p.usedGpuMemory:
                    return int(p.usedGpuMemory)
        except Exception:
            pass
        return None

    def device_used(self):
        if self.nv is None:
            return None
        try:
            return int(self.nv.nvmlDeviceGetMemoryInfo(self.handle).used)
        except Exception:
            return None


def memory_now():
    """The caching allocator's figures now: allocated, reserved, the peaks so far, and the
    shape of its cache from torch.cuda.memory_snapshot() (segments, the largest segment,
    the largest free block and the free bytes in the cache)."""
    import torch
    out = {"allocated": int(torch.cuda.memory_allocated()),
           "reserved": int(torch.cuda.memory_reserved()),
           "max_allocated": int(torch.cuda.max_memory_allocated()),
           "max_reserved": int(torch.cuda.max_memory_reserved())}
    try:
        segs = torch.cuda.memory_snapshot()
        free = [b["size"] for s in segs for b in s.get("blocks", []) if b.get("state") == "inactive"]
        out["segments"] = len(segs)
        out["largest_segment"] = max((int(s["total_size"]) for s in segs), default=0)
        out["largest_free_block"] = int(max(free, default=0))
        out["free_in_cache"] = int(sum(free))
    except Exception as e:
        out["snapshot_error"] = repr(e)[:200]
    return out


def cuda_tensors_alive(limit=8):
    """The largest CUDA tensors the garbage collector can reach: shape, dtype, bytes, and
    the types of the objects that refer to each (to find what an earlier row left)."""
    import torch
    found = []
    for o in gc.get_objects():
        try:
            if isinstance(o, torch.Tensor) and o.is_cuda:
                found.append(o)
        except Exception:
            continue
    found.sort(key=lambda t: -t.untyped_storage().nbytes())
    out = []
    for t in found[:limit]:
        refs = [type(r).__name__ for r in gc.get_referrers(t)
                if r is not found and not isinstance(r, type(sys._getframe()))][:6]
        out.append({"shape": list(t.shape), "dtype": str(t.dtype),
                    "bytes": int(t.untyped_storage().nbytes()), "referrers": refs})
    del found
    return out


class PeakSampler:
    """Peak of NVML's used memory (this PID, and the device) on a thread, every 5 ms."""

    def __init__(self, nvml, period=SAMPLE_PERIOD_S):
        self.nvml = nvml
        self.period = period
        self.peak_process = None
        self.peak_device = None
        self.samples = 0
        self.halt = threading.Event()
        self.sample()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def sample(self):
        p = self.nvml.process_used()
        d = self.nvml.device_used()
        if p is not None:
            self.peak_process = p if self.peak_process is None else max(self.peak_process, p)
        if d is not None:
            self.peak_device = d if self.peak_device is None else max(self.peak_device, d)
        self.samples += 1

    def loop(self):
        while not self.halt.is_set():
            try:
                self.sample()
            except Exception:
                pass
            self.halt.wait(self.period)

    def stop(self):
        self.halt.set()
        self.thread.join(timeout=5)
        try:
            self.sample()
        except Exception:
            pass
        return self.peak_process, self.peak_device


# ---------------------------------------------------------------------------- probe

def probe():
    """Device properties, in a short process of its own so the parent never inits CUDA."""
    import torch

    torch.cuda.init()
    p = torch.cuda.get_device_properties(0)
    info = {
        "gpu_name": p.name,
        "total_memory_bytes": int(p.total_memory),
        "capability": [p.major, p.minor],
        "multi_processor_count": p.multi_processor_count,
        "device_count": torch.cuda.device_count(),
        "torch_cuda": torch.version.cuda,
    }
    try:
        info["cudnn"] = torch.backends.cudnn.version()
    except Exception:
        info["cudnn"] = None
    try:
        info["float32_matmul_precision"] = torch.get_float32_matmul_precision()
    except Exception:
        info["float32_matmul_precision"] = None
    print(PROBE_TAG + dumps(info), flush=True)


# ---------------------------------------------------------------------------- worker

class Worker:
    def __init__(self, args):
        import torch
        import transformers

        self.args = args
        self.t0 = args.t0 if args.t0 else time.time()
        self.torch = torch
        self.tv = transformers.__version__
        self.rows_path = os.path.join(args.out, "rows.jsonl")
        self.search_path = os.path.join(args.out, "search.jsonl")
        # the parent kills this process at --kill-at: leave the search a margin before it
        self.deadline = (args.kill_at if args.kill_at else time.time() + MODEL_CAP_S) - 15.0
        self.oom_types = tuple(t for t in (getattr(torch, "OutOfMemoryError", None),
                                           getattr(torch.cuda, "OutOfMemoryError", None))
                               if t is not None)
        self.nvml = Nvml()
        self.context = {}

    def log(self, text):
        say(self.t0, text)

    def is_oom(self, e):
        if self.oom_types and isinstance(e, self.oom_types):
            return True
        s = str(e)
        return isinstance(e, RuntimeError) and ("out of memory" in s.lower() or "ALLOC_FAILED" in s)

    def init_context(self):
        """The CUDA context and the libraries' own memory: NVML used minus reserved."""
        torch = self.torch
        before = self.nvml.device_used()
        torch.cuda.init()
        (torch.ones(64, 64, device="cuda") @ torch.ones(64, 64, device="cuda")).sum().item()
        torch.cuda.synchronize()
        used = self.nvml.process_used()
        dev = self.nvml.device_used()
        reserved = int(torch.cuda.memory_reserved())
        self.context = {
            "context_nvml_bytes": None if used is None else used - reserved,
            "reserved_at_context_bytes": reserved,
            "context_nvml_device_bytes": (None if before is None or dev is None
                                          else dev - before - reserved),
        }
        self.total_memory = int(torch.cuda.get_device_properties(0).total_memory)
        self.log(f"worker {self.args.worker}: pid {os.getpid()}, CUDA context "
                 f"{gib(self.context['context_nvml_bytes'])} GiB (NVML for this PID minus "
                 f"reserved; device-wide {gib(self.context['context_nvml_device_bytes'])} GiB)"
                 + (f", NVML unavailable: {self.nvml.error}" if self.nvml.error else ""))

    def build(self, cfg, dtype):
        """model on the GPU in dtype; returns (model, which kwarg carried the dtype)."""
        from transformers import AutoModelForCausalLM

        torch = self.torch
        try:
            with torch.device("cuda"):
                return AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa",
                                                        dtype=dtype), "dtype"
        except TypeError as e:
            if "dtype" not in str(e):
                raise
        with torch.device("cuda"):
            return AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa",
                                                    torch_dtype=dtype), "torch_dtype"

    def accelerate_info(self, model):
        try:
            import accelerate
        except Exception:
            return None
        info = {"version": getattr(accelerate, "__version__", None),
                "model_dtype": str(next(model.parameters()).dtype)}
        try:
            from accelerate.utils import calculate_maximum_sizes

            total, largest = calculate_maximum_sizes(model)
            info["total_size"] = int(total)
            info["largest_layer"] = json.loads(dumps(largest))
        except Exception as e:
            info["error"] = f"calculate_maximum_sizes: {e!r}"[:600]
            return info
        try:
            from accelerate.commands import estimate

            fn = getattr(estimate, "estimate_training_usage", None)
            if fn is None:
                info["estimate_training_usage"] = "not in this accelerate"
            else:
                info["float32"] = json.loads(dumps(fn(total, "float32")))
                info["bfloat16"] = json.loads(dumps(fn(total, "bfloat16")))
        except Exception as e:
            info["estimate_error"] = f"estimate_training_usage: {e!r}"[:600]
        return info

    @staticmethod
    def checkpoint_kwargs(model):
        for m in model.modules():
            f = getattr(m, "_gradient_checkpointing_func", None)
            if f is not None:
                kw = getattr(f, "keywords", None)
                if isinstance(kw, dict):
                    return {k: repr(v) for k, v in kw.items()}
                return repr(f)
        return None

    def fresh_cache(self):
        """Leave the caching allocator as a fresh process's first row finds it. cuBLAS keeps
        a workspace per thread and stream in the caching allocator: the one of the autograd
        thread, made during an earlier row's backward pass, pins that row's segment, which
        empty_cache cannot give back (up to 1 GiB seen before a worker's later rows:
        docs/results/2026-12-04-h200-hf-expandable). Drop them all, empty the cache, then
        make the main thread's workspace again as init_context's matmul made it."""
        torch = self.torch
        gc.collect()
        clear = getattr(torch._C, "_cuda_clearCublasWorkspaces", None)
        if clear is not None:
            clear()
        torch.cuda.empty_cache()
        (torch.ones(64, 64, device="cuda") @ torch.ones(64, 64, device="cuda")).sum().item()
        torch.cuda.synchronize()

    def write_trace(self, name, spec, marks):
        """The allocator's event trace of this row (HF_MEMORY_TRACE=1), then recording off."""
        import gzip

        torch = self.torch
        precision, batch, seq, ckpt = spec
        try:
            snap = torch.cuda.memory._snapshot()
            events = snap["device_traces"][torch.cuda.current_device()]
            d = os.path.join(self.args.out, "traces")
            os.makedirs(d, exist_ok=True)
            fname = f"{name}-{precision}-b{batch}-s{seq}{'-ckpt' if ckpt else ''}.tsv.gz"
            with gzip.open(os.path.join(d, fname), "wt", encoding="utf-8") as f:
                for e in events:
                    f.write(f"{e['action']}\t{e['addr']}\t{e['size']}\t{e.get('time_us', 0)}\n")
                for phase, step, t in marks:
                    f.write(f"mark\t{phase}\t{step}\t{t}\n")
            return {"file": "traces/" + fname, "events": len(events)}
        except Exception:
            return {"error": traceback.format_exc()[-800:]}
        finally:
            torch.cuda.memory._record_memory_history(enabled=None)

    def run_row(self, name, spec, first):
        torch = self.torch
        precision, batch, seq, ckpt = spec
        amp = precision == "amp-bf16"
        dtype = torch.bfloat16 if precision == "bf16" else torch.float32
        row = {
            "model": name, "precision": precision, "batch": batch, "seq": seq,
            "checkpointing": ckpt, "status": None, "oom_phase": None, "oom_message": None,
            "error": None, "error_phase": None, "steps_completed": 0, "losses": [],
            "step_s": [], "build_s": None, "params": None, "param_dtype": None,
            "dtype_kwarg": None, "dtype_cast_after_build": False,
            "attn_implementation": None, "checkpoint_kwargs": None,
            "peak_allocated_bytes": None, "peak_reserved_bytes": None,
            "peak_nvml_bytes": None, "peak_nvml_device_used_bytes": None, "nvml_samples": 0,
            "context_nvml_bytes": self.context.get("context_nvml_bytes"),
            "reserved_at_context_bytes": self.context.get("reserved_at_context_bytes"),
            "context_nvml_device_bytes": self.context.get("context_nvml_device_bytes"),
            "allocated_per_step": [], "phases_per_step": [], "optimizer_defaults": None, "accelerate": None,
            "torch": torch.__version__, "transformers": self.tv,
        }
        model = opt = x = loss = None
        phase = "build"
        failure = None
        self.fresh_cache()
        torch.cuda.reset_peak_memory_stats()
        # What an earlier row of this worker left behind (the context's workspace alone
        # where nothing is): it counts in this row's reserved peak.
        row["allocated_at_start_bytes"] = int(torch.cuda.memory_allocated())
        row["reserved_at_start_bytes"] = int(torch.cuda.memory_reserved())
        row["alive_at_start"] = (cuda_tensors_alive()
                                 if row["allocated_at_start_bytes"] > (row["reserved_at_context_bytes"] or 0)
                                 else [])
        sampler = PeakSampler(self.nvml)
        marks = []
        if TRACE:
            torch.cuda.memory._record_memory_history(enabled="all", context=None,
                                                     stacks="python", max_entries=5_000_000)
        try:
            t = time.perf_counter()
            cfg = load_config(self.args.configs, name)
            torch.manual_seed(0)
            model, row["dtype_kwarg"] = self.build(cfg, dtype)
            if next(model.parameters()).dtype != dtype:
                # the dtype kwarg was ignored by this transformers version
                model = model.to(dtype)
                row["dtype_cast_after_build"] = True
            model.train()
            if ckpt:
                model.gradient_checkpointing_enable()
                row["checkpoint_kwargs"] = self.checkpoint_kwargs(model)
            row["params"] = sum(p.numel() for p in model.parameters())
            row["param_dtype"] = str(next(model.parameters()).dtype)
            row["attn_implementation"] = getattr(model.config, "_attn_implementation", None)
            if first:
                row["accelerate"] = self.accelerate_info(model)
            opt = torch.optim.AdamW(model.parameters(), lr=LR)
            row["optimizer_defaults"] = {"foreach": str(opt.defaults.get("foreach")),
                                         "fused": str(opt.defaults.get("fused"))}
            x = torch.randint(0, cfg.vocab_size, (batch, seq), device="cuda")
            torch.cuda.synchronize()
            marks.append(("build", -1, time.time_ns() // 1000))
            row["build_s"] = time.perf_counter() - t
            for step in range(STEPS):
                t = time.perf_counter()
                phases = {}
                phase = "forward"
                with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                    loss = model(input_ids=x, labels=x).loss
                phases["forward"] = memory_now()
                marks.append(("forward", step, time.time_ns() // 1000))
                phase = "backward"
                loss.backward()
                phases["backward"] = memory_now()
                marks.append(("backward", step, time.time_ns() // 1000))
                phase = "step"
                opt.step()
                opt.zero_grad(set_to_none=True)
                torch.cuda.synchronize()
                phases["step"] = memory_now()
                marks.append(("step", step, time.time_ns() // 1000))
                row["phases_per_step"].append(phases)
                row["losses"].append(finite(loss.item()))
                loss = None
                row["step_s"].append(time.perf_counter() - t)
                row["allocated_per_step"].append(int(torch.cuda.max_memory_allocated()))
                row["steps_completed"] = step + 1
            phase = None
        except Exception as e:
            if self.is_oom(e):
                failure = ("oom", phase or "unknown", str(e)[:600])
            else:
                failure = ("error", phase or "unknown", traceback.format_exc()[-1500:])
        finally:
            peak_process, peak_device = sampler.stop()
        if TRACE:
            row["trace"] = self.write_trace(name, spec, marks)
        row["peak_allocated_bytes"] = int(torch.cuda.max_memory_allocated())
        row["peak_reserved_bytes"] = int(torch.cuda.max_memory_reserved())
        row["peak_nvml_bytes"] = peak_process
        row["peak_nvml_device_used_bytes"] = peak_device
        row["nvml_samples"] = sampler.samples
        if failure is None:
            row["status"] = "completed"
        elif failure[0] == "oom":
            row["status"], row["oom_phase"], row["oom_message"] = failure
        else:
            row["status"], row["error_phase"], row["error"] = failure
        model = opt = x = loss = None
        gc.collect()
        torch.cuda.empty_cache()

        label = f"{name} {precision} b{batch} s{seq}{' ckpt' if ckpt else ''}"
        if row["status"] == "completed":
            steady = sorted(row["step_s"][1:]) or row["step_s"]
            self.log(f"{label}: completed, peak allocated {gib(row['peak_allocated_bytes'])} GiB, "
                     f"reserved {gib(row['peak_reserved_bytes'])} GiB, NVML {gib(peak_process)} GiB, "
                     f"step {steady[len(steady) // 2]:.3f} s, losses {row['losses']}")
        elif row["status"] == "oom":
            first_line = (row["oom_message"] or "").strip().splitlines()[:1]
            self.log(f"{label}: OUT OF MEMORY in {row['oom_phase']} after "
                     f"{row['steps_completed']} steps, peak allocated "
                     f"{gib(row['peak_allocated_bytes'])} GiB: {' '.join(first_line)[:200]}")
        else:
            self.log(f"{label}: ERROR in {row['error_phase']}: ...{row['error'][-300:]}")
        return row

    def run_search(self, name, spec):
        torch = self.torch
        precision, seq, ckpt = spec
        amp = precision == "amp-bf16"
        dtype = torch.bfloat16 if precision == "bf16" else torch.float32
        start = time.time()
        deadline = min(start + SEARCH_CAP_S, self.deadline)
        self.fresh_cache()
        reserved = int(torch.cuda.memory_reserved())
        used, source = self.nvml.process_used(), "nvml-process"
        if used is None:
            used, source = self.nvml.device_used(), "nvml-device"
        if used is None:
            outside, source = 0, "none"
        else:
            outside = max(0, used - reserved)
        fraction = min(1.0, max(0.01, (CARD - outside) / self.total_memory))
        rec = {
            "model": name, "precision": precision, "seq": seq, "checkpointing": ckpt,
            "card_bytes": CARD, "outside_bytes": outside, "outside_source": source,
            "reserved_at_start_bytes": reserved, "total_memory_bytes": self.total_memory,
            "fraction": fraction, "steps_per_trial": SEARCH_STEPS, "params": None,
            "trials": [], "largest_ok_batch": 0, "first_failed_batch": None,
            "stopped": None, "build_error": None, "search_s": None,
            "torch": torch.__version__, "transformers": self.tv,
        }
        self.log(f"search {name} {precision} s{seq}: card {gib(CARD)} GiB, outside the "
                 f"allocator {gib(outside)} GiB ({source}), fraction {fraction:.4f}")
        torch.cuda.set_per_process_memory_fraction(fraction)
        model = opt = None
        try:
            if time.time() > deadline:
                rec["stopped"] = "time"
                cfg = None
            else:
                try:
                    cfg = load_config(self.args.configs, name)
                    torch.manual_seed(0)
                    model, _ = self.build(cfg, dtype)
                    if next(model.parameters()).dtype != dtype:
                        model = model.to(dtype)
                    model.train()
                    if ckpt:
                        model.gradient_checkpointing_enable()
                    rec["params"] = sum(p.numel() for p in model.parameters())
                    opt = torch.optim.AdamW(model.parameters(), lr=LR)
                except Exception as e:
                    rec["stopped"] = "build-failed"
                    rec["build_error"] = (str(e)[:600] if self.is_oom(e)
                                          else traceback.format_exc()[-1500:])
                    model = opt = None
            if model is not None:
                self.bisect(rec, model, opt, cfg, seq, amp, deadline)
        finally:
            model = opt = None
            gc.collect()
            torch.cuda.empty_cache()
            torch.cuda.set_per_process_memory_fraction(1.0)
        rec["search_s"] = time.time() - start
        self.log(f"search {name}: largest good batch {rec['largest_ok_batch']}, first failed "
                 f"{rec['first_failed_batch']}"
                 + (f" (stopped: {rec['stopped']})" if rec["stopped"] else ""))
        return rec

    def trial(self, rec, model, opt, cfg, b, seq, amp):
        """SEARCH_STEPS full training steps at batch b; returns None, "oom" or "error"."""
        torch = self.torch
        gc.collect()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        t = time.perf_counter()
        xb = loss = None
        kind, message = None, None
        try:
            xb = torch.randint(0, cfg.vocab_size, (b, seq), device="cuda")
            for _ in range(SEARCH_STEPS):
                with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                    loss = model(input_ids=xb, labels=xb).loss
                loss.backward()
                opt.step()
                opt.zero_grad(set_to_none=True)
                loss = None
            torch.cuda.synchronize()
        except Exception as e:
            if self.is_oom(e):
                kind, message = "oom", str(e)[:300]
            else:
                kind, message = "error", traceback.format_exc()[-1500:]
        peak_reserved = int(torch.cuda.max_memory_reserved())
        peak_allocated = int(torch.cuda.max_memory_allocated())
        opt.zero_grad(set_to_none=True)
        xb = loss = None
        gc.collect()
        torch.cuda.empty_cache()
        rec["trials"].append({"batch": b, "ok": kind is None, "peak_reserved_bytes": peak_reserved,
                              "peak_allocated_bytes": peak_allocated, "message": message,
                              "trial_s": time.perf_counter() - t})
        self.log(f"  trial b{b}: {'ok' if kind is None else kind}, peak reserved "
                 f"{gib(peak_reserved)} GiB, allocated {gib(peak_allocated)} GiB")
        return kind

    def bisect(self, rec, model, opt, cfg, seq, amp, deadline):
        good, bad, b = 0, None, 1
        while True:
            if time.time() > deadline:
                rec["stopped"] = "time"
                break
            kind = self.trial(rec, model, opt, cfg, b, seq, amp)
            if kind == "error":
                rec["stopped"] = "error"
                break
            if kind is None:
                good = b
                if b >= SEARCH_MAX_BATCH:
                    break
                b = min(2 * b, SEARCH_MAX_BATCH)
            else:
                bad = b
                break
        if rec["stopped"] is None and bad is not None:
            while bad - good > 1:
                if time.time() > deadline:
                    rec["stopped"] = "time"
                    break
                mid = (good + bad) // 2
                kind = self.trial(rec, model, opt, cfg, mid, seq, amp)
                if kind == "error":
                    rec["stopped"] = "error"
                    break
                if kind is None:
                    good = mid
                else:
                    bad = mid
        rec["largest_ok_batch"] = good
        rec["first_failed_batch"] = bad

    def run(self):
        name = self.args.worker
        rows = PLAN.get(name, [])
        if self.args.quick:
            rows = rows[:2]
        self.init_context()
        for i, spec in enumerate(rows):
            try:
                row = self.run_row(name, spec, first=(i == 0))
            except Exception:
                row = {"model": name, "precision": spec[0], "batch": spec[1], "seq": spec[2],
                       "checkpointing": spec[3], "status": "error",
                       "error": traceback.format_exc()[-1500:]}
                self.log(f"{name} {spec}: ERROR outside the row: ...{row['error'][-300:]}")
            append_jsonl(self.rows_path, row)
        if name in SEARCH and not self.args.quick:
            try:
                rec = self.run_search(name, SEARCH[name])
            except Exception:
                rec = {"model": name, "stopped": "error", "error": traceback.format_exc()[-1500:]}
                self.log(f"search {name}: ERROR: ...{rec['error'][-300:]}")
            append_jsonl(self.search_path, rec)


# ---------------------------------------------------------------------------- parent

def param_counts(configs_dir, t0):
    """{name: {"params", "transformers"}} for every config, counted on the meta device."""
    import torch
    import transformers
    from transformers import AutoModelForCausalLM

    counts = {}
    for path in sorted(glob.glob(os.path.join(configs_dir, "*.json"))):
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            cfg = load_config(configs_dir, name)
            with torch.device("meta"):
                m = AutoModelForCausalLM.from_config(cfg)
            n = sum(p.numel() for p in m.parameters())
            del m
            counts[name] = {"params": int(n), "transformers": transformers.__version__}
            say(t0, f"params {name}: {n:,}")
        except Exception as e:
            counts[name] = {"params": None, "transformers": transformers.__version__,
                            "error": traceback.format_exc()[-1500:]}
            say(t0, f"params {name}: failed: {e!r}"[:300])
    return counts


def gpu_probe(t0):
    cmd = [sys.executable, os.path.abspath(__file__), "--probe"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=180)
    except subprocess.TimeoutExpired:
        return {"error": "probe timed out"}
    for line in p.stdout.splitlines():
        if line.startswith(PROBE_TAG):
            return json.loads(line[len(PROBE_TAG):])
    return {"error": f"probe exit {p.returncode}: {(p.stderr or '')[-1000:]}"}


def nvml_info():
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(0)
        name = pynvml.nvmlDeviceGetName(h)
        driver = pynvml.nvmlSystemGetDriverVersion()
        return {
            "nvml_gpu_name": name.decode() if isinstance(name, bytes) else name,
            "nvml_total_bytes": int(pynvml.nvmlDeviceGetMemoryInfo(h).total),
            "nvml_used_at_start_bytes": int(pynvml.nvmlDeviceGetMemoryInfo(h).used),
            "driver_version": driver.decode() if isinstance(driver, bytes) else driver,
        }
    except Exception as e:
        return {"nvml_gpu_name": None, "nvml_total_bytes": None, "driver_version": None,
                "nvml_error": repr(e)}


def as_text(data):
    if data is None:
        return ""
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data


def parent(args):
    t0 = time.time()
    os.makedirs(args.out, exist_ok=True)
    rows_path = os.path.join(args.out, "rows.jsonl")
    env_path = os.path.join(args.out, "env.json")
    say(t0, f"hf_memory: out {args.out}, deadline {args.deadline_s:.0f} s"
        + (" (quick)" if args.quick else ""))

    env = {"command": shlex.join(getattr(sys, "orig_argv", [sys.executable] + sys.argv)),
           "python": sys.version, "python_executable": sys.executable,
           "start_utc": utc_now(), "end_utc": None}
    env.update(versions())
    gpu = gpu_probe(t0)
    env["gpu_name"] = gpu.get("gpu_name")
    env["total_memory_bytes"] = gpu.get("total_memory_bytes")
    env["probe"] = gpu
    env.update(nvml_info())
    env["alloc_conf"] = {k: os.environ.get(k) for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF")}
    env["cuda_visible_devices"] = os.environ.get("CUDA_VISIBLE_DEVICES")
    env["plan"] = {k: [list(r) for r in v] for k, v in PLAN.items()}
    env["search"] = {k: list(v) for k, v in SEARCH.items()}
    env["card_bytes"] = CARD
    env["settings"] = {"steps": STEPS, "search_steps": SEARCH_STEPS, "lr": LR,
                       "search_max_batch": SEARCH_MAX_BATCH, "search_cap_s": SEARCH_CAP_S,
                       "model_cap_s": args.model_cap_s, "deadline_s": args.deadline_s,
                       "sample_period_s": SAMPLE_PERIOD_S, "quick": args.quick,
                       "only": args.only, "configs": args.configs}
    env["workers"] = []
    write_json(env_path, env)
    say(t0, f"GPU {env['gpu_name']}, {gib(env['total_memory_bytes'])} GiB (torch), "
        f"NVML total {gib(env.get('nvml_total_bytes'))} GiB, driver {env.get('driver_version')}, "
        f"torch {env.get('torch')}, transformers {env.get('transformers')}, "
        f"accelerate {env.get('accelerate')}")

    write_json(os.path.join(args.out, "param-counts.json"), param_counts(args.configs, t0))

    if args.quick:
        names = ["gpt2"]
    else:
        names = list(PLAN) + [n for n in SEARCH if n not in PLAN]
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        for n in wanted:
            if n not in names:
                say(t0, f"--only {n}: not in PLAN/SEARCH (or not run by --quick), skipped")
        names = [n for n in names if n in wanted]

    deadline = t0 + args.deadline_s
    for name in names:
        left = deadline - time.time()
        if left < 20:
            say(t0, f"{name}: skipped, {left:.0f} s left before the deadline")
            append_jsonl(rows_path, {"model": name, "status": "skipped-deadline",
                                     "detail": f"{left:.0f} s left before the deadline"})
            env["workers"].append({"model": name, "skipped": True})
            continue
        timeout = min(args.model_cap_s, left)
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--out", args.out,
               "--configs", args.configs, "--t0", repr(t0), "--kill-at", repr(time.time() + timeout)]
        if args.quick:
            cmd.append("--quick")
        say(t0, f"{name}: worker started, timeout {timeout:.0f} s")
        started = time.time()
        reason, err = None, ""
        try:
            p = subprocess.run(cmd, stdout=None, stderr=subprocess.PIPE, timeout=timeout)
            err = as_text(p.stderr)
            if p.returncode != 0:
                reason = f"exit status {p.returncode}"
        except subprocess.TimeoutExpired as e:
            err = as_text(e.stderr)
            reason = f"timed out after {timeout:.0f} s"
        wall = time.time() - started
        env["workers"].append({"model": name, "wall_s": wall, "failed": reason,
                               "stderr_tail": err[-1000:]})
        if reason:
            append_jsonl(rows_path, {"model": name, "status": "worker-failed", "reason": reason,
                                     "detail": err[-2000:]})
            say(t0, f"{name}: WORKER FAILED ({reason}); stderr tail:\n{err[-800:]}")
        else:
            say(t0, f"{name}: worker done in {wall:.0f} s")
        write_json(env_path, env)

    env["end_utc"] = utc_now()
    write_json(env_path, env)
    say(t0, f"done; wrote env.json, param-counts.json, rows.jsonl, search.jsonl in {args.out}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="folder for env.json, param-counts.json, rows.jsonl, search.jsonl")
    p.add_argument("--only", help="comma-separated model names (configs/hf/NAME.json)")
    p.add_argument("--deadline-s", type=float, default=900.0, help="wall-clock budget of the whole run")
    p.add_argument("--model-cap-s", type=float, default=MODEL_CAP_S, help="timeout of one worker")
    p.add_argument("--quick", action="store_true", help="the first two rows of gpt2, no search")
    p.add_argument("--configs", default=DEFAULT_CONFIGS, help="folder of the HF config.json files")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--t0", type=float, default=None, help=argparse.SUPPRESS)
    p.add_argument("--kill-at", type=float, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.probe:
        probe()
        return
    if not args.out:
        p.error("--out is required")
    args.out = os.path.abspath(args.out)
    args.configs = os.path.abspath(args.configs)
    if args.worker:
        Worker(args).run()
    else:
        parent(args)


if __name__ == "__main__":
    main()
