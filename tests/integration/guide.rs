//! docs/guide/'s examples against what the program prints now: each page's
//! `<!-- example:NAME -->` block is `$ oomlab ARGS` and its output, as
//! scripts/guide-examples.sh made it. A command that prints the same text every time
//! (explain, estimate, diagnose) must print exactly the block; one with timings (train,
//! compare, lesson, report, warm-up) the same table rows; `oomlab gpu`'s block is the
//! rows of a committed GPU run's output as `oomlab gpu` lays them out at 100 columns now. No block has a line over 100 characters.

use std::path::Path;

use crate::util::oomlab;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One example: its page, name, arguments and the output shown.
struct Example {
    page: String,
    name: String,
    args: Vec<String>,
    shown: String,
}

/// Every example block of every guide page, in page order.
fn examples() -> Vec<Example> {
    let mut pages: Vec<_> = std::fs::read_dir(Path::new(ROOT).join("docs/guide"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut out = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("<!-- example:") {
            let after = &rest[i + "<!-- example:".len()..];
            let name = after.split(':').next().unwrap().to_string();
            let end_marker = format!("<!-- example:{name}:end -->");
            let body_start = after.find("-->").unwrap() + 3;
            let end = after.find(&end_marker).unwrap();
            let body = &after[body_start..end];
            // The fenced text: the command line(s), then the output.
            let fenced: Vec<&str> = body
                .lines()
                .skip_while(|l| !l.starts_with("```"))
                .skip(1)
                .take_while(|l| !l.starts_with("```"))
                .collect();
            let mut command = String::new();
            let mut lines = fenced.iter();
            for l in lines.by_ref() {
                let l = l.trim_start_matches("$ oomlab ").trim();
                command.push_str(l.trim_end_matches('\\'));
                command.push(' ');
                if !l.ends_with('\\') {
                    break;
                }
            }
            let shown: Vec<&str> = lines.copied().collect();
            out.push(Example {
                page: page.file_name().unwrap().to_string_lossy().into_owned(),
                name,
                args: command.split_whitespace().map(String::from).collect(),
                shown: shown.join("\n"),
            });
            rest = &after[end + end_marker.len()..];
        }
    }
    out
}

/// The first column of every table row: the labels a reader sees, in order.
fn row_labels(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix('│'))
        .filter_map(|l| l.split('┆').next())
        .map(|label| label.trim().to_string())
        .filter(|label| !label.is_empty())
        .collect()
}

/// The devices and holders of a committed `oomlab gpu` output: its two tables' rows (the
/// sizes as printed, to the hundredth of a GiB; each holder alive, as that output said).
fn snapshot_from(text: &str) -> oomlab::holders::GpuSnapshot {
    use oomlab::units::Bytes;
    let gib =
        |s: &str| Bytes((s.trim_end_matches(" GiB").parse::<f64>().unwrap() * 1073741824.0) as u64);
    let mut snapshot = oomlab::holders::GpuSnapshot {
        devices: Vec::new(),
        holders: Vec::new(),
        notes: Vec::new(),
        inheritors: Vec::new(),
        unmatched_pid_namespace: None,
    };
    for line in text.lines().filter_map(|l| l.strip_prefix('│')) {
        let cells: Vec<&str> = line
            .trim_end_matches('│')
            .split('┆')
            .map(str::trim)
            .collect();
        match cells.as_slice() {
            [gpu, name, used, free, total]
                if gpu.parse::<u32>().is_ok() && name.parse::<u32>().is_err() =>
            {
                snapshot.devices.push(oomlab::probe::NvmlDevice {
                    index: gpu.parse().unwrap(),
                    name: name.to_string(),
                    used: gib(used),
                    free: gib(free),
                    total: gib(total),
                })
            }
            [gpu, pid, vram, status, command] if pid.parse::<u32>().is_ok() => {
                assert_eq!(*status, "alive", "{line}");
                snapshot.holders.push(oomlab::holders::HolderRow {
                    device: gpu.parse().unwrap(),
                    pid: pid.parse().unwrap(),
                    used: Some(gib(vram)),
                    proc: oomlab::holders::ProcState::Alive {
                        command: command.to_string(),
                        ppid: 1,
                    },
                    stale: false,
                    advice: None,
                })
            }
            _ => {}
        }
    }
    assert!(
        !snapshot.devices.is_empty() && !snapshot.holders.is_empty(),
        "{text}"
    );
    snapshot
}

