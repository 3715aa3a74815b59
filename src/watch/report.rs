//! What `oomlab run` says after the job: its exit, every process of its tree with its
//! peaks, the cards, and, when the job printed an out-of-memory message, the diagnosis
//! with what was on the card at the last sample. Built once as data (summary.json), then
//! rendered for the terminal.

use serde::Serialize;

use super::prelaunch::Prelaunch;
use super::sample::Watched;
use crate::diagnose::DiagnoseReport;
use crate::text::{brief_command, hang, table, wrap, Footnotes};
use crate::units::Bytes;

/// The whole account of one `oomlab run`.
#[derive(Debug, Clone, Serialize)]
pub struct JobReport {
    /// The command, as given after `--`.
    pub command: Vec<String>,
    /// The job's exit code as a shell gives it (128 + N for signal N).
    pub exit_code: i32,
    /// The signal that ended the job, if one did.
    pub signal: Option<i32>,
    /// Whether a process the job left running still held its output when oomlab stopped
    /// copying it.
    pub output_left_open: bool,
    /// The last SIGINT or SIGTERM oomlab received while the job ran, if any.
    pub forwarded_signal: Option<i32>,
    /// Seconds from the launch to the job's end.
    pub wall_s: f64,
    /// The check before the launch.
    pub prelaunch: Option<Prelaunch>,
    /// What the watch saw.
    pub watched: Watched,
    /// The out-of-memory message in the job's output, read as `oomlab diagnose` reads it.
    pub oom: Option<DiagnoseReport>,
    /// The run folder.
    pub folder: String,
}

impl JobReport {
    /// The report for the terminal (oomlab writes it to stderr, after the job's output);
    /// `chart`: whether memory.svg was written.
    pub fn to_terminal(&self, chart: bool) -> String {
        let w = &self.watched;
        let mut out = String::new();
        out.push_str(&hang(
            "oomlab run: ",
            &format!(
                "`{}` {} after {:.1} s{}; {}",
                shell_words(&self.command),
                match self.signal {
                    Some(s) => format!("ended by signal {s} (exit {})", self.exit_code),
                    None => format!("exited {}", self.exit_code),
                },
                self.wall_s,
                match self.forwarded_signal {
                    Some(2) => ", after Ctrl-C (SIGINT)".to_string(),
                    Some(15) => ", after oomlab passed SIGTERM on to it".to_string(),
                    Some(s) => format!(", after signal {s}"),
                    None => String::new(),
                },
                if w.processes.is_empty() {
                    "it ended before oomlab's first sample: no figures of its own.".to_string()
                } else {
                    format!(
                        "{} seen in {} every {} ms.",
                        crate::text::count(w.processes.len() as u64, "process", "processes"),
                        crate::text::count(w.samples as u64, "sample", "samples"),
                        w.interval_ms
                    )
                }
            ),
        ));
        let gpu = w.tree_peak_vram.is_some();
        let mut notes = Footnotes::new();
        let mut t = table();
        let clipped = w
            .processes
            .iter()
            .any(|p| brief_command(&p.command, 64) != p.command);
        let command = if clipped {
            format!(
                "command {}",
                notes.mark("Shortened here; summary.json has each whole command line.")
            )
        } else {
            "command".to_string()
        };
        let mut header = vec![
            "PID".to_string(),
            "parent".into(),
            command,
            "peak RSS".into(),
        ];
        if gpu {
            header.extend(["peak VRAM".into(), "VRAM first -> last".into()]);
        }
        t.set_header(header);
        for p in &w.processes {
            let mut row = vec![
                p.pid.to_string(),
                p.ppid.to_string(),
                brief_command(&p.command, 64),
                p.peak_rss.to_string(),
            ];
            if gpu {
                row.push(p.peak_vram.map_or("-".into(), |b| b.to_string()));
                row.push(match (p.first_vram, p.last_vram) {
                    (Some(a), Some(b)) => format!("{a} -> {b}"),
                    _ => "-".into(),
                });
            }
            t.add_row(row);
        }
        let mut total = vec![
            "tree".to_string(),
            String::new(),
            format!(
                "every process at once {}",
                notes.mark("The highest sum over the tree at one sample: processes that peak at different moments add up to less than their peaks' sum.")
            ),
            w.tree_peak_rss.to_string(),
        ];
        if let Some(v) = w.tree_peak_vram {
            total.push(v.to_string());
            total.push(String::new());
        }
        t.add_row(total);
        out.push_str(&format!("{t}\n"));
        out.push_str(&notes.render());
        for c in &w.cards {
            out.push_str(&hang(
                "  ",
                &format!(
                    "GPU {} {}: at most {} of {} used while the job ran (every process, the driver's reserve included).",
                    c.index, c.name, c.peak_used, c.total
                ),
            ));
        }
        if gpu && w.accounting_cards.is_empty() {
            out.push_str(&wrap(
                &format!(
                    "Sampled every {} ms (one sample took {:.0} us): a spike shorter than that can be missed (NVML's accounting mode, `sudo nvidia-smi -am 1`, would keep each process's own maximum).",
                    w.interval_ms, w.sample_cost_us
                ),
                "  ",
            ));
        }
        if !w.accounting_cards.is_empty() {
            let known: Vec<String> = w
                .processes
                .iter()
                .filter_map(|p| p.accounting_peak_vram.map(|b| format!("PID {} {b}", p.pid)))
                .collect();
            out.push_str(&wrap(
                &format!(
                    "Sampled every {} ms (one sample took {:.0} us). NVML's accounting mode is on: {}.",
                    w.interval_ms,
                    w.sample_cost_us,
                    if known.is_empty() {
                        "the driver kept no maximum for any of the job's processes".to_string()
                    } else {
                        format!(
                            "the driver's own maximum of each process, spikes between samples included: {}",
                            known.join(", ")
                        )
                    }
                ),
                "  ",
            ));
        }
        for n in &w.notes {
            out.push_str(&hang("  note: ", n));
        }
        if self.output_left_open {
            out.push_str(&hang(
                "  note: ",
                "a process the job started was still running with the job's output open when the job ended; oomlab kept what came in the next few seconds (stdout.txt, stderr.txt) and no more.",
            ));
        }
        if let Some(p) = &self.prelaunch {
            for d in &p.done {
                out.push_str(&hang("  before the launch: ", d));
            }
        }
        if let Some(d) = &self.oom {
            out.push('\n');
            out.push_str(&wrap(
                "The job printed an out-of-memory error. What oomlab saw at the last sample before the job ended:",
                "",
            ));
            out.push_str(&self.live_facts());
            out.push('\n');
            out.push_str(&d.to_terminal());
        }
        out.push_str(&hang(
            "run folder: ",
            &format!(
                "{} (stdout.txt, stderr.txt, timeline.csv, {}summary.json)",
                self.folder,
                if chart { "memory.svg, " } else { "" }
            ),
        ));
        out
    }

