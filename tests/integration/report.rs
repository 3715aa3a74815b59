//! The one-page HTML report, opened in a real headless browser (Chromium): it renders,
//! its chart has one series per row, and the page logs nothing to the console.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{assert_exit, oomlab};

/// Chromium: $OOMLAB_CHROMIUM, else chromium, chromium-browser or google-chrome on the
/// PATH. Tests install nothing: without one the browser checks are skipped, saying so
/// (README: how to get it; .ci/run installs it first).
fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("OOMLAB_CHROMIUM") {
        return Some(p.into());
    }
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|b| {
            Command::new("sh")
                .args(["-c", &format!("command -v {b}")])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(PathBuf::from);
    if found.is_none() {
        eprintln!(
            "SKIPPED: the HTML report's browser check needs Chromium (chromium, chromium-browser or google-chrome on the PATH, or OOMLAB_CHROMIUM=/path); Debian/Ubuntu: apt-get install chromium"
        );
    }
    found
}

/// Loads `page` headless: the DOM after its scripts ran, and the console lines.
fn open(page: &Path) -> Option<(String, Vec<String>)> {
    let out = Command::new(chromium()?)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
        ])
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    Some((String::from_utf8_lossy(&out.stdout).into_owned(), console))
}

#[test]
fn the_report_renders_in_a_browser_with_one_series_per_row_and_no_console_errors() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args([
            "compare",
            "--device",
            "cpu",
            "--strategies",
            "baseline,grad-accum,auto-halve",
            "--memory-budget",
            "21MiB",
            "--max-steps",
            "4",
            "--quiet",
            "--out",
        ])
        .arg(dir.path().join("cmp"))
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<title>oomlab compare: "),
        "a comparison's page"
    );
    assert!(page.contains("The dashed line is the budget."));
    let Some((dom, console)) = open(&html) else {
        return;
    };
    assert!(
        dom.contains("data-ready=\"1\""),
        "the page's script did not run"
    );
    assert!(dom.contains("data-series=\"3\""), "one series per row");
    assert!(dom.contains("SIMULATED"));
    assert!(console.is_empty(), "console: {console:?}");
    // `oomlab report` rebuilds the same page from the folder.
    let again = dir.path().join("again.html");
    oomlab()
        .args(["report"])
        .arg(dir.path().join("cmp"))
        .arg("--out")
        .arg(&again)
        .assert()
        .success();
    let Some((dom, console)) = open(&again) else {
        return;
    };
    assert!(dom.contains("data-series=\"3\"") && console.is_empty());
}

#[test]
fn the_console_check_sees_a_script_error() {
    // The check above can fail: a page with an error is caught.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        "<html><body><script>notAFunction();</script></body></html>",
    )
    .unwrap();
    let Some((_, console)) = open(&page) else {
        return;
    };
    assert_eq!(console.len(), 1, "{console:?}");
}

#[test]
fn report_on_a_folder_without_results_says_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab().arg("report").arg(dir.path()).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("compare.json"));
}

#[test]
fn a_compare_stopped_before_its_table_is_rebuilt_from_its_run_folders() {
    let dir = tempfile::tempdir().unwrap();
    let cmp = dir.path().join("cmp");
    oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args([
            "compare",
            "--device",
            "cpu",
            "--strategies",
            "baseline,grad-accum",
            "--memory-budget",
            "512MiB",
            "--max-steps",
            "3",
            "--quiet",
            "--out",
        ])
        .arg(&cmp)
        .assert()
        .success();
    // As if the comparison had been killed before it wrote its table.
    for f in ["compare.json", "compare.md", "report.html"] {
        std::fs::remove_file(cmp.join(f)).unwrap();
    }
    oomlab()
        .arg("report")
        .arg(&cmp)
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "no compare.json (the compare was stopped before its table): rebuilt it and compare.md from the 2 run folders",
        ));
    let rebuilt: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cmp.join("compare.json")).unwrap()).unwrap();
    let rows = rebuilt["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["strategy"], "grad-accum");
    assert!(rows[1]["predicted_peak_bytes"].as_u64().is_some());
    assert!(cmp.join("report.html").exists() && cmp.join("compare.md").exists());
    // The budget comes back from the runs' summaries, not from arguments the rebuilt
    // table no longer has, and is drawn.
    assert_eq!(rebuilt["budget"].as_u64(), Some(512 << 20));
    let page = std::fs::read_to_string(cmp.join("report.html")).unwrap();
    assert!(page.contains("The dashed line is the budget."));
    // One row's folder alone draws it too.
    let html = dir.path().join("row.html");
    oomlab()
        .arg("report")
        .arg(cmp.join("baseline"))
        .arg("--out")
        .arg(&html)
        .assert()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<title>oomlab run: baseline on "));
    assert!(page.contains("The dashed line is the budget."));
}

#[test]
fn one_run_folder_gets_a_run_page_not_a_comparison_page() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    crate::util::train_json(&run, &["--max-steps", "3"]);
    let html = dir.path().join("run.html");
    oomlab()
        .arg("report")
        .arg(&run)
        .arg("--out")
        .arg(&html)
        .assert()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<title>oomlab run: baseline on "), "{page}");
    assert!(page.contains("One <code>oomlab train</code> run"));
    // No row shares arguments with another, and no budget was set: neither is claimed.
    assert!(!page.contains("Arguments shared by every row"));
    assert!(!page.contains("dashed line"));
}
