# Experiment for scripts/gpu/run.sh: `oomlab run -- CMD` on real PyTorch jobs, on a GPU
# with nothing set for oomlab. In order (each bounded by what is left of BUDGET seconds):
#   1. a PyTorch job that runs out of memory (scripts/gpu/jobs/oom_job.py) while another
#      PyTorch process holds 60 GiB (jobs/holder.py): oomlab run's exit code, and the holder
#      it names against nvidia-smi's line for the same PID, taken while it held;
#   2. a job with a process tree (jobs/tree_job.py: 4 DataLoader workers on CUDA and a
#      forked child on CUDA) under `oomlab run --interval 50`, nvidia-smi sampling the
#      compute processes every 50 ms beside it: the tree's peak by both;
#   3. `--need` with a stopped (SIGSTOP) process holding 20 GiB: without --reap-stale the
#      refusal (exit 4) naming it; with --reap-stale the job starts;
#   4. Ctrl-C (SIGINT to oomlab) during a job: the exit code and the summary;
#   5. (STEP_PAIRS=N, default 1) the tree job's step time with and without oomlab run,
#      interleaved.
# PARTS="1 4" runs only those parts. Part 4 ends with a one-process CUDA job (holder.py),
# which Python ends by SIGINT itself: the tree job's own exit code after Ctrl-C is 1.
# Results in $OUT/run-job/: log.txt, gpu.txt (`oomlab gpu` beside the 60 GiB holder, at
# 100 columns), each run's stderr, and the run folders packed in runs.tar.xz.
#
#   OUT=$OUT BUDGET=300 bash scripts/gpu/run.sh run-job
# runner: new-user
OUT=${OUT:-/tmp/out}
R=$OUT/run-job
mkdir -p "$R" /tmp/rj
LOG=$R/log.txt
END=$((SECONDS + ${BUDGET:-300} - 30))
left() { local l=$((END - SECONDS)); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
say() { echo "### $* ($(date -u +%H:%M:%S))" | tee -a "$LOG"; }
J=scripts/gpu/jobs
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "commit: ${COMMIT:-unknown}"
  echo "card: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader)"
} >> "$LOG"
want() { [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" $1 "* ]]; }
wait_held() { for _ in $(seq 60); do grep -q held "$1" 2>/dev/null && return 0; sleep 0.5; done; return 1; }

if want 1; then
say "1. an OOM while another process holds 60 GiB"
python3 $J/holder.py 60 > /tmp/rj/holder.txt 2>&1 &
holder=$!
wait_held /tmp/rj/holder.txt
nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits >> "$LOG"
echo "holder pid: $holder" >> "$LOG"
# oomlab gpu beside it, as a piped terminal shows it (the guide's example).
COLUMNS=100 "$BIN" gpu > "$R/gpu.txt" 2>&1
timeout "$(left 90)" "$BIN" run --out /tmp/rj/oom -- python3 $J/oom_job.py > /tmp/rj/oom.stdout 2> /tmp/rj/oom.stderr
echo "oom job: oomlab run exit $?" >> "$LOG"
grep -E "another process held|Case:|exited" /tmp/rj/oom.stderr >> "$LOG"
kill $holder; wait $holder 2>/dev/null
fi

if want 2; then
say "2. a process tree: 4 DataLoader workers and a forked child on CUDA, nvidia-smi beside"
nvidia-smi --query-compute-apps=timestamp,pid,used_memory --format=csv,noheader,nounits -lms 50 > /tmp/rj/smi.csv 2>/dev/null &
smi=$!
timeout "$(left 120)" "$BIN" run --interval 50 --out /tmp/rj/tree -- python3 $J/tree_job.py 30 > /tmp/rj/tree.stdout 2> /tmp/rj/tree.stderr
echo "tree job: oomlab run exit $?" >> "$LOG"
kill $smi; wait $smi 2>/dev/null
python3 - /tmp/rj/tree/summary.json /tmp/rj/smi.csv >> "$LOG" <<'EOF'
import json, sys, collections
s = json.load(open(sys.argv[1]))
pids = {p["pid"] for p in s["watched"]["processes"]}
on_card = [p for p in s["watched"]["processes"] if p.get("peak_vram")]
by_time = collections.defaultdict(int)
for line in open(sys.argv[2]):
    f = [x.strip() for x in line.split(",")]
    if len(f) == 3 and f[1].isdigit() and int(f[1]) in pids:
        by_time[f[0]] += int(f[2]) * 2**20
