//! The devices-and-holders view, built as data and rendered once per format.

use serde::{Deserialize, Serialize};

use super::procinfo::{
    cuda_file_holders, pid_namespace, process_state, unmatched_namespace, Inheritor, ProcState,
};
use crate::probe::{NvmlDevice, NvmlView};
use crate::units::Bytes;

/// One process holding VRAM.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HolderRow {
    /// Device index.
    pub device: u32,
    /// PID.
    pub pid: u32,
    /// VRAM charged to it, if NVML knows.
    pub used: Option<Bytes>,
    /// What /proc says.
    pub proc: ProcState,
    /// Gone or zombie.
    pub stale: bool,
    /// What to do about a stale holder.
    pub advice: Option<String>,
}

/// Devices and holders at one moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuSnapshot {
    /// Devices.
    pub devices: Vec<NvmlDevice>,
    /// Processes holding VRAM.
    pub holders: Vec<HolderRow>,
    /// Problems reading NVML.
    pub notes: Vec<String>,
    /// Processes that are not in NVML's list but have CUDA's device files open, found
    /// when a holder is gone or a zombie: who keeps a dead process's memory.
    #[serde(default)]
    pub inheritors: Vec<Inheritor>,
    /// This process's PID namespace when NVML's PIDs cannot be matched to processes here
    /// (`unmatched_namespace`): no holder is visible and the namespace is not the
    /// host's. `--kill` then refuses to end a process by those PIDs.
    #[serde(default)]
    pub unmatched_pid_namespace: Option<String>,
}

