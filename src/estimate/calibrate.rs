//! `--calibrate`: short real runs at two small micro-batches on this device, each in a
//! fresh `oomlab train` process, and the line peak = a + b x micro-batch through their
//! measured peaks. Cached per device and configuration.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use crate::config::ConfigFile;
use crate::results::RunSummary;
use crate::units::Bytes;
use crate::words::MemoryKind;

/// One measured probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// Samples per pass.
    pub micro_batch: usize,
    /// The measured peak.
    pub peak: Bytes,
}

/// The measured line and what it predicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Device the probes ran on (`cpu` or `cuda:0 NVIDIA H200`).
    pub device: String,
    /// What was measured: NVML process peak (GPU) or the host heap peak (CPU).
    pub measured: MemoryKind,
    /// The probes.
    pub probes: Vec<Probe>,
    /// Intercept, bytes.
    pub a: f64,
    /// Bytes per sample of micro-batch.
    pub b: f64,
    /// a + b x the configured micro-batch.
    pub predicted: Bytes,
    /// Read from the cache instead of run now.
    pub cached: bool,
}

/// Why calibration could not run.
#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    /// A probe run did not leave a summary with a peak.
    #[error("calibration probe at micro-batch {micro_batch} failed: {why} (its output: {dir})")]
    Probe {
        /// The micro-batch.
        micro_batch: usize,
        /// What went wrong.
        why: String,
        /// The probe's folder.
        dir: String,
    },
    /// The probe folder could not be written.
    #[error("calibration: cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// The two micro-batches probed for a configured `micro` (a quarter and a half of it,
/// at least 1 and 2).
pub fn probe_sizes(micro: usize) -> [usize; 2] {
    let hi = (micro / 2).max(2);
    [(hi / 2).max(1), hi]
}

/// Where calibrations are kept: `$OOMLAB_CALIBRATION`, else `~/.cache/oomlab/calibration`.
pub fn cache_dir() -> Option<PathBuf> {
    crate::env::calibration()
}

fn fnv(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Fits peak = a + b x micro-batch through `probes` (least squares).
pub fn fit_line(probes: &[Probe]) -> (f64, f64) {
    let n = probes.len() as f64;
    let (sx, sy) = probes.iter().fold((0.0, 0.0), |(x, y), p| {
        (x + p.micro_batch as f64, y + p.peak.0 as f64)
    });
    let (mx, my) = (sx / n, sy / n);
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for p in probes {
        let dx = p.micro_batch as f64 - mx;
        sxy += dx * (p.peak.0 as f64 - my);
        sxx += dx * dx;
    }
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - b * mx, b)
}

/// How the probes are run.
pub struct Prober<'a> {
    /// The oomlab binary.
    pub exe: &'a Path,
    /// `--device ...` and other run flags, passed to every probe.
    pub run_args: &'a [String],
    /// Device label for the cache key.
    pub device: &'a str,
    /// Scratch folder for the probes' run folders.
    pub scratch: &'a Path,
    /// The probes' compute threads (`RAYON_NUM_THREADS`) where the run sized for fixes
    /// them (a CPU run under `--memory-budget`); `None`: this machine's.
    pub threads: Option<usize>,
}

