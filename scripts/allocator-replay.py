#!/usr/bin/env python3
"""Where PyTorch's caching allocator reserves its segments in a Hugging Face training run
(issue 28), read from the event traces benches/hf_memory.py records with HF_MEMORY_TRACE=1.

  python3 scripts/allocator-replay.py [RUN_DIR] > RUN_DIR/../replay.md

RUN_DIR default: docs/results/2026-12-04-h200-hf-allocator-trace/hf-memory. For each row
of rows.jsonl with a trace it replays every alloc and free_completed event through a model
of the allocator (the rules of src/hf/allocator.rs, written again here in a few lines) and
writes Markdown tables:
1. the replay against the trace: segments and reserved peak, and what
   torch.cuda.max_memory_reserved reported for the row (it adds what the worker had
   reserved before recording began);
2. the segments each phase of the run reserved (build, then each step's forward pass,
   backward pass and optimizer step), by size;
3. after the last step, the large segments and how much of each is allocated (AdamW's
   state, the weights), by the phase that reserved them;
4. the replay again without the requests of up to 1, 4 and 16 MiB: how much the reserved
   peak depends on the small tensors.

  python3 scripts/allocator-replay.py --events TRACE.tsv.gz PHASE [N] [--dims JSON]

lists the first N (default 80) allocs and frees of more than 1 MiB from the start of
PHASE (a mark: build, forward:K, backward:K, step:K, the phase that begins after it), each
size named by the first product of tokens and one of the row's dimensions times 1, 2, 4
or 8 bytes that it equals (dims from --dims, e.g. '{"d": 2048, "kv": 512, "f": 8192,
"heads": 32, "V": 128256}', tokens from the file name): the material for writing down
the allocation sequence of a training step op by op.
"""
import bisect
import collections
import gzip
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    ROOT, "docs", "results", "2026-12-04-h200-hf-allocator-trace", "hf-memory")
GiB, MiB = 2**30, 2**20


