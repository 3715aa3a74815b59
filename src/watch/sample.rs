//! Watching a running job: every interval, its process tree from /proc (host memory of
//! each process) and, where NVML answers, each card's used and total and the VRAM NVML
//! charges to each process. Every reading goes to timeline.csv as it is taken; the peaks,
//! the processes seen and the last view of the card stay in memory for the summary.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::tree::{tree_of, TreeProcess};
use crate::holders::GpuSnapshot;
use crate::probe::NvmlView;
use crate::units::Bytes;

/// One process of the job, over the whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobProcess {
    /// PID.
    pub pid: u32,
    /// Parent PID.
    pub ppid: u32,
    /// Its command line when last seen: a process forked by a shell shows the shell's
    /// command until it runs its own program.
    pub command: String,
    /// Seconds from the launch to the first sample that saw it.
    pub first_seen_s: f64,
    /// ... to the last.
    pub last_seen_s: f64,
    /// Highest resident memory sampled.
    pub peak_rss: Bytes,
    /// Highest VRAM NVML charged to it (None: never on a card, or NVML unavailable).
    pub peak_vram: Option<Bytes>,
    /// VRAM at the first sample that saw it on a card.
    pub first_vram: Option<Bytes>,
    /// VRAM at the last sample that saw it.
    pub last_vram: Option<Bytes>,
    /// The highest VRAM the driver's accounting saw it hold, summed over the cards whose
    /// accounting mode is on (None: accounting off, or the driver does not know it). Not
    /// sampled: a spike between two samples is in it.
    #[serde(default)]
    pub accounting_peak_vram: Option<Bytes>,
}

/// A card over the whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardPeak {
    /// NVML index.
    pub index: u32,
    /// Name.
    pub name: String,
    /// Capacity.
    pub total: Bytes,
    /// Highest used (every process, the driver's reserve included).
    pub peak_used: Bytes,
}

/// What the watch found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Watched {
    /// Samples taken.
    pub samples: usize,
    /// The interval asked for.
    pub interval_ms: u64,
    /// Mean time one sample took (reading /proc and NVML).
    pub sample_cost_us: f64,
    /// Every process of the job's tree that a sample saw, by PID.
    pub processes: Vec<JobProcess>,
    /// The highest host memory of the whole tree at one sample.
    pub tree_peak_rss: Bytes,
    /// The highest VRAM of the whole tree at one sample (None without NVML).
    pub tree_peak_vram: Option<Bytes>,
    /// Every card, with its highest used.
    pub cards: Vec<CardPeak>,
    /// The last view of the cards while the job ran: devices and every holder.
    pub last_gpu: Option<GpuSnapshot>,
    /// Why something could not be read (NVML missing, PIDs of another namespace).
    pub notes: Vec<String>,
    /// The cards whose NVML accounting mode was on: their per-process maxima were read.
    #[serde(default)]
    pub accounting_cards: Vec<u32>,
}

/// A watch in progress.
pub struct Watcher {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Watched>,
}

impl Watcher {
    /// Starts sampling the tree of `root`, launched at `launched`, every `interval`,
    /// writing `timeline.csv` into `dir` (one line per process per sample: seconds since
    /// the launch, PID, RSS bytes, VRAM bytes).
    /// With `group`, the members of that process group count as the job's too.
    pub fn start(
        root: u32,
        group: Option<u32>,
        launched: Instant,
        interval: Duration,
        dir: &Path,
    ) -> Watcher {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let csv = std::fs::File::create(dir.join("timeline.csv")).ok();
        let thread = std::thread::spawn(move || watch(root, group, launched, interval, &flag, csv));
        Watcher { stop, thread }
    }

    /// Stops after the sample in progress and returns what was seen.
    pub fn finish(self) -> Watched {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap_or_else(|_| Watched {
            samples: 0,
            interval_ms: 0,
            sample_cost_us: 0.0,
            processes: Vec::new(),
            tree_peak_rss: Bytes(0),
            tree_peak_vram: None,
            cards: Vec::new(),
            last_gpu: None,
            notes: vec!["the sampler stopped unexpectedly".into()],
            accounting_cards: Vec::new(),
        })
    }
}

