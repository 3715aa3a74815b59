//! `oomlab report DIR`: the one-page HTML report of a compare folder or of one run's
//! folder, rebuilt from the files in it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::compare::{report_html, Page, RunDetail, Series};
use crate::error::Error;
use crate::results::{Comparison, Row, RowStatus, RunSummary};
use crate::technique::Variant;

use super::predicted::predicted;

/// `oomlab explain` for a row: its own topic, else its family's (amp-bf16 -> amp).
fn explain_of(name: &str) -> Option<String> {
    crate::explain::explain(Some(name))
        .or_else(|_| crate::explain::explain(name.split('-').next()))
        .ok()
}

/// Each row's summary and explain text, read from its run folder under `dir`.
pub(crate) fn details(dir: &Path, cmp: &Comparison) -> Vec<RunDetail> {
    cmp.rows
        .iter()
        .map(|r| {
            let name = r.strategy.name().to_string();
            let summary = fs::read_to_string(dir.join(&name).join("summary.json"))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            RunDetail {
                explain: explain_of(&name),
                name,
                summary,
            }
        })
        .collect()
}

/// Rebuilds the one-page HTML report of a compare folder (or of one run's folder) from
/// the files in it.
pub fn report_from_dir(dir: &Path) -> Result<String, Error> {
    // A folder that is not there is the user's to fix (exit 2), not a failure.
    if let Err(source) = fs::metadata(dir) {
        return Err(Error::InputDir {
            path: dir.to_path_buf(),
            source,
        });
    }
    let compare_json = dir.join("compare.json");
    let cmp: Comparison = if compare_json.exists() {
        let text = fs::read_to_string(&compare_json).map_err(|source| Error::Input {
            path: compare_json.clone(),
            source,
        })?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Report(format!("{}: {e}", compare_json.display())))?
    } else if dir.join("summary.json").exists() {
        return report_from_run_dir(dir);
    } else {
        // A compare stopped before its table (killed, timed out): the rows whose runs
        // finished are rebuilt from their folders.
        rebuild_from_runs(dir)?
    };
    let series: Vec<Series> = cmp
        .rows
        .iter()
        .filter_map(|r| Series::from_run_dir(r.strategy.name(), &dir.join(r.strategy.name())))
        .collect();
    Ok(report_html(
        Page::Compare,
        &cmp,
        &series,
        &details(dir, &cmp),
    ))
}

fn unreachable_report(dir: &Path) -> Result<String, Error> {
    Err(Error::NotARunFolder {
        path: dir.to_path_buf(),
    })
}

/// The rows of a compare folder without its compare.json, from each row's folder
/// (`<row>/summary.json`, `<row>.toml` for the prediction); rows without a summary are
/// "not run". Also writes the rebuilt compare.json and compare.md, so later tools and
/// readers find them.
pub fn rebuild_from_runs(dir: &Path) -> Result<Comparison, Error> {
    let mut rows = Vec::new();
    let mut device = None;
    let mut budget = None;
    let mut simulated = false;
    for v in Variant::ALL {
        let name = v.name();
        let Ok(text) = fs::read_to_string(dir.join(name).join("summary.json")) else {
            if dir.join(format!("{name}.toml")).exists() {
                rows.push(Row::empty(*v, name, RowStatus::NotRun));
            }
            continue;
        };
        let s: RunSummary = serde_json::from_str(&text)
            .map_err(|e| Error::Report(format!("{name}/summary.json: {e}")))?;
        let this_simulated = s.simulated_oom();
        simulated |= this_simulated;
        let mut row = Row::from_summary(*v, name, &s);
        let cfg = crate::config::load(
            &crate::config::ConfigSource::File(dir.join(format!("{name}.toml"))),
            &[],
        );
        if let Ok((_, cfg)) = cfg {
            row.predicted_peak_bytes =
                predicted(&row, &cfg, s.vocab, s.memory.device_total, this_simulated);
        }
        device = device.or(Some(s.device.label.clone()));
        budget = budget.or(s.memory.budget);
        rows.push(row);
    }
    if rows.is_empty() {
        unreachable_report(dir)?;
    }
    let mut cmp = Comparison::new(
        device.unwrap_or_else(|| "unknown device".into()),
        vec![format!(
            "(rebuilt from the run folders in {})",
            dir.display()
        )],
        simulated,
        rows,
    );
    cmp.budget = budget;
    eprintln!(
        "oomlab report: {} has no compare.json (the compare was stopped before its table): rebuilt it and compare.md from the {} run folders{}",
        dir.display(),
        cmp.rows.len(),
        if budget.is_some() {
            ""
        } else {
            "; no run's summary records a budget (none was set, or an older oomlab wrote them), so none is drawn"
        }
    );
    let json = serde_json::to_string_pretty(&cmp).map_err(|e| Error::Report(e.to_string()))?;
    for (file, text) in [
        ("compare.json", json + "\n"),
        ("compare.md", cmp.to_markdown() + "\n"),
    ] {
        fs::write(dir.join(file), text).map_err(|source| Error::RunDir {
            path: dir.join(file),
            source,
        })?;
    }
    Ok(cmp)
}

/// The report of one `oomlab train` run folder.
fn report_from_run_dir(dir: &Path) -> Result<String, Error> {
    let read =
        |p: PathBuf| fs::read_to_string(&p).map_err(|source| Error::Input { path: p, source });
    let summary_json = dir.join("summary.json");
    let text = read(summary_json.clone())?;
    let s: RunSummary = serde_json::from_str(&text)
        .map_err(|e| Error::Report(format!("{}: {e}", summary_json.display())))?;
    // A compare row's folder is named by its row (amp-bf16, pool-growth); a train run's
    // summary names only its strategy (half, baseline).
    let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let (v, name) = match Variant::from_name(folder) {
        Some(v) => (v, folder.to_string()),
        None => {
            let name = s.strategy.name().to_string();
            (Variant::from_name(&name).unwrap_or(Variant::BASELINE), name)
        }
    };
    let simulated = s.simulated_oom();
    let mut cmp = Comparison::new(
        s.device.label.clone(),
        vec![],
        simulated,
        vec![Row::from_summary(v, &name, &s)],
    );
    cmp.budget = s.memory.budget;
    let series: Vec<Series> = Series::from_run_dir(&name, dir).into_iter().collect();
    let detail = RunDetail {
        explain: explain_of(&name),
        summary: serde_json::from_str(&text).ok(),
        name,
    };
    Ok(report_html(Page::Run, &cmp, &series, &[detail]))
}
