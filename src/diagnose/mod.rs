//! `oomlab diagnose`: reads an out-of-memory message (PyTorch's, the CUDA runtime's,
//! cuBLAS's, cubecl's, TensorFlow's or XLA's; optionally with `torch.cuda.memory_summary()`
//! and nvidia-smi output pasted along) and says which case it is, why, and what to do.

mod classify;
mod fixed;
mod parse;
mod render;
mod savings;

pub use classify::{diagnose, Aside, Diagnosis, Holder, Verdict};
pub use fixed::{parse_params, Fix, FixedState};
pub use parse::{parse, Facts, SmiProcess, Source};
pub use savings::{measured_savings, paired_median, Saving};

use serde::Serialize;

use crate::holders::GpuSnapshot;

/// Everything `oomlab diagnose` prints, as data (`--json` writes this).
#[derive(Debug, Clone, Serialize)]
pub struct DiagnoseReport {
    /// The figures read from the text.
    pub facts: Facts,
    /// The case.
    pub diagnosis: Diagnosis,
    /// Measured savings of each technique, for the cases a technique can help.
    pub savings: Vec<Saving>,
    /// Processes holding VRAM on this machine now (NVML), when it can be read; the ones
    /// the message names are marked.
    pub live: Option<Vec<String>>,
    /// The user's model's fixed state against the card (`--params N`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_state: Option<FixedState>,
}

impl DiagnoseReport {
    /// Reads `text`; `live` is this machine's GPU snapshot when NVML answered.
    pub fn new(text: &str, live: Option<&GpuSnapshot>, params: Option<u64>) -> Self {
        let facts = parse(text);
        let card = facts.allowed.or(facts.total);
        let fixed_state = params.map(|p| FixedState::new(p, card));
        let diagnosis = diagnose(&facts);
        let savings = match diagnosis.verdict {
            Verdict::Shortage { .. }
            | Verdict::ProcessCap { .. }
            | Verdict::LargerThanCard { .. } => measured_savings(),
            _ => Vec::new(),
        };
        let named: Vec<u32> = facts
            .other_processes
            .iter()
            .map(|(p, _)| *p)
            .chain(facts.smi_processes.iter().map(|p| p.pid))
            .collect();
        let live = live.map(|s| {
            s.holders
                .iter()
                .map(|h| {
                    let used = h.used.map(|b| b.to_string()).unwrap_or_else(|| "?".into());
                    let what: String = h.proc.describe().chars().take(80).collect();
                    let mark = if named.contains(&h.pid) {
                        "  <- named in the message"
                    } else {
                        ""
                    };
                    format!("GPU {} PID {} {used}: {what}{mark}", h.device, h.pid)
                })
                .collect()
        });
        DiagnoseReport {
            facts,
            diagnosis,
            savings,
            live,
            fixed_state,
        }
    }

    /// Whether the text was classified (exit 0) or not (exit 1).
    pub fn classified(&self) -> bool {
        !matches!(
            self.diagnosis.verdict,
            Verdict::Unknown | Verdict::TooFewFigures { .. }
        )
    }

    /// The report for a terminal.
    pub fn to_terminal(&self) -> String {
        render::render(self)
    }
}