fn watch(
    root: u32,
    group: Option<u32>,
    start: Instant,
    interval: Duration,
    stop: &AtomicBool,
    mut csv: Option<std::fs::File>,
) -> Watched {
    let mut notes = Vec::new();
    let nvml = match NvmlView::init() {
        Ok(v) => Some(v),
        Err(e) => {
            notes.push(format!(
                "no GPU figures: {e}; host memory of the job's processes only"
            ));
            None
        }
    };
    if let Some(f) = csv.as_mut() {
        let _ = writeln!(f, "seconds,pid,rss_bytes,vram_bytes");
    }
    let mut processes: BTreeMap<u32, JobProcess> = BTreeMap::new();
    let mut cards: BTreeMap<u32, CardPeak> = BTreeMap::new();
    let (mut samples, mut cost) = (0usize, Duration::ZERO);
    let (mut tree_rss, mut tree_vram) = (Bytes(0), None::<Bytes>);
    let mut last_gpu = None;
    let mut namespace_noted = false;
    loop {
        let t0 = Instant::now();
        let tree: Vec<TreeProcess> = tree_of(root, group);
        let snap = nvml.as_ref().map(crate::holders::snapshot);
        let t = start.elapsed().as_secs_f64();
        // NVML's PIDs are the host's: in a container without them, no holder is the job's.
        let vram_of = |pid: u32| -> Option<Bytes> {
            let s = snap
                .as_ref()
                .filter(|s| s.unmatched_pid_namespace.is_none())?;
            let held: u64 = s
                .holders
                .iter()
                .filter(|h| h.pid == pid)
                .filter_map(|h| h.used.map(|b| b.0))
                .sum();
            s.holders
                .iter()
                .any(|h| h.pid == pid)
                .then_some(Bytes(held))
        };
        let mut rss_sum = 0u64;
        let mut vram_sum = None::<u64>;
        for p in &tree {
            let vram = vram_of(p.pid);
            rss_sum += p.rss.0;
            if let Some(v) = vram {
                *vram_sum.get_or_insert(0) += v.0;
            }
            if let Some(f) = csv.as_mut() {
                let _ = writeln!(
                    f,
                    "{t:.3},{},{},{}",
                    p.pid,
                    p.rss.0,
                    vram.map(|v| v.0.to_string()).unwrap_or_default()
                );
            }
            let e = processes.entry(p.pid).or_insert_with(|| JobProcess {
                pid: p.pid,
                ppid: p.ppid,
                command: p.command.clone(),
                first_seen_s: t,
                last_seen_s: t,
                peak_rss: p.rss,
                peak_vram: None,
                first_vram: None,
                last_vram: None,
                accounting_peak_vram: None,
            });
            e.last_seen_s = t;
            if e.command != p.command {
                e.command.clone_from(&p.command);
            }
            e.peak_rss = e.peak_rss.max(p.rss);
            if let Some(v) = vram {
                e.peak_vram = Some(e.peak_vram.map_or(v, |p| p.max(v)));
                e.first_vram.get_or_insert(v);
                e.last_vram = Some(v);
            }
        }
        tree_rss = tree_rss.max(Bytes(rss_sum));
        if let Some(v) = vram_sum {
            tree_vram = Some(tree_vram.map_or(Bytes(v), |p| p.max(Bytes(v))));
        }
        if let Some(s) = &snap {
            for d in &s.devices {
                let c = cards.entry(d.index).or_insert_with(|| CardPeak {
                    index: d.index,
                    name: d.name.clone(),
                    total: d.total,
                    peak_used: d.used,
                });
                c.peak_used = c.peak_used.max(d.used);
            }
            if let (Some(ns), false) = (&s.unmatched_pid_namespace, namespace_noted) {
                notes.push(format!(
                    "NVML's PIDs are not this PID namespace's ({ns}: a container without the host's PIDs): the job's own VRAM cannot be told from other processes'; the cards' totals are recorded"
                ));
                namespace_noted = true;
            }
        }
        // The last view while the job was alive: who held the card then.
        if !tree.is_empty() {
            last_gpu = snap.or(last_gpu);
        }
        samples += 1;
        cost += t0.elapsed();
        if stop.load(Ordering::SeqCst) || tree.is_empty() {
            break;
        }
        let spent = t0.elapsed();
        // Sleep in short slices so that the end of the job ends the watch promptly.
        let mut left = interval.saturating_sub(spent);
        while !left.is_zero() && !stop.load(Ordering::SeqCst) {
            let slice = left.min(Duration::from_millis(20));
            std::thread::sleep(slice);
            left = left.saturating_sub(slice);
        }
    }
    // Where the driver keeps accounting, its per-process maximum (it knows a process after
    // it exited) catches what sampling missed.
    let mut accounting_cards = Vec::new();
    if let Some(v) = &nvml {
        for &index in cards.keys() {
            if !v.accounting_enabled(index) {
                continue;
            }
            accounting_cards.push(index);
            for p in processes.values_mut() {
                if let Some(b) = v.accounting_max(index, p.pid) {
                    p.accounting_peak_vram =
                        Some(Bytes(p.accounting_peak_vram.map_or(0, |a| a.0) + b.0));
                }
            }
        }
    }
    Watched {
        samples,
        interval_ms: u64::try_from(interval.as_millis()).unwrap_or(u64::MAX),
        sample_cost_us: cost.as_secs_f64() * 1e6 / samples.max(1) as f64,
        processes: processes.into_values().collect(),
        tree_peak_rss: tree_rss,
        tree_peak_vram: tree_vram,
        cards: cards.into_values().collect(),
        last_gpu,
        notes,
        accounting_cards,
    }
}