smi_peak = max(by_time.values(), default=0)
ours = s["watched"]["tree_peak_vram"] or 0
print(f"tree: {len(s['watched']['processes'])} processes, {len(on_card)} on the card; tree peak VRAM oomlab {ours} bytes, "
      f"nvidia-smi every 50 ms {smi_peak} bytes, ratio {ours / smi_peak if smi_peak else float('nan'):.4f}; "
      f"{s['watched']['samples']} samples, one costs oomlab {s['watched']['sample_cost_us']:.0f} us")
for p in s["watched"]["processes"]:
    print(f"  PID {p['pid']} peak VRAM {p.get('peak_vram')} peak RSS {p.get('peak_rss')}")
EOF
fi

if want 3; then
say "3. --need with a stopped holder of 20 GiB"
python3 $J/holder.py 20 > /tmp/rj/holder2.txt 2>&1 &
stopped=$!
wait_held /tmp/rj/holder2.txt
kill -STOP $stopped
echo "oomlab gpu with PID $stopped stopped:" >> "$LOG"
COLUMNS=100 "$BIN" gpu >> "$LOG" 2>&1
need=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits | head -1)
need=$((need / 1024 + 5))GiB
timeout 30 "$BIN" run --need "$need" --out /tmp/rj/refused -- true > /dev/null 2> /tmp/rj/refused.stderr
echo "need $need with PID $stopped stopped: exit $?" >> "$LOG"
cat /tmp/rj/refused.stderr >> "$LOG"
timeout 60 "$BIN" run --need "$need" --reap-stale --out /tmp/rj/reaped -- nvidia-smi --query-gpu=memory.free --format=csv > /tmp/rj/reaped.stdout 2> /tmp/rj/reaped.stderr
echo "with --reap-stale: exit $?" >> "$LOG"
grep -E "ended|left|not started" /tmp/rj/reaped.stderr >> "$LOG"
kill -KILL $stopped 2>/dev/null; wait $stopped 2>/dev/null
fi

if want 4; then
say "4. Ctrl-C (SIGINT to oomlab) during a job"
# Job control on, as in a terminal: a script's background job otherwise starts with SIGINT
# ignored, and the job it launches would inherit that.
set -m
"$BIN" run --out /tmp/rj/int -- python3 $J/tree_job.py 200 > /dev/null 2> /tmp/rj/int.stderr &
runner=$!
sleep 20
kill -INT $runner
wait $runner
rc=$?
set +m
echo "ctrl-c: oomlab run exit $rc, forwarded $(python3 -c "import json;print(json.load(open('/tmp/rj/int/summary.json'))['forwarded_signal'])" 2>&1)" >> "$LOG"
set -m
"$BIN" run --out /tmp/rj/int1 -- python3 $J/holder.py 1 > /tmp/rj/int1.stdout 2> /tmp/rj/int1.stderr &
runner=$!
wait_held /tmp/rj/int1.stdout
kill -INT $runner
wait $runner
rc=$?
set +m
echo "ctrl-c, one process: oomlab run exit $rc, $(python3 -c "import json;d=json.load(open('/tmp/rj/int1/summary.json'));print('job signal', d['signal'], 'forwarded', d['forwarded_signal'])" 2>&1)" >> "$LOG"
fi

if want 5; then
say "5. step time with and without oomlab run (interleaved)"
for i in $(seq "${STEP_PAIRS:-1}"); do
  [ $((END - SECONDS)) -lt 60 ] && break
  timeout "$(left 60)" python3 $J/tree_job.py 30 > /tmp/rj/plain-$i.txt 2>/dev/null
  timeout "$(left 60)" "$BIN" run --quiet --out /tmp/rj/watched-$i -- python3 $J/tree_job.py 30 > /tmp/rj/watched-$i.txt 2>/dev/null
done
python3 - /tmp/rj >> "$LOG" <<'EOF'
import glob, re, statistics, sys
def steps(kind):
    t = []
    for f in sorted(glob.glob(f"{sys.argv[1]}/{kind}-*.txt")):
        t += [float(m) for m in re.findall(r"step (?:[5-9]|[1-9]\d): ([\d.]+) s", open(f).read())]
    return t
a, b = steps("plain"), steps("watched")
if a and b:
    print(f"step time (steps 5 and later): plain median {statistics.median(a):.4f} s ({len(a)} steps), "
          f"under oomlab run {statistics.median(b):.4f} s ({len(b)} steps), ratio {statistics.median(b) / statistics.median(a):.4f}")
EOF
fi
for d in oom tree refused reaped int; do cp /tmp/rj/$d.stderr "$R/$d.stderr.txt" 2>/dev/null; done
(cd /tmp/rj && tar cf - oom tree refused reaped int int1 --exclude=timeline.csv --exclude=memory.svg 2>/dev/null | python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read()))" > "$R/runs.tar.xz")
say done
