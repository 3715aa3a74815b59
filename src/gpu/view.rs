//! The devices-and-holders view, built as data and rendered once per format.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::{Deserialize, Serialize};

use super::procinfo::{process_state, ProcState};
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
                    let (stale, advice) = match &proc {
                        ProcState::Alive { .. } => (false, None),
                        ProcState::Stopped { .. } => (
                            true,
                            Some(format!(
                                "stopped (SIGSTOP or Ctrl-Z): runs nothing and keeps its VRAM; `kill -CONT {0}` lets it go on (a shell's `fg`), `oomlab gpu --kill {0} --force` ends it",
                                p.pid
                            )),
                        ),
                        ProcState::Zombie { ppid } => (
                            true,
                            Some(format!(
                                "zombie: its VRAM is freed when parent PID {ppid} reaps it; end or restart the parent (oomlab gpu --kill {ppid})"
                            )),
                        ),
                        ProcState::Gone => (
                            true,
                            Some("not visible here: it runs in another container/VM or just exited; if it persists, the driver holds a dead context (a GPU reset by an administrator frees it)".into()),
                        ),
                    };
                    holders.push(HolderRow {
                        device: d.index,
                        pid: p.pid,
                        used: p.used,
                        proc,
                        stale,
                        advice,
                    });
                }
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    GpuSnapshot {
        devices,
        holders,
        notes,
    }
}

/// The snapshot as terminal tables.
pub fn render_gpu_view(s: &GpuSnapshot) -> String {
    let mut out = String::new();
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["GPU", "name", "used", "free", "total"]);
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
    let mut p = Table::new();
    p.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
        "GPU",
        "PID",
        "VRAM",
        "status",
        "command / what to do",
    ]);
    for h in &s.holders {
        let (status, what) = match &h.proc {
            ProcState::Alive { command, .. } => ("alive".to_string(), command.clone()),
            ProcState::Stopped { command, .. } => (
                "STOPPED (not running)".to_string(),
                format!("{command}: {}", h.advice.clone().unwrap_or_default()),
            ),
            ProcState::Zombie { .. } => (
                "STALE (zombie)".to_string(),
                h.advice.clone().unwrap_or_default(),
            ),
            ProcState::Gone => (
                "STALE (no such PID here)".to_string(),
                h.advice.clone().unwrap_or_default(),
            ),
        };
        p.add_row(vec![
            h.device.to_string(),
            h.pid.to_string(),
            h.used
                .map(|b| b.to_string())
                .unwrap_or_else(|| "n/a (NVML cannot attribute)".into()),
            status,
            what,
        ]);
    }
    if s.holders.is_empty() {
        out.push_str("no process holds VRAM\n");
    } else {
        out.push_str(&p.to_string());
        out.push('\n');
    }
    for n in &s.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}
