//! `oomlab gpu`.

use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

use super::args::GpuArgs;
use crate::error::{Error, EXIT_FAILURE};
use crate::holders::{
    plan_kill, render_gpu_view, signal_planned, snapshot, GpuSnapshot, KillError, ProcState, Signal,
};
use crate::probe::NvmlView;

pub(super) fn run(args: GpuArgs) -> Result<i32, Error> {
    let view = NvmlView::init().inspect_err(|e| {
        // Scripts reading --json still get a document; main prints the error.
        if args.json {
            println!(
                "{}",
                serde_json::json!({ "devices": [], "holders": [], "notes": [e.to_string()] })
            );
        }
    })?;
    if let Some(pid) = args.kill {
        return kill(&view, pid, &args);
    }
    if let Some(wanted) = args.free_check {
        let check =
            crate::holders::free_check(&snapshot(&view), args.index, wanted).map_err(|reason| {
                crate::config::ConfigError::Override {
                    given: format!("--index {}", args.index),
                    reason: reason.to_string(),
                }
            })?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&check).unwrap_or_default()
            );
        } else {
            print!("{}", check.render());
        }
        return Ok(if check.ok { 0 } else { EXIT_FAILURE });
    }
    loop {
        let snap = snapshot(&view);
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&snap).unwrap_or_default()
            );
        } else {
            if args.watch.is_some() && std::io::stdout().is_terminal() {
                print!("\x1b[2J\x1b[H");
            }
            print!("{}", render_gpu_view(&snap));
        }
        let _ = std::io::stdout().flush();
        match args.watch {
            Some(secs) => std::thread::sleep(Duration::from_secs_f64(secs.max(0.1))),
            None => return Ok(0),
        }
    }
}

/// Whether PID still holds VRAM or still runs (a process keeping a dead holder's context
/// open is not in NVML's list itself).
fn still_holds(view: &NvmlView, pid: u32) -> bool {
    let snap: GpuSnapshot = snapshot(view);
    snap.holders
        .iter()
        .any(|h| h.pid == pid && h.proc != ProcState::Gone)
        || matches!(
            crate::holders::process_state(pid),
            ProcState::Alive { .. } | ProcState::Stopped { .. }
        )
}

fn kill(view: &NvmlView, pid: u32, args: &GpuArgs) -> Result<i32, Error> {
    let snap = snapshot(view);
    let plan = plan_kill(&snap, pid)?;
    if let Some(ppid) = plan.zombie_parent {
        return Err(KillError::Zombie { pid, ppid }.into());
    }
    let vram = plan
        .vram
        .map(|b| b.to_string())
        .unwrap_or_else(|| "an unknown amount of".into());
    eprintln!(
        "oomlab: will send SIGTERM to PID {pid} ({}), which holds {vram} VRAM{}",
        plan.command,
        if args.force {
            format!(", then SIGKILL if it is still alive after {} s", args.grace)
        } else {
            String::new()
        }
    );
    if !args.yes {
        if !std::io::stdin().is_terminal() {
            eprintln!("oomlab: not a terminal, cannot ask: add --yes to confirm");
            return Ok(crate::error::EXIT_USAGE);
        }
        eprint!("proceed? [y/N] ");
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            eprintln!("oomlab: nothing sent");
            return Ok(EXIT_FAILURE);
        }
    }
    signal_planned(&plan, Signal::SIGTERM)?;
    if plan.stopped {
        // A stopped process receives SIGTERM only once it runs again.
        eprintln!("oomlab: PID {pid} is stopped: sending SIGCONT so it receives the SIGTERM");
        signal_planned(&plan, Signal::SIGCONT)?;
    }
    let deadline = Instant::now() + Duration::from_secs_f64(args.grace.max(0.0));
    while Instant::now() < deadline {
        if !still_holds(view, pid) {
            eprintln!("oomlab: PID {pid} is gone; its VRAM is free");
            return Ok(0);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    if !still_holds(view, pid) {
        eprintln!("oomlab: PID {pid} is gone; its VRAM is free");
        return Ok(0);
    }
    if !args.force {
        eprintln!(
            "oomlab: PID {pid} still holds VRAM after {} s; run again with --force to send SIGKILL",
            args.grace
        );
        return Ok(EXIT_FAILURE);
    }
    signal_planned(&plan, Signal::SIGKILL)?;
    std::thread::sleep(Duration::from_millis(500));
    if still_holds(view, pid) {
        eprintln!("oomlab: SIGKILL sent but PID {pid} still holds VRAM (the driver may take a moment, or the process is stuck in the kernel)");
        return Ok(EXIT_FAILURE);
    }
    eprintln!("oomlab: PID {pid} killed; its VRAM is free");
    Ok(0)
}