def round_size(n):
    return 512 if n < 512 else 512 * ((n + 511) // 512)


def segment_size(n):
    if n <= MiB:
        return 2 * MiB
    if n < 10 * MiB:
        return 20 * MiB
    return 2 * MiB * ((n + 2 * MiB - 1) // (2 * MiB))


class Block:
    __slots__ = ("addr", "size", "free", "prev", "next", "small", "seg")


class Allocator:
    """src/hf/allocator.rs's rules: best fit per pool, split, merge within a segment."""

    def __init__(self):
        self.pools = {True: [], False: []}
        self.next_addr = 1 << 40
        self.reserved = self.peak = 0
        self.segments = []  # (size, phase)

    def _insert(self, b):
        bisect.insort(self.pools[b.small], (b.size, b.addr, b))

    def _remove(self, b):
        pool = self.pools[b.small]
        i = bisect.bisect_left(pool, (b.size, b.addr))
        pool.pop(i)

    def malloc(self, n, phase):
        size = round_size(n)
        small = size <= MiB
        pool = self.pools[small]
        i = bisect.bisect_left(pool, (size, -1))
        if i < len(pool):
            b = pool.pop(i)[2]
        else:
            seg = segment_size(size)
            b = Block()
            b.addr, b.size, b.free, b.prev, b.next, b.small = self.next_addr, seg, True, None, None, small
            b.seg = len(self.segments)
            self.next_addr += seg + (1 << 40)
            self.reserved += seg
            self.peak = max(self.peak, self.reserved)
            self.segments.append((seg, phase))
        rest = b.size - size
        if (small and rest >= 512) or (not small and rest > MiB):
            r = Block()
            r.addr, r.size, r.free, r.small, r.seg = b.addr + size, rest, True, small, b.seg
            r.prev, r.next = b, b.next
            if b.next:
                b.next.prev = r
            b.next, b.size = r, size
            self._insert(r)
        b.free = False
        return b

    def _merge(self, left, right, cached):
        """Join the neighbours `left` and `right` of one segment into `left`; `cached` is
        the one of them that sits in the free pool (its size changes, so it leaves it)."""
        self._remove(cached)
        left.size += right.size
        left.next = right.next
        if right.next:
            right.next.prev = left

    def free(self, b):
        b.free = True
        if b.prev and b.prev.free:
            p = b.prev
            self._merge(p, b, p)
            b = p
        if b.next and b.next.free:
            self._merge(b, b.next, b.next)
        self._insert(b)


def load(path):
    events, marks = [], []
    with gzip.open(path, "rt") as f:
        for line in f:
            a, x, y, t = line.rstrip("\n").split("\t")
            if a == "mark":
                marks.append((int(t), f"{x} {y}" if y != "-1" else x))
            else:
                events.append((a, int(x), int(y), int(t)))
    return events, sorted(marks)


def phase_of(marks):
    """The phase an event at time t belongs to: the one that ends at the next mark."""
    names = {"build": "build", "forward": "forward", "backward": "backward", "step": "optimizer step"}

    def phase(t):
        for mt, name in marks:
            if t <= mt:
                part = name.split()
                return names[part[0]] + (f" of step {part[1]}" if len(part) > 1 else "")
        return "after the last step"
    return phase


def replay(events, phase, drop_up_to=0):
    a, live = Allocator(), {}
    for act, addr, size, t in events:
        if act == "alloc":
            if size > drop_up_to:
                live[addr] = a.malloc(size, phase(t))
        elif act == "free_completed":
            b = live.pop(addr, None)
            if b is not None:
                a.free(b)
    return a, live


def sizes(counter):
    return ", ".join(f"{n} x {s / MiB:.0f} MiB" for s, n in sorted(counter.items(), reverse=True))


def main():
    rows = [json.loads(l) for l in open(os.path.join(RUN, "rows.jsonl")) if l.strip()]
    rows = [r for r in rows if isinstance(r.get("trace"), dict) and r["trace"].get("file")]
    out = []
    p = out.append
    p(f"# The caching allocator's segments, replayed from the traces of {os.path.relpath(RUN, ROOT)}\n")
    p("Generated by `python3 scripts/allocator-replay.py` (its docstring says what each table is). GiB unless said.\n")
    p("## 1. Replay against the trace\n")
    p("| row | trace segments | replay segments | trace reserved peak | replay reserved peak | max_memory_reserved | reserved before the trace |")
    p("|---|---|---|---|---|---|---|")
    data = {}
    for r in rows:
        name = os.path.basename(r["trace"]["file"]).replace(".tsv.gz", "")
        events, marks = load(os.path.join(RUN, r["trace"]["file"]))
        phase = phase_of(marks)
        a, live = replay(events, phase)
        real, peak, segs = 0, 0, 0
        for act, _, size, _ in events:
            if act == "segment_alloc":
                real += size
                segs += 1
                peak = max(peak, real)
            elif act == "segment_free":
                real -= size
        data[name] = (events, phase, a, live)
        p(f"| {name} | {segs} | {len(a.segments)} | {peak / GiB:.3f} | {a.peak / GiB:.3f} | "
          f"{r['peak_reserved_bytes'] / GiB:.3f} | {(r['peak_reserved_bytes'] - peak) / MiB:.0f} MiB |")
    p("\nWhere the replay and the trace differ, the worker had run an earlier row: the cache held that "
      "row's segments the trace does not show (see ../2026-12-04-h200-hf-expandable).\n")
    p("## 2. Segments reserved, by phase (replay)\n")
    for name, (events, phase, a, live) in data.items():
        p(f"### {name}\n")
        p("| phase | segments | GiB | sizes |")
        p("|---|---|---|---|")
        by = collections.OrderedDict()
        for seg, ph in a.segments:
            by.setdefault(ph, collections.Counter())[seg] += 1
        for ph, c in by.items():
            p(f"| {ph} | {sum(c.values())} | {sum(s * n for s, n in c.items()) / GiB:.2f} | {sizes(c)} |")
        p("")
    p("## 3. After the last step: the segments of 256 MiB and more, and what is allocated in them\n")
    p("Allocated after the last step: the weights and AdamW's state (gradients are freed by zero_grad).\n")
    p("| row | reserved in | segment | count | allocated in them |")
    p("|---|---|---|---|---|")
    for name, (events, phase, a, live) in data.items():
        used = collections.Counter()
        for b in live.values():
            used[b.seg] += b.size
        groups = collections.OrderedDict()
        for i, (seg, ph) in enumerate(a.segments):
            if seg >= 256 * MiB:
                g = groups.setdefault((ph, seg), [0, 0])
                g[0] += 1
                g[1] += used[i]
        for (ph, seg), (n, u) in groups.items():
            p(f"| {name} | {ph} | {seg / MiB:.0f} MiB | {n} | {u / GiB:.2f} |")
    p("\n## 4. Reserved peak of the replay without the small requests\n")
    p("| row | all requests | without those up to 1 MiB | up to 4 MiB | up to 16 MiB |")
    p("|---|---|---|---|---|")
    for name, (events, phase, a, live) in data.items():
        peaks = [replay(events, phase, d)[0].peak / GiB for d in (0, MiB, 4 * MiB, 16 * MiB)]
        p(f"| {name} | " + " | ".join(f"{x:.2f}" for x in peaks) + " |")
    print("\n".join(out))


def events_listing(path, mark, n, dims):
    import re
    events, marks = load(path)
    at = {name.replace(" ", ":"): t for t, name in marks}
    if mark not in at:
        sys.exit(f"no mark {mark} in {path}: {sorted(at)}")
    m = re.search(r"-b(\d+)-s(\d+)", os.path.basename(path))
    tokens = int(m.group(1)) * int(m.group(2)) if m else 0
    names = {}
    for name, v in dims.items():
        for b in (1, 2, 4, 8):
            names.setdefault(round_size(tokens * v * b), f"T*{name}*{b}")
            names.setdefault(round_size(v * b), f"{name}*{b}")
    live, shown = {}, 0
    for act, addr, size, t in events:
        if act == "alloc":
            live[addr] = size
        if t <= at[mark]:
            if act == "free_completed":
                live.pop(addr, None)
            continue
        if act in ("alloc", "free_completed"):
            size = size if act == "alloc" else live.pop(addr)
            if size > MiB:
                label = names.get(round_size(size), f"{size / MiB:.2f} MiB")
                print(f"{'+' if act == 'alloc' else '-'} {label:>16s}  @{addr % 10**7:07d}")
                shown += 1
                if shown >= n:
                    break


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--events":
        args = sys.argv[2:]
        dims = {}
        if "--dims" in args:
            i = args.index("--dims")
            dims = json.loads(args[i + 1])
            args = args[:i] + args[i + 2:]
        events_listing(args[0], args[1], int(args[2]) if len(args) > 2 else 80, dims)
    else:
        main()