impl Prober<'_> {
    /// The calibration of `file` (a complete config) whose configured split is `micro` x
    /// `accumulation`: from the cache when this device and config were probed before.
    pub fn calibrate(
        &self,
        label: &str,
        file: &ConfigFile,
        micro: usize,
        accumulation: usize,
    ) -> Result<Calibration, CalibrateError> {
        let key_text = format!(
            "{}\n{}\n{}\n{}",
            env!("CARGO_PKG_VERSION"),
            self.device,
            accumulation,
            toml::to_string(file).unwrap_or_default()
        );
        let cache = cache_dir().map(|d| d.join(format!("{}.json", fnv(&key_text))));
        let finish = |mut c: Calibration| {
            c.predicted = Bytes((c.a + c.b * micro as f64).max(0.0).round() as u64);
            c
        };
        if let Some(hit) = cache
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str::<Calibration>(&t).ok())
        {
            return Ok(finish(Calibration {
                cached: true,
                ..hit
            }));
        }
        let mut probes = Vec::new();
        let mut measured = MemoryKind::Host;
        for m in probe_sizes(micro) {
            let summary = self.probe(label, file, m, accumulation)?;
            measured = summary.memory.kind;
            let peak = match summary.memory.kind {
                MemoryKind::Gpu => summary.memory.process_peak,
                MemoryKind::Host => summary.memory.host_heap_peak,
            };
            let peak = peak.ok_or_else(|| CalibrateError::Probe {
                micro_batch: m,
                why: "the run measured no peak (no NVML, or no host heap count: oomlab's counting allocator missing or memory.host_heap = \"off\")".into(),
                dir: self.scratch.display().to_string(),
            })?;
            probes.push(Probe {
                micro_batch: m,
                peak,
            });
        }
        let (a, b) = fit_line(&probes);
        let c = finish(Calibration {
            device: self.device.to_string(),
            measured,
            probes,
            a,
            b,
            predicted: Bytes(0),
            cached: false,
        });
        if let Some(path) = cache {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Ok(text) = serde_json::to_string_pretty(&c) {
                let _ = std::fs::write(path, text);
            }
        }
        Ok(c)
    }

    fn probe(
        &self,
        label: &str,
        file: &ConfigFile,
        micro: usize,
        accumulation: usize,
    ) -> Result<RunSummary, CalibrateError> {
        let dir = self.scratch.join(format!("{label}-{micro}"));
        let fail = |why: String| CalibrateError::Probe {
            micro_batch: micro,
            why,
            dir: dir.display().to_string(),
        };
        std::fs::create_dir_all(self.scratch).map_err(|source| CalibrateError::Io {
            path: self.scratch.to_path_buf(),
            source,
        })?;
        let config = self.scratch.join(format!("{label}.toml"));
        let text = toml::to_string(file).map_err(|e| fail(e.to_string()))?;
        std::fs::write(&config, text).map_err(|source| CalibrateError::Io {
            path: config.clone(),
            source,
        })?;
        let mut command = Command::new(self.exe);
        if let Some(n) = self.threads {
            command.env("RAYON_NUM_THREADS", n.to_string());
        }
        let status = command
            .arg("train")
            .arg("--config")
            .arg(&config)
            .args(self.run_args)
            .args(["--max-steps", "2", "--quiet", "--json", "--wide"])
            .arg("--batch")
            .arg((micro * accumulation).to_string())
            .arg("--out")
            .arg(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| fail(format!("could not start {}: {e}", self.exe.display())))?;
        let text = std::fs::read_to_string(dir.join("summary.json"))
            .map_err(|e| fail(format!("exit {:?}, no summary.json ({e})", status.code())))?;
        let summary: RunSummary =
            serde_json::from_str(&text).map_err(|e| fail(format!("summary.json: {e}")))?;
        if !matches!(summary.stop, crate::results::StopReason::Completed) {
            return Err(fail(format!(
                "the probe did not complete: {:?}",
                summary.stop
            )));
        }
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_two_probes_is_exact() {
        let probes = [
            Probe {
                micro_batch: 8,
                peak: Bytes(1000 + 8 * 50),
            },
            Probe {
                micro_batch: 16,
                peak: Bytes(1000 + 16 * 50),
            },
        ];
        let (a, b) = fit_line(&probes);
        assert!(
            (a - 1000.0).abs() < 1e-6 && (b - 50.0).abs() < 1e-9,
            "{a} {b}"
        );
    }

    #[test]
    fn probes_are_a_quarter_and_a_half_of_the_micro_batch() {
        assert_eq!(probe_sizes(64), [16, 32]);
        assert_eq!(probe_sizes(1), [1, 2]);
        assert_eq!(probe_sizes(5), [1, 2]);
    }
}