    /// The facts an out-of-memory message lacks: the other holders of the cards at the
    /// last sample, the job's own processes on them and how they grew, stale holders.
    fn live_facts(&self) -> String {
        let w = &self.watched;
        let Some(snap) = &w.last_gpu else {
            return hang(
                "  ",
                "no GPU figures were read (no NVML here): only the message's own figures below.",
            );
        };
        if let Some(ns) = &snap.unmatched_pid_namespace {
            return hang(
                "  ",
                &format!(
                    "the card's holders are not this PID namespace's ({ns}: a container without the host's PIDs): the job's own processes cannot be told from other processes'; only the message's own figures below."
                ),
            );
        }
        let ours: Vec<u32> = w.processes.iter().map(|p| p.pid).collect();
        let mut out = String::new();
        let others: Vec<_> = snap
            .holders
            .iter()
            .filter(|h| !ours.contains(&h.pid))
            .collect();
        if others.is_empty() {
            out.push_str(&hang(
                "  ",
                "no other process held memory on the cards: the job's own processes held all of it.",
            ));
        }
        for h in &others {
            out.push_str(&hang(
                "  ",
                &format!(
                    "another process held {} on GPU {}: PID {} of {}, {}{}",
                    h.used.map_or("an unknown amount".into(), |b| b.to_string()),
                    h.device,
                    h.pid,
                    user_of(h.pid),
                    h.proc.describe(),
                    if h.stale { " (STALE)" } else { "" }
                ),
            ));
        }
        for p in w.processes.iter().filter(|p| p.peak_vram.is_some()) {
            out.push_str(&hang(
                "  ",
                &format!(
                    "the job's PID {} ({}) held {} at its first sample on the card and {} at its last (peak {})",
                    p.pid,
                    p.command.chars().take(60).collect::<String>(),
                    p.first_vram.unwrap_or(Bytes(0)),
                    p.last_vram.unwrap_or(Bytes(0)),
                    p.peak_vram.unwrap_or(Bytes(0))
                ),
            ));
        }
        out
    }
}