/// scripts/guide-examples.sh's `example_input NAME PAGE FILE AS` lines: the files an
/// example reads, and the names it reads them by.
fn inputs() -> Vec<(String, String)> {
    std::fs::read_to_string(Path::new(ROOT).join("scripts/guide-examples.sh"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("example_input "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[2].to_string(), f[3].to_string())
        })
        .collect()
}

#[test]
fn every_example_is_what_the_program_prints_and_fits_100_columns() {
    let all = examples();
    assert!(all.len() >= 10, "{} examples", all.len());
    let work = tempfile::tempdir().unwrap();
    for (file, name) in inputs() {
        std::fs::copy(Path::new(ROOT).join(&file), work.path().join(name)).unwrap();
    }
    for e in &all {
        let command = e.args.first().map(String::as_str).unwrap_or("");
        if command == "gpu" {
            // A GPU's rows, committed with the run that made them, laid out as `oomlab
            // gpu` lays them out at 100 columns now.
            let script =
                std::fs::read_to_string(Path::new(ROOT).join("scripts/guide-examples.sh")).unwrap();
            let file = script
                .lines()
                .find_map(|l| l.strip_prefix(&format!("# example_gpu {} ", e.name)))
                .and_then(|l| l.split_whitespace().next())
                .expect("the committed file of the gpu example");
            let committed = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
            let expected = oomlab::holders::render_gpu_view_at(
                &snapshot_from(&committed),
                oomlab::text::Width::Columns(100),
            );
            assert_eq!(
                e.shown.trim_end(),
                expected.trim_end(),
                "{}: the block should be\n{expected}",
                e.name
            );
            assert!(
                expected.lines().all(|l| l.chars().count() <= 100),
                "{expected}"
            );
            continue;
        }
        for line in e.shown.lines() {
            assert!(
                line.chars().count() <= 100,
                "{} {}: a line of {} characters: {line}",
                e.page,
                e.name,
                line.chars().count()
            );
        }
        if command == "report" || command == "run" {
            // report reads the compare example's folder, which only that run made; run's
            // report names PIDs and times of that run: both commands are checked by
            // their own tests.
            continue;
        }
        let out = oomlab()
            .current_dir(work.path())
            .env("CUDA_VISIBLE_DEVICES", "")
            .args(&e.args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} {}: {}",
            e.page,
            e.name,
            String::from_utf8_lossy(&out.stderr)
        );
        let printed = String::from_utf8_lossy(&out.stdout);
        let printed = printed.replace(&format!("{}/", work.path().display()), "");
        match command {
            "explain" | "estimate" | "diagnose" => assert_eq!(
                e.shown.trim_end(),
                printed.trim_end(),
                "{} {}: the page's example is out of date: run scripts/guide-examples.sh",
                e.page,
                e.name
            ),
            _ => assert_eq!(
                row_labels(&e.shown),
                row_labels(&printed),
                "{} {}: the page's example is out of date: run scripts/guide-examples.sh",
                e.page,
                e.name
            ),
        }
    }
}

/// The train page's table of environment variables is the program's own list, row for
/// row: a variable oomlab starts to read, or stops reading, changes the page.
#[test]
fn the_environment_table_lists_what_the_program_reads() {
    let page = std::fs::read_to_string(Path::new(ROOT).join("docs/guide/train.md")).unwrap();
    let start = page.find("<!-- env-table -->").unwrap() + "<!-- env-table -->".len();
    let end = page.find("<!-- env-table:end -->").unwrap();
    let mut want = String::from("\n| variable | what it does |\n|---|---|\n");
    for o in oomlab::env::overrides() {
        want.push_str(&format!("| `{}` | {} |\n", o.name, o.what));
    }
    assert_eq!(&page[start..end], want);
}
