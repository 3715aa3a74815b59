//! `oomlab diagnose` on the committed corpus (tests/data/oom-messages): the real H200
//! errors and the labelled shapes of other libraries' messages.

use std::path::PathBuf;

use serde_json::Value;

use crate::util::oomlab;

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/oom-messages")
        .join(name)
}

/// `oomlab diagnose FILE --json`: the report and the exit code.
fn diagnose(file: &str) -> (Value, i32) {
    let out = oomlab()
        .args(["diagnose", "--json"])
        .arg(corpus(file))
        .output()
        .expect("oomlab runs");
    let report = serde_json::from_slice(&out.stdout).expect("diagnose --json prints JSON");
    (report, out.status.code().unwrap_or(-1))
}

fn case(report: &Value) -> &str {
    report["diagnosis"]["verdict"]["case"]
        .as_str()
        .unwrap_or("")
}

#[test]
fn a_card_filled_by_this_process_is_a_shortage_with_the_missing_bytes() {
    let (r, code) = diagnose("h200-shortage-filled.txt");
    assert_eq!(code, 0);
    assert_eq!(case(&r), "shortage");
    // 2.00 GiB asked, 1.29 GiB free, nothing free in the cache.
    let short = r["diagnosis"]["verdict"]["short_by"]
        .as_u64()
        .expect("short_by");
    let gib = (1u64 << 30) as f64;
    assert!((short as f64 / gib - 0.71).abs() < 0.01, "{short}");
    // The advice carries measured savings, each from a committed file.
    let savings = r["savings"].as_array().expect("savings");
    assert!(!savings.is_empty());
    assert!(savings.iter().all(|s| s["measured"]
        .as_str()
        .unwrap_or("")
        .contains("docs/results/")));
}

#[test]
fn one_tensor_beyond_the_card_is_said_to_be_larger_than_the_card() {
    let (r, _) = diagnose("h200-shortage-one-tensor.txt");
    assert_eq!(case(&r), "larger-than-card");
}

#[test]
fn free_bytes_in_pieces_under_a_cap_are_fragmentation_with_the_cap_noted() {
    let (r, code) = diagnose("h200-fragmentation.txt");
    assert_eq!(code, 0);
    assert_eq!(case(&r), "fragmentation");
    assert_eq!(r["facts"]["allowed"].as_u64(), Some(4 << 30));
    // memory_summary's non-releasable memory is read too (2074 MiB).
    assert_eq!(r["facts"]["non_releasable"].as_u64(), Some(2074 << 20));
    let asides = r["diagnosis"]["asides"].as_array().expect("asides");
    assert!(asides.iter().any(|a| a["note"] == "capped"), "{asides:?}");
}

#[test]
fn another_process_is_named_with_its_name_from_the_nvidia_smi_table() {
    let text = [
        "h200-other-process.txt",
        "h200-other-process.nvidia-smi.txt",
    ]
    .map(|f| std::fs::read_to_string(corpus(f)).expect("corpus file"))
    .join("\n");
    let out = oomlab()
        .args(["diagnose", "--json"])
        .write_stdin(text)
        .output()
        .expect("oomlab runs");
    assert_eq!(out.status.code(), Some(0));
    let r: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(case(&r), "other-processes");
    let named = &r["diagnosis"]["verdict"]["named"][0];
    assert_eq!(named["pid"], 707);
    assert!(named["name"].as_str().unwrap_or("").contains("python3"));
}

#[test]
fn a_context_that_cannot_be_created_is_outside_the_allocator() {
    let (r, _) = diagnose("h200-context.txt");
    assert_eq!(case(&r), "outside-allocator");
    let (r, _) = diagnose("shape-cublas.txt");
    assert_eq!(case(&r), "outside-allocator");
}

#[test]
fn the_other_formats_are_read() {
    let (r, _) = diagnose("shape-pytorch-legacy.txt");
    assert_eq!(r["facts"]["source"], "pytorch-legacy");
    // 14.60 GiB reserved, 14.20 GiB allocated: 0.40 GiB free in the cache for 64 MiB,
    // but 2.5% of the 15.78 GiB card: a shortage, with what defragmenting would recover.
    assert_eq!(case(&r), "shortage");
    let asides = r["diagnosis"]["asides"].as_array().expect("asides");
    assert!(
        asides.iter().any(|a| a["note"] == "small-cache"),
        "{asides:?}"
    );
    let (r, _) = diagnose("shape-tensorflow.txt");
    assert_eq!(case(&r), "too-few-figures");
    // shape[64,16,1024,1024] of float: 4 GiB.
    assert_eq!(r["facts"]["requested"].as_u64(), Some(4 << 30));
    let (r, _) = diagnose("shape-xla.txt");
    assert_eq!(r["facts"]["requested"].as_u64(), Some(17_179_869_184));
    let (r, _) = diagnose("shape-cubecl.txt");
    assert_eq!(case(&r), "cubecl");
    assert_eq!(r["facts"]["requested"].as_u64(), Some(37_527_470_080));
}

