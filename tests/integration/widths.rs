//! Every command's output fits the width it is laid out for: 80, 100 and 120 columns
//! (COLUMNS, as a shell exports it; output piped), counted in characters. stdout and
//! stderr both. `oomlab gpu` needs a GPU: its layout is checked by a unit test of the
//! view with a made-up card and holders.

use crate::util::oomlab;

/// `oomlab ARGS` at `columns` on the CPU, in a scratch folder: its stdout and stderr.
fn run(columns: usize, args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .current_dir(dir.path())
        .env("COLUMNS", columns.to_string())
        .env("CUDA_VISIBLE_DEVICES", "")
        .env("OOMLAB_NVML_LIB", "/nonexistent/libnvidia-ml.so.1")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Fits `columns`, and holds no internals (commit hashes, issue numbers, source paths,
/// Rust types): every output a user reads.
fn assert_fits(columns: usize, args: &[&str], (stdout, stderr): &(String, String)) {
    for text in [stdout, stderr] {
        let found = oomlab::text::internals(text);
        assert!(found.is_empty(), "oomlab {}: {found:?}", args.join(" "));
    }
    for line in stdout.lines().chain(stderr.lines()) {
        assert!(
            line.chars().count() <= columns,
            "oomlab {} at {columns} columns: a line of {}:\n{line}\n\n{stdout}\n{stderr}",
            args.join(" "),
            line.chars().count()
        );
    }
}

const DIAGNOSE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/oom-messages/real/034-pytorch21-capacty-fragmentation.txt"
);

#[test]
fn train_diagnose_estimate_and_explain_fit_80_100_and_120_columns() {
    let cases: [&[&str]; 6] = [
        &[
            "train",
            "--strategy",
            "grad-accum",
            "--steps",
            "4",
            "--max-steps",
            "4",
        ],
        &["diagnose", DIAGNOSE],
        &[
            "estimate",
            "--model",
            "llama-3.2-1b",
            "--seq",
            "2048",
            "--card",
            "24GB",
        ],
        &["estimate", "--config", "gpu", "--card", "24GB"],
        &["explain", "amp"],
        &["explain"],
    ];
    for columns in [80, 100, 120] {
        for args in cases {
            let out = run(columns, args);
            assert!(!out.0.is_empty(), "oomlab {}: {}", args.join(" "), out.1);
            assert_fits(columns, args, &out);
        }
    }
}

#[test]
fn compare_and_the_lesson_fit_80_100_and_120_columns() {
    for columns in [80, 100, 120] {
        let args: &[&str] = &[
            "compare",
            "--memory-budget",
            "21MiB",
            "--strategies",
            "baseline,grad-accum,auto-halve",
            "--max-steps",
            "4",
        ];
        assert_fits(columns, args, &run(columns, args));
        let brief = [args, &["--brief"]].concat();
        assert_fits(columns, &brief, &run(columns, &brief));
    }
    // Every row at 100 columns, as a piped terminal gets it.
    let all: &[&str] = &["compare", "--strategies", "all", "--max-steps", "2"];
    assert_fits(100, all, &run(100, all));
    // The lesson, both parts, short.
    for columns in [80, 100] {
        let lesson: &[&str] = &["lesson", "--yes", "--device", "cpu", "--max-steps", "2"];
        assert_fits(columns, lesson, &run(columns, lesson));
    }
}

#[test]
fn wide_leaves_tables_at_their_full_width() {
    let args: &[&str] = &["--wide", "explain", "amp"];
    let (wide, _) = run(80, args);
    assert!(wide.lines().any(|l| l.chars().count() > 80), "{wide}");
}
