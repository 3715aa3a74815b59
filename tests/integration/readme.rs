//! The README's verbatim output of the main command against what the program prints now
//! (regenerate it with scripts/readme-output.sh).

use crate::util::oomlab;

/// The first column of every table row: the labels a reader sees, in order.
fn row_labels(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix('│'))
        .filter_map(|l| l.split('┆').next())
        .map(|label| label.trim().to_string())
        .collect()
}

#[test]
fn the_readme_shows_every_row_the_main_command_prints() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("<!-- main-output:start -->").unwrap();
    let end = readme.find("<!-- main-output:end -->").unwrap();
    let shown = row_labels(&readme[start..end]);
    let dir = tempfile::tempdir().unwrap();
    // As the README's first command runs it, on a machine without a GPU.
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args(["train", "--strategy", "grad-accum", "--steps", "4", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = row_labels(&String::from_utf8_lossy(&out.stdout));
    assert!(printed.len() > 10, "{printed:?}");
    assert_eq!(
        shown, printed,
        "README.md's main command output is out of date: run scripts/readme-output.sh"
    );
}

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

#[test]
fn the_first_screens_demo_shows_what_its_command_prints() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
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
            ["status", "OOM (SIMULATED)", "completed", "completed"],
            "RAYON_NUM_THREADS={threads}: {printed:?}"
        );
        assert_eq!(
            shown, printed,
            "RAYON_NUM_THREADS={threads}: README.md's demo output is out of date: run scripts/readme-output.sh"
        );
    }
}