#[test]
fn text_without_an_oom_cannot_be_classified_and_exits_1() {
    for f in ["shape-not-an-oom.txt", "h200-fragmentation-expandable.txt"] {
        let (r, code) = diagnose(f);
        assert_eq!(case(&r), "unknown", "{f}");
        assert_eq!(code, 1, "{f}");
    }
}

#[test]
fn the_terminal_report_names_the_case_and_what_to_do() {
    let out = oomlab()
        .arg("diagnose")
        .arg(corpus("h200-fragmentation.txt"))
        .output()
        .expect("oomlab runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Case: fragmentation"), "{text}");
    assert!(text.contains("expandable_segments:True"), "{text}");
    assert!(text.contains("What to do:"), "{text}");
}

#[test]
fn a_missing_file_is_a_usage_error_naming_it() {
    let out = oomlab()
        .args(["diagnose", "/nonexistent/oom.txt"])
        .output()
        .expect("oomlab runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/oom.txt"));
}

/// One message of the corpus of real ones (tests/data/oom-messages/real/sources.toml).
#[derive(serde::Deserialize)]
struct RealMessage {
    file: String,
    source: String,
    case: String,
    arithmetic: String,
}

#[derive(serde::Deserialize)]
struct RealCorpus {
    message: Vec<RealMessage>,
}

fn real_corpus() -> RealCorpus {
    let text = std::fs::read_to_string(corpus("real/sources.toml")).expect("sources.toml");
    toml::from_str(&text).expect("sources.toml parses")
}

#[test]
fn every_real_message_is_named_the_case_its_own_figures_show() {
    let corpus = real_corpus();
    assert!(corpus.message.len() >= 40, "{}", corpus.message.len());
    let mut wrong = Vec::new();
    for m in &corpus.message {
        assert!(
            m.source.starts_with("https://") && !m.arithmetic.is_empty(),
            "{}: a source and the arithmetic",
            m.file
        );
        let text = std::fs::read_to_string(corpus_path_real(&m.file)).expect("message file");
        let report = oomlab::diagnose::DiagnoseReport::new(&text, None, None);
        let got = serde_json::to_value(&report.diagnosis.verdict).unwrap();
        let got = got["case"].as_str().unwrap_or("").to_string();
        if got != m.case {
            wrong.push(format!("{}: expected {}, got {got}", m.file, m.case));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        corpus.message.len(),
        wrong.join("\n")
    );
}

fn corpus_path_real(file: &str) -> PathBuf {
    corpus("real").join(file)
}

#[test]
fn no_advice_names_a_flag_the_cli_rejects() {
    // Every `--flag value` pair in the savings' oomlab column must parse as train flags.
    for s in oomlab::diagnose::measured_savings() {
        let mut args = vec!["oomlab", "train"];
        args.extend(s.oomlab.split_whitespace());
        assert!(
            <oomlab::cli::Cli as clap::Parser>::try_parse_from(&args).is_ok(),
            "{}",
            s.oomlab
        );
    }
}

#[test]
fn the_text_shows_the_arithmetic_behind_the_verdict() {
    let out = oomlab()
        .args(["diagnose"])
        .arg(corpus_path_real(
            &real_corpus()
                .message
                .iter()
                .find(|m| m.case == "other-processes")
                .expect("one")
                .file,
        ))
        .output()
        .expect("oomlab runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("From the message's own figures") && text.contains(" total - "),
        "{text}"
    );
}

#[test]
fn params_weigh_the_fixed_state_against_the_card() {
    let out = oomlab()
        .args(["diagnose", "--json", "--params", "1.1B"])
        .arg(corpus("h200-shortage-filled.txt"))
        .output()
        .expect("oomlab runs");
    let r: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(r["fixed_state"]["params"], 1_100_000_000u64);
    assert_eq!(r["fixed_state"]["total"], 17_600_000_000u64);
    let bad = oomlab()
        .args(["diagnose", "--params", "-5"])
        .arg(corpus("h200-shortage-filled.txt"))
        .output()
        .expect("oomlab runs");
    assert_eq!(bad.status.code(), Some(2));
}
