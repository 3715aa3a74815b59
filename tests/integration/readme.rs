//! The README and the guides against what the program prints and what the committed
//! result files hold: the first screen's demo, the table of today's figures, the results
//! index, the README's length, and no internals in any text a user reads.

use crate::util::oomlab;

/// The cells of a table row: strategy, split and the last column (status).
fn row_cells(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix('│'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_end_matches('│').split('┆').map(str::trim).collect();
            let get = |i: usize| cells.get(i).copied().unwrap_or("").to_string();
            (
                get(0),
                get(1),
                cells.last().copied().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn the_first_screens_demo_shows_what_its_command_prints() {
    let readme = readme();
    // The command exactly as the first screen gives it.
    let command = readme
        .lines()
        .find(|l| l.starts_with("cargo run --release -- compare "))
        .expect("the first screen's demo command");
    let args: Vec<&str> = command
        .trim_start_matches("cargo run --release -- ")
        .split_whitespace()
        .collect();
    let start = readme.find("<!-- demo-output:start -->").unwrap();
    let end = readme.find("<!-- demo-output:end -->").unwrap();
    let shown = row_cells(&readme[start..end]);
    // The same outcome whatever the machine's thread count: a budgeted run fixes its
    // compute threads (the matrix library's per-thread buffer is part of the heap).
    for threads in ["16", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let out = oomlab()
            .env("CUDA_VISIBLE_DEVICES", "")
            .env("RAYON_NUM_THREADS", threads)
            .args(&args)
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        let printed = row_cells(&String::from_utf8_lossy(&out.stdout));
        // The baseline dies of the (simulated) OOM, the other two finish.
        let status: Vec<&str> = printed.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(
            status,
            ["status", "OOM (SIMULATED) [1]", "completed", "completed"],
            "RAYON_NUM_THREADS={threads}: {printed:?}"
        );
        assert_eq!(
            shown, printed,
            "RAYON_NUM_THREADS={threads}: README.md's demo output is out of date: run scripts/readme-output.sh"
        );
    }
}

/// `python3 SCRIPT --check` from the repository root, which must pass.
fn check(script: &str) {
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg("--check")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script} --check:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_readmes_figures_are_the_ones_their_files_hold() {
    check("scripts/readme-figures.py");
    check("scripts/offload-table.py");
}

#[test]
fn the_results_index_is_the_one_its_topics_make() {
    check("scripts/results-index.py");
}

#[test]
fn the_readme_is_a_manual_not_a_notebook() {
    let readme = readme();
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines: at most 250");
    let found = oomlab::text::internals(&readme);
    assert!(found.is_empty(), "README.md: {found:?}");
}

#[test]
fn no_guide_page_holds_internals() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide");
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).unwrap();
            let found = oomlab::text::internals(&text);
            assert!(found.is_empty(), "{}: {found:?}", path.display());
            pages += 1;
        }
    }
    assert!(pages >= 10, "{pages} guide pages");
}

#[test]
fn no_help_text_holds_internals() {
    let commands = [
        "", "train", "compare", "explain", "estimate", "lesson", "diagnose", "report", "warm-up",
        "dataset", "gpu", "configs",
    ];
    for command in commands {
        for flag in ["--help", "-h"] {
            let mut c = oomlab();
            if !command.is_empty() {
                c.arg(command);
            }
            let out = c.arg(flag).output().unwrap();
            assert!(out.status.success(), "{command} {flag}");
            let text = String::from_utf8_lossy(&out.stdout);
            let found = oomlab::text::internals(&text);
            assert!(found.is_empty(), "oomlab {command} {flag}: {found:?}");
        }
    }
}
