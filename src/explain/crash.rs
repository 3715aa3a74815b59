//! The topics about runs that die or leak: VRAM that stays used after a crash, memory that
//! grows every step, and checkpoints with exact resume. Their measured parts are read from
//! the committed H200 runs of docs/results/2026-12-01-h200-crash, each named with its card
//! and date.

use serde_json::Value;

use crate::evidence::Evidence;
use crate::units::Bytes;

/// Topics, their one-line summary and their text (the measured part is appended).
pub(super) const TOPICS: &[(&str, &str, &str)] = &[
    (
        "stuck-vram",
        "VRAM still used after a crash: who holds it, and what frees it",
        "\
When a process exits, however it dies (SIGKILL, a segfault, an OOM that kills it), the
driver frees its VRAM as it closes the process's device files: within a fraction of a
second. So memory that stays used has a holder that has not exited, or that left its
files open in another process:
- A process still running: another job, a notebook kernel, your own earlier run. `oomlab
  gpu` lists it with its command.
- A stopped process (T state): Ctrl-Z or SIGSTOP. It runs nothing and keeps every byte.
  `kill -CONT` (or `fg`) lets it go on; SIGTERM waits until it runs again, so `oomlab gpu
  --kill` sends SIGCONT after it; SIGKILL works at once.
- A zombie (Z state): it has exited and closed its files. It holds nothing, and killing
  or restarting its parent frees nothing.
- A child that inherited it: a process forked from a CUDA process (a DataLoader worker,
  multiprocessing with fork, a subprocess started with fork) has the parent's device
  files open even if it never used CUDA. When the parent dies, NVML still charges the
  memory to the parent's dead PID, and nvidia-smi shows a PID that `ps` does not know.
  Ending the child frees it: `oomlab gpu` names it (a process with /dev/nvidia-uvm open
  that NVML does not list), `oomlab gpu --kill PID` ends it.
- Another container: NVML shows PIDs of every container; yours cannot see or signal
  theirs.
Only when no process anywhere holds the files does a dead context stay, and then only a
GPU reset (an administrator's) frees it. Before a job, `oomlab gpu --free-check 40GiB`
exits 1 and names the holders when the card has less free.
",
    ),
    (
        "leak",
        "memory that grows every step: a leak, not a batch too large",
        "\
After the first few steps (the allocator's pages, the optimizer's state created on the
first update), the memory in tensors at the end of a step is the same every step: each
step frees what it made. When it grows step after step at the same batch, something
keeps tensors from earlier steps alive, and every batch size runs out in the end: a
smaller one only later. The classic causes keep a tensor that references a step's graph:
- an eval or logging loss computed with the training model and kept in a list (PyTorch:
  without torch.no_grad() and .item()): the graph and its saved activations stay;
- outputs appended to a list for metrics at the end of the epoch;
- `total_loss += loss` without .item() (PyTorch's FAQ): the graph nodes stay; PyTorch's
  and burn's backward passes free the saved activations, so this one grows slowly.
oomlab watches the bytes in use after every step (burn's allocator on a GPU, the host
heap on the CPU): after 5 steps of warm-up, growth of --leak-threshold (1 MiB) or more
per step over --leak-window (20) steps at one split, rising in three steps of four and
never falling, raises the alarm in the progress output and the summary. At an
out-of-memory failure after such growth, auto-halve stops and says leak instead of
halving. `--leak-demo` (eval-graph, or loss-total) makes the mistake on purpose.
",
    ),
    (
        "resume",
        "checkpoints and exact resume: what a checkpoint holds, how it is written",
        "\
A run that dies loses everything since its last checkpoint, so `--checkpoint-every N`
writes one every N steps, and also when the run stops: Ctrl-C, SIGTERM (what schedulers
and `kill` send; oomlab exits 143 after it), an out-of-memory stop, the end. For the
resumed run to be the same run, a checkpoint holds more than the weights:
- the weights and the optimizer's state (AdamW's two moments and its step count), as
  burn records;
- the loss scaler's scale and counters (f16);
- the data position: the step number (each step's samples are a function of the seed and
  the step, and dropout's generator is re-seeded from them every step);
- the split of the next step and auto-halve's search (what fitted, what failed).
It is written to a temporary file, synced to disk and renamed over the final name, so a
crash leaves the old checkpoint or the new one, never half of one, and it ends with a
CRC-32: a damaged or truncated newest checkpoint is skipped for the one before, with a
message. `oomlab train --resume RUN_DIR` continues in the same folder from the newest
usable one; a flag that changes the run's config is refused with the keys (--force
accepts it; model shapes and the optimizer kind never change). On the CPU a run killed
with SIGKILL and resumed ends with the same parameters, bit for bit, as a run never
stopped (oomlab's test suite checks it). Not kept: pure half (--strategy half), which
burn's records would bring back as f32.
",
    ),
];

const LOG: &str = Evidence::CrashLog.text();
const ZOMBIE: &str = Evidence::CrashZombie.text();
const PHASES: &str = Evidence::CrashPhases.text();
const STOPPED_RUN: &str = Evidence::CrashStoppedRun.text();
const LEAKS: [(&str, Evidence); 4] = [
    ("--leak-demo eval-graph", Evidence::LeakEvalGraph),
    (
        "the same, auto-halve under --vram-budget 2GiB",
        Evidence::LeakAutoHalve,
    ),
    ("--leak-demo loss-total", Evidence::LeakLossTotal),
    ("no demo", Evidence::LeakNone),
];

/// The first line of the H200 log that starts with `prefix`.
fn log_line(prefix: &str) -> String {
    LOG.lines()
        .find(|l| l.starts_with(prefix))
        .map(str::to_string)
        .unwrap_or_else(|| format!("({prefix}... not in the log)"))
}

fn stuck_vram() -> String {
    let mut out = format!(
        "\nMeasured by oomlab, the experiments' log ({}):\n",
        Evidence::CrashLog.cite()
    );
    out.push_str(&format!(
        "- SIGKILL: {}; {}\n",
        log_line("in use while training:"),
        log_line("exit status 137")
    ));
    out.push_str(&format!(
        "- SIGSTOP: {}\n",
        log_line("in use while stopped:")
    ));
    let zombie: Vec<Value> = ZOMBIE
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    for z in zombie.iter().filter(|z| z.get("used").is_some()) {
        out.push_str(&format!(
            "- zombie experiment, {}: state {}, device in use {}\n",
            z["event"].as_str().unwrap_or(""),
            z["state"].as_str().unwrap_or(""),
            Bytes(z["used"].as_u64().unwrap_or(0))
        ));
    }
    out.push_str(&format!(
        "- fork: {}; {}; {}\n",
        log_line("parent "),
        log_line("2 s after kill -9 of the parent"),
        log_line("after kill -9 of the child")
    ));
    out
}

fn leak() -> String {
    let mut out = format!(
        "\nMeasured by oomlab, the `tiny` config ({}, and the three summaries beside it):\n",
        Evidence::LeakEvalGraph.cite()
    );
    for (label, e) in LEAKS {
        let Ok(s) = serde_json::from_str::<Value>(e.text()) else {
            continue;
        };
        let alarm = &s["leak"]["alarm"];
        let what = if alarm.is_object() {
            format!(
                "alarm, {} per step at micro-batch {}",
                Bytes(alarm["per_step"].as_u64().unwrap_or(0)),
                alarm["micro_batch"]
            )
        } else {
            format!("no alarm ({} steps watched)", s["leak"]["watched_steps"])
        };
        let stop = match s["adaptation"]["gave_up"].as_str() {
            Some(_) => {
                let mut sizes: Vec<String> = s["adaptation"]["attempts"]
                    .as_array()
                    .map(|a| a.iter().map(|x| x["micro_batch"].to_string()).collect())
                    .unwrap_or_default();
                sizes.dedup();
                format!(
                    "; out of memory at step {}, stopped without halving (micro-batches tried: {})",
                    s["steps_completed"].as_u64().map_or(1, |n| n + 1),
                    sizes.join(", ")
                )
            }
            None => String::new(),
        };
        out.push_str(&format!("- {label}: {what}{stop}\n"));
    }
    out
}

fn resume() -> String {
    let mut out = format!(
        "\nMeasured by oomlab ({}, and {}):\n",
        Evidence::CrashStoppedRun.cite(),
        Evidence::CrashPhases.path()
    );
    if let Ok(s) = serde_json::from_str::<Value>(STOPPED_RUN) {
        let c = &s["checkpoints"];
        out.push_str(&format!(
            "- SIGTERM through `oomlab gpu --kill`: exit 143 after {} steps; checkpoint {} of {} written in {:.3} s\n",
            s["steps_completed"],
            c["last"].as_str().and_then(|p| p.rsplit('/').next()).unwrap_or("?"),
            Bytes(c["last_bytes"].as_u64().unwrap_or(0)),
            c["seconds"].as_f64().unwrap_or(0.0)
        ));
    }
    let rows: Vec<Vec<&str>> = PHASES
        .lines()
        .filter(|l| l.starts_with("| ") && l.as_bytes().get(2).is_some_and(u8::is_ascii_digit))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    let ooms: Vec<&Vec<&str>> = rows
        .iter()
        .filter(|r| r.get(2) == Some(&"out-of-memory"))
        .collect();
    let mut phases: Vec<&str> = ooms.iter().filter_map(|r| r.get(3).copied()).collect();
    phases.sort();
    phases.dedup();
    let intact = ooms
        .iter()
        .filter(|r| r.get(5) == Some(&"yes") && r.get(6) == Some(&"yes"))
        .count();
    out.push_str(&format!(
        "- `gpu` config resumed under smaller --vram-budget: {} out-of-memory stops (phases: {}); weights and AdamW state byte-identical to the checkpoint after {} of them\n",
        ooms.len(),
        phases.join(", "),
        intact
    ));
    out
}

/// The measured part of `topic`, if it is one of these.
pub(super) fn measured(topic: &str) -> Option<String> {
    Some(match topic {
        "stuck-vram" => stuck_vram(),
        "leak" => leak(),
        "resume" => resume(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_runs_show_what_the_topics_say() {
        let s = stuck_vram();
        assert!(s.contains("state Z, device in use"), "{s}");
        assert!(
            s.contains("after kill -9 of the child: back within 1 GiB"),
            "{s}"
        );
        let l = leak();
        assert!(
            l.lines().filter(|x| x.contains("alarm,")).count() == 2,
            "{l}"
        );
        assert!(l.contains("stopped without halving"), "{l}");
        let r = resume();
        assert!(r.contains("phases: backward, forward, optimizer"), "{r}");
        assert!(r.contains("exit 143"), "{r}");
    }
}
