//! `oomlab run -- CMD`: the user's job checked, launched, watched and explained (the
//! parts are in `watch`; this runs them in order and writes the run folder).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::diagnose::DiagnoseReport;
use crate::error::{Error, EXIT_NOT_FREE};
use crate::probe::NvmlView;
use crate::text::hang;
use crate::watch::{
    first_visible, holders_line, launch, prelaunch, JobReport, Need, Prelaunch, Watcher,
};

/// A validated `oomlab run`.
#[derive(Debug, Clone)]
pub struct RunPlan {
    /// The job: program and arguments.
    pub command: Vec<String>,
    /// The check before the launch (`--need`, `--wait`, `--reap-stale`).
    pub need: Option<Need>,
    /// Between samples.
    pub interval: Duration,
    /// The run folder.
    pub out: PathBuf,
    /// No report after the job.
    pub quiet: bool,
    /// CUDA_VISIBLE_DEVICES as the job will see it.
    pub visible: Option<String>,
}

/// Where the run folder goes by default.
pub fn default_out() -> PathBuf {
    crate::run_dir::default_run_path(std::path::Path::new("runs"), "run")
}

/// Runs the job; returns its exit code (or [`EXIT_NOT_FREE`] when the check before the
/// launch refused it).
pub fn run_job(plan: &RunPlan) -> Result<i32, Error> {
    std::fs::create_dir_all(&plan.out).map_err(|source| Error::RunDir {
        path: plan.out.clone(),
        source,
    })?;
    let say = |line: &str| {
        if !plan.quiet {
            eprint!("{}", hang("oomlab run: ", line));
        }
    };
    let checked = match plan.need {
        Some(need) => Some(check(plan, need, &say)?),
        None => None,
    };
    if let Some(p) = checked.as_ref().filter(|p| !p.ok) {
        let refusal = match &p.check {
            Some(c) => format!(
                "not started: GPU {} has {} free, the job needs {}; held by {}. Wait for it (--wait SECS), end stale holders of yours (--reap-stale), or free the card (oomlab gpu).",
                c.device,
                c.free,
                c.wanted,
                holders_line(c)
            ),
            None => "not started: the card could not be checked".into(),
        };
        eprint!("{}", hang("oomlab run: ", &refusal));
        write_json(
            plan,
            "summary.json",
            &serde_json::json!({ "started": false, "prelaunch": p }),
        );
        return Ok(EXIT_NOT_FREE);
    }
    let start = Instant::now();
    let job = launch(&plan.command, &plan.out)?;
    let watcher = Watcher::start(job.pid, job.group, start, plan.interval, &plan.out);
    let forwarded = job.forwarded.clone();
    let ended = job.finish()?;
    let code = ended.code;
    let wall_s = start.elapsed().as_secs_f64();
    let watched = watcher.finish();
    let output = format!(
        "{}\n{}",
        tail(&plan.out.join("stdout.txt")),
        tail(&plan.out.join("stderr.txt"))
    );
    let oom = Some(DiagnoseReport::new(
        &output,
        watched.last_gpu.as_ref(),
        None,
    ))
    .filter(|d| d.facts.source.is_some());
    let signal = forwarded.load(std::sync::atomic::Ordering::SeqCst);
    let report = JobReport {
        command: plan.command.clone(),
        exit_code: code,
        signal: ended.signal,
        output_left_open: ended.output_left_open,
        forwarded_signal: (signal != 0).then_some(signal),
        wall_s,
        prelaunch: checked,
        watched,
        oom,
        folder: plan.out.display().to_string(),
    };
    write_json(plan, "summary.json", &report);
    let chart = crate::watch::timeline_svg(&plan.out.join("timeline.csv"), &report)
        .is_some_and(|svg| std::fs::write(plan.out.join("memory.svg"), svg).is_ok());
    if !plan.quiet {
        eprint!("\n{}", report.to_terminal(chart));
    }
    Ok(code)
}

/// The check before the launch: on a machine without NVML it is skipped, and said so.
fn check(plan: &RunPlan, need: Need, say: &impl Fn(&str)) -> Result<Prelaunch, Error> {
    let view = match NvmlView::init() {
        Ok(v) => v,
        Err(e) => {
            let why = format!("--need {} not checked: no GPU figures ({e})", need.bytes);
            say(&why);
            return Ok(Prelaunch {
                check: None,
                ok: true,
                done: Vec::new(),
                skipped: Some(why),
            });
        }
    };
    let (card, note) = first_visible(plan.visible.as_deref());
    if let Some(n) = &note {
        say(n);
    }
    let mut p = prelaunch(&view, card, need, |line| say(line))
        .map_err(|e| Error::Unsupported(e.to_string()))?;
    for d in &p.done {
        say(d);
    }
    if let Some(n) = note {
        p.done.push(n);
    }
    Ok(p)
}

/// The last 256 KiB of a file, as text (empty when it cannot be read); only that much is
/// read, however long the job's output.
fn tail(path: &std::path::Path) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let mut bytes = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let len = f.metadata().map_or(0, |m| m.len());
        let _ = f.seek(SeekFrom::Start(len.saturating_sub(256 << 10)));
        let _ = f.take(256 << 10).read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn write_json(plan: &RunPlan, name: &str, value: &impl serde::Serialize) {
    let path = plan.out.join(name);
    match serde_json::to_string_pretty(value) {
        Ok(text) => {
            if let Err(e) = std::fs::write(&path, text + "\n") {
                eprint!(
                    "{}",
                    hang(
                        "oomlab run: ",
                        &format!("cannot write {}: {e}", path.display())
                    )
                );
            }
        }
        Err(e) => eprint!(
            "{}",
            hang("oomlab run: ", &format!("cannot write {name}: {e}"))
        ),
    }
}