/// Reads every device and holder.
pub fn snapshot(view: &NvmlView) -> GpuSnapshot {
    let mut notes = Vec::new();
    let devices = view.devices().unwrap_or_else(|e| {
        notes.push(e.to_string());
        Vec::new()
    });
    let mut holders = Vec::new();
    for d in &devices {
        match view.processes(d.index) {
            Ok(ps) => {
                for p in ps {
                    let proc = process_state(p.pid);
                    holders.push(HolderRow {
                        device: d.index,
                        pid: p.pid,
                        used: p.used,
                        proc,
                        stale: false,
                        advice: None,
                    });
                }
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    // A holder that is gone or a zombie has closed its files: if its memory is still
    // charged, someone else keeps its context open.
    let inheritors = if holders
        .iter()
        .any(|h| matches!(h.proc, ProcState::Gone | ProcState::Zombie { .. }))
    {
        let listed: Vec<u32> = holders.iter().map(|h| h.pid).collect();
        cuda_file_holders()
            .into_iter()
            .filter(|i| !listed.contains(&i.pid) && i.pid != std::process::id())
            .collect()
    } else {
        Vec::new()
    };
    let states: Vec<ProcState> = holders.iter().map(|h| h.proc.clone()).collect();
    let unmatched = unmatched_namespace(&states, pid_namespace().as_deref());
    for h in &mut holders {
        (h.stale, h.advice) = match &unmatched {
            Some(ns) => (true, Some(namespace_advice(ns, &inheritors))),
            None => advice(h.pid, &h.proc, &inheritors),
        };
    }
    if let Some(ns) = &unmatched {
        notes.push(format!(
            "oomlab runs in a PID namespace of its own ({ns}, not the host's) and none of NVML's holders is a process here: NVML's PIDs are probably the host's, so they cannot be matched to processes here and `oomlab gpu --kill` refuses them; run `oomlab gpu` on the host, or in a container started with the host's PID namespace (docker run --pid=host)"
        ));
    }
    GpuSnapshot {
        devices,
        holders,
        notes,
        inheritors,
        unmatched_pid_namespace: unmatched,
    }
}

/// What to say of a holder whose PID cannot be matched to a process here.
pub fn namespace_advice(namespace: &str, local: &[Inheritor]) -> String {
    let here = if local.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = local.iter().map(|i| format!("PID {}", i.pid)).collect();
        format!(
            "; {} here {} CUDA's device files open and may be this holder under another number, or a fork keeping an exited one's memory: oomlab cannot tell which",
            list.join(", "),
            if local.len() == 1 { "has" } else { "have" }
        )
    };
    format!("PID from another PID namespace ({namespace} here is not the host's): not matched to a process here{here}")
}

/// Whether a holder is stale, and what to do about it. Measured on the H200
/// (docs/results/2026-12-01-h200-crash): a killed process's VRAM came back in 81 ms, a
/// zombie held none (freed at exit, before it was reaped), and 20 GiB stayed charged to
/// a dead PyTorch parent while the child it had forked, which never used CUDA, kept the
/// device files open; ending the child freed it in 79 ms.
pub fn advice(pid: u32, proc: &ProcState, inheritors: &[Inheritor]) -> (bool, Option<String>) {
    let kept_by = || {
        let list: Vec<String> = inheritors
            .iter()
            .map(|i| {
                format!(
                    "PID {} ({})",
                    i.pid,
                    i.command.chars().take(60).collect::<String>()
                )
            })
            .collect();
        format!(
            "its process has exited, but {} still has its CUDA device files open (inherited by fork: a DataLoader worker, a multiprocessing child): ending {} frees this memory (oomlab gpu --kill {})",
            list.join(", "),
            if inheritors.len() == 1 { "it" } else { "them" },
            inheritors[0].pid
        )
    };
    match proc {
        ProcState::Alive { .. } => (false, None),
        ProcState::Stopped { .. } => (
            true,
            Some(format!(
                "stopped (SIGSTOP or Ctrl-Z): runs nothing and keeps its VRAM; `kill -CONT {pid}` lets it go on (a shell's `fg`), `oomlab gpu --kill {pid}` ends it (SIGTERM, then SIGCONT so it is delivered)"
            )),
        ),
        _ if !inheritors.is_empty() => (true, Some(kept_by())),
        ProcState::Zombie { ppid } => (
            true,
            Some(format!(
                "zombie (parent {ppid}): it has exited and closed its files, so it holds nothing itself; no process here has CUDA's device files open in its place: wait a moment and look again, or the memory belongs to another container"
            )),
        ),
        ProcState::Gone => (
            true,
            Some("not visible here: it runs in another container/VM, or it exited and a process in another container keeps its device files open; if it persists with no process left anywhere, the driver holds a dead context (a GPU reset by an administrator frees it)".into()),
        ),
    }
}

/// The snapshot as terminal tables laid out for the output's width; what to do about a
/// stale holder is a numbered note under the table.
pub fn render_gpu_view(s: &GpuSnapshot) -> String {
    render_gpu_view_at(s, crate::text::width())
}

/// [`render_gpu_view`] laid out for `width`.
pub fn render_gpu_view_at(s: &GpuSnapshot, width: crate::text::Width) -> String {
    let mut out = String::new();
    let mut t = crate::text::table_for(width);
    t.set_header(vec!["GPU", "name", "used", "free", "total"]);
    for d in &s.devices {
        t.add_row(vec![
            d.index.to_string(),
            d.name.clone(),
            d.used.to_string(),
            d.free.to_string(),
            d.total.to_string(),
        ]);
    }
    out.push_str(&t.to_string());
    out.push('\n');
    let mut notes = crate::text::Footnotes::new();
    let mut p = crate::text::table_for(width);
    p.set_header(vec!["GPU", "PID", "VRAM", "status", "command"]);
    for h in &s.holders {
        let (status, command) = match &h.proc {
            ProcState::Alive { command, .. } => ("alive".to_string(), command.clone()),
            ProcState::Stopped { command, .. } => {
                ("STOPPED (not running)".to_string(), command.clone())
            }
            ProcState::Zombie { .. } => ("STALE (zombie)".to_string(), String::new()),
            ProcState::Gone => ("STALE (no such PID here)".to_string(), String::new()),
        };
        let status = match &h.advice {
            Some(a) => format!("{status} {}", notes.mark(a.clone())),
            None => status,
        };
        p.add_row(vec![
            h.device.to_string(),
            h.pid.to_string(),
            h.used
                .map(|b| b.to_string())
                .unwrap_or_else(|| "n/a (NVML cannot attribute)".into()),
            status,
            command,
        ]);
    }
    if s.holders.is_empty() {
        out.push_str("no process holds VRAM\n");
    } else {
        out.push_str(&p.to_string());
        out.push('\n');
        out.push_str(&notes.render_for(width));
    }
    for n in &s.notes {
        out.push_str(&crate::text::hang_for("note: ", n, width));
    }
    out
}

#[cfg(test)]
mod width_tests {
    use super::*;
    use crate::text::Width;

    #[test]
    fn the_holders_fit_the_width_with_advice_as_notes() {
        let long = "python3 -c import torch, time; x = torch.empty(20 * 2**30, dtype=torch.uint8, device='cuda'); time.sleep(60)";
        let s = GpuSnapshot {
            devices: vec![NvmlDevice {
                index: 0,
                name: "NVIDIA H100 80GB HBM3".into(),
                total: Bytes(81_559 << 20),
                used: Bytes(21 << 30),
                free: Bytes(58 << 30),
            }],
            holders: vec![
                HolderRow {
                    device: 0,
                    pid: 852,
                    used: Some(Bytes(20 << 30)),
                    proc: ProcState::Alive {
                        command: long.into(),
                        ppid: 1,
                    },
                    stale: false,
                    advice: None,
                },
                HolderRow {
                    device: 0,
                    pid: 853,
                    used: Some(Bytes(1 << 30)),
                    proc: ProcState::Stopped {
                        command: "python3 train.py".into(),
                        ppid: 1,
                    },
                    stale: true,
                    advice: Some("stopped: `oomlab gpu --kill 853` ends it".into()),
                },
            ],
            notes: vec!["a note ".repeat(30)],
            inheritors: Vec::new(),
            unmatched_pid_namespace: None,
        };
        for columns in [80, 100, 120] {
            let text = render_gpu_view_at(&s, Width::Columns(columns));
            for line in text.lines() {
                assert!(line.chars().count() <= columns, "{columns}: {line}\n{text}");
            }
            // The advice leaves the table for a note under it.
            let (table, notes) = text.split_once("[1] stopped:").unwrap();
            assert!(
                table.contains("[1]") && !table.contains("--kill 853"),
                "{text}"
            );
            assert!(notes.contains("--kill 853"), "{text}");
        }
    }
}