/// The user name of `pid`'s owner, as the system's user database gives it (else `uid N`,
/// or `an unknown user` for a process not visible here).
pub fn user_of(pid: u32) -> String {
    let Some(uid) = super::prelaunch::owner(pid) else {
        return "an unknown user (not visible here)".into();
    };
    user_name(uid).map_or(format!("uid {uid}"), |name| format!("user {name}"))
}

/// The name the system's user database gives `uid` (getpwuid_r: /etc/passwd, and LDAP or
/// other NSS sources where the system has them).
fn user_name(uid: u32) -> Option<String> {
    let mut buf = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: passwd is plain data (integers and pointers): all zeros is a valid value,
    // which getpwuid_r overwrites.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: entry, buf (with its true length) and found are valid for writes for the
    // whole call; getpwuid_r writes the strings into buf and points found at entry.
    let rc = unsafe { libc::getpwuid_r(uid, &mut entry, buf.as_mut_ptr(), buf.len(), &mut found) };
    if rc != 0 || found.is_null() || entry.pw_name.is_null() {
        return None;
    }
    // SAFETY: on success pw_name points at a NUL-terminated string inside buf, alive here.
    let name = unsafe { std::ffi::CStr::from_ptr(entry.pw_name) };
    Some(name.to_string_lossy().into_owned())
}

/// The job's command as a shell takes it: an argument with spaces or shell characters in
/// single quotes.
fn shell_words(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty()
                || a.chars()
                    .any(|c| c.is_whitespace() || "'\"\\$`&|;<>()*?!#~".contains(c))
            {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::watch::JobProcess;

    #[test]
    fn the_user_database_names_root_and_this_process_owner() {
        assert_eq!(user_name(0).as_deref(), Some("root"));
        assert!(
            user_of(std::process::id()).starts_with("user ")
                || user_of(std::process::id()).starts_with("uid ")
        );
    }

    fn report(accounting: bool) -> JobReport {
        let process = |pid, vram: u64, max: Option<u64>| JobProcess {
            pid,
            ppid: 1,
            command: "python3 train.py".into(),
            first_seen_s: 0.1,
            last_seen_s: 2.0,
            peak_rss: Bytes(1 << 30),
            peak_vram: Some(Bytes(vram)),
            first_vram: Some(Bytes(vram / 2)),
            last_vram: Some(Bytes(vram)),
            accounting_peak_vram: max.map(Bytes),
        };
        JobReport {
            command: vec!["python3".into(), "train.py".into()],
            exit_code: 1,
            signal: None,
            output_left_open: false,
            forwarded_signal: None,
            wall_s: 2.0,
            prelaunch: None,
            watched: Watched {
                samples: 20,
                interval_ms: 100,
                sample_cost_us: 350.0,
                processes: vec![
                    process(100, 4 << 30, accounting.then_some(6 << 30)),
                    process(101, 1 << 30, None),
                ],
                tree_peak_rss: Bytes(2 << 30),
                tree_peak_vram: Some(Bytes(5 << 30)),
                cards: Vec::new(),
                last_gpu: None,
                notes: Vec::new(),
                accounting_cards: if accounting { vec![0] } else { Vec::new() },
            },
            oom: None,
            folder: "runs/job".into(),
        }
    }

    #[test]
    fn the_drivers_own_maximum_is_said_where_accounting_is_on() {
        let on = report(true).to_terminal(true);
        assert!(on.contains("accounting mode is on"), "{on}");
        assert!(
            on.contains("PID 100 6.00 GiB") && !on.contains("PID 101"),
            "{on}"
        );
        assert!(!on.contains("can be missed"), "{on}");
        let off = report(false).to_terminal(false);
        assert!(
            off.contains("a spike shorter than that can be missed"),
            "{off}"
        );
        assert!(off.contains("nvidia-smi -am 1"), "{off}");
        // The chart is named only where it was written.
        assert!(
            on.contains("memory.svg") && !off.contains("memory.svg"),
            "{off}"
        );
    }

    #[test]
    fn a_command_reads_as_a_shell_takes_it() {
        let args: Vec<String> = ["sh", "-c", "cat oom.txt >&2; exit 1", "it's", ""]
            .map(String::from)
            .to_vec();
        assert_eq!(
            shell_words(&args),
            r#"sh -c 'cat oom.txt >&2; exit 1' 'it'\''s' ''"#
        );
    }
}
