//! `oomlab lesson` on the CPU: the baseline runs out of memory under the SIMULATED budget,
//! the four techniques finish, and the narration and the table say so.

use serde_json::Value;

use crate::util::oomlab;

#[test]
fn the_lesson_shows_the_baseline_die_and_every_technique_fit() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args(["lesson", "--yes", "--device", "cpu", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The lesson's text names no internals.
    let found = oomlab::text::internals(&text);
    assert!(found.is_empty(), "{found:?}");
    assert!(
        text.contains("Stage 1/5") && text.contains("Stage 5/5") && text.contains("Stage 6/6"),
        "{text}"
    );
    assert!(text.contains("OUT OF MEMORY (SIMULATED)"), "{text}");
    assert!(text.contains("oomlab estimate predicts"), "{text}");
    // Every stage of both parts draws one step by category; the failed ones only as
    // predicted.
    assert_eq!(
        text.matches("One step's memory by category").count(),
        11,
        "{text}"
    );
    assert!(
        text.contains("did not complete, so nothing was measured"),
        "{text}"
    );
    // The texts after each stage are the runs' numbers: mixed precision's activations as
    // its summary has them (heap after forward, less the known categories and what the
    // heap held at the step's start), against the baseline's predicted ones.
    let amp: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("amp-bf16").join("summary.json")).unwrap(),
    )
    .unwrap();
    let points = amp["anatomy"]["measured"].as_array().unwrap();
    let rest = |name: &str| {
        let p = points.iter().find(|p| p["at"] == name).unwrap();
        let known: u64 = p["known"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["bytes"].as_u64().unwrap())
            .sum();
        p["in_use"].as_u64().unwrap() - known
    };
    let activations = (rest("forward") - rest("start")) as f64 / (1u64 << 20) as f64;
    let said =
        format!("The activations after the forward pass (measured) were {activations:.1} MiB");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&said), "{said} not in: {flat}");
    assert!(!flat.contains("precision halves"), "{flat}");
    assert!(!text.contains("Your guess"), "--yes asks nothing: {text}");
    let cmp: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("compare.json")).unwrap())
            .unwrap();
    assert_eq!(cmp["simulated"], true);
    let rows = cmp["rows"].as_array().unwrap();
    let status: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["strategy"].as_str().unwrap_or(""),
                r["status"]["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        status,
        [
            ("baseline", "out-of-memory"),
            ("amp-bf16", "completed"),
            ("grad-accum", "completed"),
            ("checkpointing", "completed"),
            ("auto-halve", "completed"),
        ]
    );
    // auto-halve got there through a (SIMULATED) OOM, and says so in its row.
    assert!(rows[4]["oom_retries"].as_u64().unwrap_or(0) >= 1);
    // Part 2: the big model's fixed state does not fit; only what shrinks it does.
    let big: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("big-model").join("compare.json")).unwrap(),
    )
    .unwrap();
    let status: Vec<(&str, &str)> = big["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["strategy"].as_str().unwrap_or(""),
                r["status"]["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        status,
        [
            ("baseline", "out-of-memory"),
            ("amp-bf16", "out-of-memory"),
            ("grad-accum", "out-of-memory"),
            ("checkpointing", "out-of-memory"),
            ("half-bf16", "completed"),
            ("sgd", "completed"),
        ]
    );
    assert!(flat.contains("It fits (peak"), "{flat}");
    assert!(
        flat.contains("With several devices (predicted by oomlab estimate, not run"),
        "{flat}"
    );
}

#[test]
fn the_exercises_commands_run_and_their_answers_are_the_estimates() {
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args(["lesson", "--exercises", "--device", "cpu"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(text.matches("\n## ").count(), 6, "{text}");
    let (questions, answers) = text.split_once("# Answer key").expect("an answer key");
    let commands: Vec<&str> = questions
        .lines()
        .filter_map(|l| l.strip_prefix("Then run: `")?.strip_suffix('`'))
        .collect();
    assert_eq!(commands.len(), 6, "{questions}");
    let flat = answers.split_whitespace().collect::<Vec<_>>().join(" ");
    for cmd in commands.iter().filter(|c| c.starts_with("oomlab train")) {
        let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        let dir = tempfile::tempdir().unwrap();
        // Each measuring command runs as printed, and fits as its answer predicts.
        let run = oomlab()
            .env("CUDA_VISIBLE_DEVICES", "")
            .args(&args)
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{cmd}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        // The answer's predicted peak is what `oomlab estimate` says for the same flags.
        if cmd.contains("--batch 48") {
            let mut est = vec!["estimate", "--json"];
            est.extend(args.iter().skip(1).copied());
            let e = oomlab().args(&est).output().unwrap();
            let v: Value = serde_json::from_slice(&e.stdout).unwrap();
            let peak = v["rows"][0]["estimate"]["peak"].as_u64().unwrap();
            let said = format!(
                "predicted peak {:.1} MiB",
                peak as f64 / (1u64 << 20) as f64
            );
            assert!(flat.contains(&said), "{said} not in {flat}");
        }
    }
}

#[test]
fn without_a_terminal_the_lesson_asks_nothing() {
    // Piped input is not a learner at a terminal: no questions, as with --yes, so a
    // script without the flag cannot hang.
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .env("CUDA_VISIBLE_DEVICES", "")
        .args([
            "lesson",
            "--device",
            "cpu",
            "--part",
            "1",
            "--max-steps",
            "4",
            "--out",
        ])
        .arg(dir.path())
        .write_stdin("y\nn\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Your guess"));
}
