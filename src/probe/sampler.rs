//! A background thread that reads a probe at a fixed interval, from before the model
//! exists to after the last step, and records step boundaries on the same clock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::base::{MemoryProbe, MemoryReading};
use crate::units::Bytes;

/// One reading on the run's clock.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Seconds since the sampler started.
    pub t_s: f64,
    /// The reading.
    pub reading: MemoryReading,
}

/// Everything the sampler saw.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timeline {
    /// Which probe: `nvml` or `host`.
    pub source: String,
    /// Sampling interval.
    pub interval_ms: f64,
    /// Readings in time order.
    pub samples: Vec<Sample>,
    /// `(step, t_s)`: when each optimizer step started.
    pub step_starts: Vec<(usize, f64)>,
    /// Mean time one reading took on the sampler thread.
    pub mean_read_us: f64,
}

impl Timeline {
    /// Highest per-process figure seen.
    pub fn peak_process(&self) -> Option<Bytes> {
        self.samples.iter().filter_map(|s| s.reading.process).max()
    }

    /// Mean per-process figure.
    pub fn mean_process(&self) -> Option<Bytes> {
        let v: Vec<u64> = self
            .samples
            .iter()
            .filter_map(|s| s.reading.process.map(|b| b.0))
            .collect();
        (!v.is_empty()).then(|| Bytes(v.iter().sum::<u64>() / v.len() as u64))
    }

    /// Highest whole-device figure seen.
    pub fn peak_device_used(&self) -> Option<Bytes> {
        self.samples
            .iter()
            .filter_map(|s| s.reading.device_used)
            .max()
    }

    /// Highest in-use figure seen (host heap).
    pub fn peak_in_use(&self) -> Option<Bytes> {
        self.samples.iter().filter_map(|s| s.reading.in_use).max()
    }

    /// One [`MemoryRow`] per sample, with the step it falls in.
    pub fn rows(&self) -> Vec<MemoryRow> {
        let mut steps = self.step_starts.iter().peekable();
        let mut step: Option<usize> = None;
        let bytes = |x: Option<Bytes>| x.map(|b| b.0);
        self.samples
            .iter()
            .map(|s| {
                while let Some((n, t)) = steps.peek() {
                    if *t <= s.t_s {
                        step = Some(*n);
                        steps.next();
                    } else {
                        break;
                    }
                }
                MemoryRow {
                    t_s: (s.t_s * 1e4).round() / 1e4,
                    step,
                    in_use_bytes: bytes(s.reading.in_use),
                    process_bytes: bytes(s.reading.process),
                    device_used_bytes: bytes(s.reading.device_used),
                }
            })
            .collect()
    }

    /// `memory.csv`: the [`MemoryRow`]s with a header line.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in self.rows() {
            if w.serialize(row).is_err() {
                break;
            }
        }
        w.into_inner()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }
}

/// One line of a run's `memory.csv`, written by [`Timeline::to_csv`] and read back by
/// [`read_memory_csv`] (`oomlab compare`'s chart).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MemoryRow {
    /// Seconds since the sampler started.
    pub t_s: f64,
    /// The optimizer step running then (none before the first).
    pub step: Option<usize>,
    /// Allocator (GPU) or host heap (CPU) bytes in use.
    pub in_use_bytes: Option<u64>,
    /// NVML process VRAM (GPU) or RSS (CPU).
    pub process_bytes: Option<u64>,
    /// The whole device's used memory (GPU).
    pub device_used_bytes: Option<u64>,
}

/// The rows of a `memory.csv`; lines that do not parse are skipped.
pub fn read_memory_csv(text: &str) -> Vec<MemoryRow> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .flatten()
        .collect()
}

/// The running sampler.
pub struct Sampler {
    start: Instant,
    stop: Arc<AtomicBool>,
    steps: Arc<Mutex<Vec<(usize, f64)>>>,
    handle: Option<JoinHandle<(Vec<Sample>, f64)>>,
    source: String,
    interval: Duration,
}

impl Sampler {
    /// Starts reading `probe` every `interval` on its own thread.
    pub fn start(probe: Arc<dyn MemoryProbe>, interval: Duration) -> Self {
        let start = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let source = probe.source().to_string();
        let handle = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("oomlab-probe".into())
                .spawn(move || {
                    let mut samples = Vec::new();
                    let mut read_time = Duration::ZERO;
                    let mut next = Instant::now();
                    loop {
                        let t0 = Instant::now();
                        let reading = probe.read();
                        read_time += t0.elapsed();
                        samples.push(Sample {
                            t_s: t0.duration_since(start).as_secs_f64(),
                            reading,
                        });
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        next += interval;
                        let now = Instant::now();
                        if next > now {
                            // Parked, not slept: `finish` unparks us, so a long interval
                            // never delays the end of a run.
                            std::thread::park_timeout(next - now);
                        } else {
                            next = now;
                        }
                    }
                    let mean_us = read_time.as_secs_f64() * 1e6 / samples.len().max(1) as f64;
                    (samples, mean_us)
                })
                .ok()
        };
        Self {
            start,
            stop,
            steps: Arc::new(Mutex::new(Vec::new())),
            handle,
            source,
            interval,
        }
    }

    /// Marks the start of optimizer step `step`.
    pub fn mark_step(&self, step: usize) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut s) = self.steps.lock() {
            s.push((step, t));
        }
    }

    /// Stops the thread (after one last reading) and returns the timeline.
    pub fn finish(mut self) -> Timeline {
        self.stop.store(true, Ordering::Relaxed);
        let (samples, mean_read_us) = self
            .handle
            .take()
            .and_then(|h| {
                h.thread().unpark();
                h.join().ok()
            })
            .unwrap_or_default();
        Timeline {
            source: self.source.clone(),
            interval_ms: self.interval.as_secs_f64() * 1e3,
            samples,
            step_starts: self.steps.lock().map(|s| s.clone()).unwrap_or_default(),
            mean_read_us,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::FixedProbe;

    #[test]
    fn finishing_does_not_wait_for_a_long_interval() {
        let s = Sampler::start(
            Arc::new(FixedProbe(MemoryReading::default())),
            Duration::from_secs(1000),
        );
        std::thread::sleep(Duration::from_millis(20));
        let t0 = std::time::Instant::now();
        let t = s.finish();
        assert!(t0.elapsed() < Duration::from_secs(5));
        assert_eq!(t.samples.len(), 2, "one at the start, one at the end");
    }

    #[test]
    fn samples_at_the_interval_until_finished_and_keeps_step_marks() {
        let probe = FixedProbe(MemoryReading {
            process: Some(Bytes(100)),
            ..Default::default()
        });
        let s = Sampler::start(Arc::new(probe), Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(30));
        s.mark_step(0);
        std::thread::sleep(Duration::from_millis(30));
        let t = s.finish();
        assert!(t.samples.len() >= 5, "{}", t.samples.len());
        assert_eq!(t.step_starts.len(), 1);
        assert_eq!(t.peak_process(), Some(Bytes(100)));
        let csv = t.to_csv();
        assert!(csv.starts_with("t_s,step,in_use_bytes,process_bytes,device_used_bytes\n"));
        // What is written is what is read: every sample, the last one in step 0.
        let rows = read_memory_csv(&csv);
        assert_eq!(rows, t.rows());
        assert_eq!(rows.last().map(|r| r.step), Some(Some(0)));
        assert_eq!(rows.last().and_then(|r| r.process_bytes), Some(100));
    }
}
