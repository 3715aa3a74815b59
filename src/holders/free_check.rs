//! `oomlab gpu --free-check SIZE`: the pre-job check people script by hand. Its exit
//! status says whether a card has SIZE free; its text lists who holds the rest.

use serde::Serialize;

use super::view::{GpuSnapshot, HolderRow};
use crate::units::Bytes;

/// The answer for one device.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FreeCheck {
    /// Device index.
    pub device: u32,
    /// What the job needs.
    pub wanted: Bytes,
    /// Free on the device now.
    pub free: Bytes,
    /// The device's capacity.
    pub total: Bytes,
    /// `free >= wanted`.
    pub ok: bool,
    /// The processes holding memory on it, largest first.
    pub holders: Vec<HolderRow>,
}

/// A GPU number NVML does not list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no GPU {device} here; NVML lists {}", listed_text(.listed))]
pub struct NoSuchGpu {
    /// The number asked for.
    pub device: u32,
    /// The numbers NVML lists.
    pub listed: Vec<u32>,
}

fn listed_text(listed: &[u32]) -> String {
    if listed.is_empty() {
        "none".to_string()
    } else {
        listed
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Checks `device` of `snap` for `wanted` free bytes; `Err` names the devices there are.
pub fn free_check(snap: &GpuSnapshot, device: u32, wanted: Bytes) -> Result<FreeCheck, NoSuchGpu> {
    let Some(d) = snap.devices.iter().find(|d| d.index == device) else {
        return Err(NoSuchGpu {
            device,
            listed: snap.devices.iter().map(|d| d.index).collect(),
        });
    };
    let mut holders: Vec<HolderRow> = snap
        .holders
        .iter()
        .filter(|h| h.device == device)
        .cloned()
        .collect();
    holders.sort_by_key(|h| std::cmp::Reverse(h.used.unwrap_or_default()));
    Ok(FreeCheck {
        device,
        wanted,
        free: d.free,
        total: d.total,
        ok: d.free >= wanted,
        holders,
    })
}

impl FreeCheck {
    /// One line of verdict, then the holders.
    pub fn render(&self) -> String {
        let mut s = if self.ok {
            format!(
                "GPU {}: {} free of {}, at least the {} asked for: OK\n",
                self.device, self.free, self.total, self.wanted
            )
        } else {
            format!(
                "GPU {}: {} free of {}, {} short of the {} asked for: NOT ENOUGH\n",
                self.device,
                self.free,
                self.total,
                Bytes(self.wanted.0 - self.free.0),
                self.wanted
            )
        };
        for h in &self.holders {
            let used = h.used.map_or_else(|| "?".to_string(), |b| b.to_string());
            let what: String = h.proc.describe().chars().take(90).collect();
            s.push_str(&format!("  PID {} holds {used}: {what}\n", h.pid));
        }
        if !self.ok && !self.holders.is_empty() {
            s.push_str("  (`oomlab gpu` shows them with what to do; `oomlab gpu --kill PID` ends one of yours)\n");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holders::ProcState;
    use crate::probe::NvmlDevice;

    const GIB: u64 = 1 << 30;

    fn snap() -> GpuSnapshot {
        GpuSnapshot {
            devices: vec![NvmlDevice {
                index: 0,
                name: "test card".into(),
                total: Bytes(24 * GIB),
                used: Bytes(20 * GIB),
                free: Bytes(4 * GIB),
            }],
            holders: vec![
                HolderRow {
                    device: 0,
                    pid: 11,
                    used: Some(Bytes(2 * GIB)),
                    proc: ProcState::Gone,
                    stale: true,
                    advice: None,
                },
                HolderRow {
                    device: 0,
                    pid: 12,
                    used: Some(Bytes(18 * GIB)),
                    proc: ProcState::Alive {
                        command: "python train.py".into(),
                        ppid: 1,
                    },
                    stale: false,
                    advice: None,
                },
            ],
            notes: vec![],
            inheritors: vec![],
            unmatched_pid_namespace: None,
        }
    }

    #[test]
    fn enough_free_memory_passes_and_too_little_names_the_holders_largest_first() {
        let ok = free_check(&snap(), 0, Bytes(3 * GIB)).unwrap();
        assert!(ok.ok);
        let short = free_check(&snap(), 0, Bytes(8 * GIB)).unwrap();
        assert!(!short.ok);
        let text = short.render();
        assert!(text.contains("4.00 GiB short"), "{text}");
        let first = text.find("PID 12").unwrap();
        let second = text.find("PID 11").unwrap();
        assert!(first < second, "largest holder first: {text}");
        assert!(text.contains("STALE"), "{text}");
    }

    #[test]
    fn an_unknown_device_names_the_ones_there_are() {
        let e = free_check(&snap(), 3, Bytes(GIB)).unwrap_err();
        assert_eq!(e.listed, [0]);
        assert_eq!(e.to_string(), "no GPU 3 here; NVML lists 0");
    }
}
