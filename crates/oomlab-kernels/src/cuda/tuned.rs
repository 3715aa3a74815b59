//! Autotune results shipped with oomlab for the cards it was measured on.
//!
//! On a fresh machine most of burn 0.21's first CUDA step is autotuning: measured on an
//! H200 (`gpu` config, f32), 239 s with an empty kernel cache, of which 20 s remained
//! when only the autotune results were present (the winning kernels still compiled, none
//! benchmarked); see docs/results/2026-11-30-h200-cold-start. cubecl keys its autotune
//! cache by device index, not by card model, so the results are installed only on the
//! cards [`super::pack_card`] allows (the model they were measured on and the others of its
//! architecture, said in the note), and only the results the cache does not hold yet.

use std::path::Path;

use super::pack_card::{CardId, MadeOn, H200};

/// The cubecl version whose cache layout and tunable sets the files belong to.
pub const CUBECL_VERSION: &str = "0.10.0";

/// Autotune result files measured on one card model.
struct TunedPack {
    /// The card they were measured on.
    device: MadeOn,
    /// Where the files came from.
    origin: &'static str,
    /// File name and contents, as cubecl writes them.
    files: &'static [(&'static str, &'static str)],
}

const PACKS: &[TunedPack] = &[TunedPack {
    device: H200,
    origin: "pack/nvidia-h200/, measured by scripts/gpu/cold-first-step.sh and benches/paired.sh",
    files: &[
        (
            "burn_cubecl-kernel-attention-tune.json.log",
            include_str!("../../pack/nvidia-h200/burn_cubecl-kernel-attention-tune.json.log"),
        ),
        (
            "burn_cubecl-kernel-matmul-tune-base.json.log",
            include_str!("../../pack/nvidia-h200/burn_cubecl-kernel-matmul-tune-base.json.log"),
        ),
        (
            "burn_cubecl-kernel-reduce-tune-autotune-sum.json.log",
            include_str!(
                "../../pack/nvidia-h200/burn_cubecl-kernel-reduce-tune-autotune-sum.json.log"
            ),
        ),
        (
            "burn_cubecl-kernel-reduce-tune-reduce-dim.json.log",
            include_str!(
                "../../pack/nvidia-h200/burn_cubecl-kernel-reduce-tune-reduce-dim.json.log"
            ),
        ),
        (
            "burn_cubecl_fusion-optim-matmul-tune.json.log",
            include_str!("../../pack/nvidia-h200/burn_cubecl_fusion-optim-matmul-tune.json.log"),
        ),
        (
            "burn_cubecl_fusion-optim-reduce-tune.json.log",
            include_str!("../../pack/nvidia-h200/burn_cubecl_fusion-optim-reduce-tune.json.log"),
        ),
        (
            "burn_cubecl_fusion-optim-reduce_broadcasted-tune.json.log",
            include_str!(
                "../../pack/nvidia-h200/burn_cubecl_fusion-optim-reduce_broadcasted-tune.json.log"
            ),
        ),
    ],
}];

/// What [`install_tuned`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TunedInstall {
    /// Files written.
    pub written: usize,
    /// Files left alone because the cache had them already.
    pub kept: usize,
    /// Autotune results in the files written.
    pub results: usize,
}

/// Adds the shipped autotune results for `card` to kernel cache folder `dir` for CUDA
/// device `index`: every result whose key the cache does not hold yet. Returns a line for
/// the user, or `None` when oomlab ships nothing for this card.
pub fn install_tuned(dir: &Path, card: &CardId, index: usize) -> Option<String> {
    let (pack, fit) = PACKS
        .iter()
        .find_map(|p| p.device.fit(card).map(|f| (p, f)))?;
    let measured = pack.device.origin(&fit, card);
    let target = dir
        .join("autotune")
        .join(CUBECL_VERSION)
        .join(format!("device-0-{index}-cuda"));
    let done = write_missing(&target, pack.files);
    Some(match done {
        Ok(d) if d.written > 0 => format!(
            "installed {} autotune results measured {measured} ({}) into {}: no candidate kernel is benchmarked for the shapes they cover",
            d.results, pack.origin, target.display()
        ),
        Ok(_) => format!("autotune results measured {measured}: all already in {}", target.display()),
        Err(e) => format!("could not install the shipped autotune results into {} ({e}); the first step autotunes itself", target.display()),
    })
}

/// The key of one cubecl autotune cache line (operation key and the tunables' checksum),
/// as canonical JSON.
fn line_key(line: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    Some(v.get("key")?.to_string())
}

/// Appends to each file in `target` the shipped lines whose key it does not hold yet
/// (cubecl itself only ever appends lines), creating missing files.
fn write_missing(target: &Path, files: &[(&str, &str)]) -> std::io::Result<TunedInstall> {
    use std::io::Write;
    std::fs::create_dir_all(target)?;
    let mut done = TunedInstall {
        written: 0,
        kept: 0,
        results: 0,
    };
    for (name, text) in files {
        let path = target.join(name);
        let have: std::collections::HashSet<String> = match std::fs::read_to_string(&path) {
            Ok(t) => t.lines().filter_map(line_key).collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Default::default(),
            Err(e) => return Err(e),
        };
        let mut add = String::new();
        let mut n = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if line_key(line).is_some_and(|k| !have.contains(&k)) {
                add += line;
                add.push('\n');
                n += 1;
            }
        }
        if n == 0 {
            done.kept += 1;
            continue;
        }
        if have.is_empty() && !path.exists() {
            // A temporary file and a rename, so a concurrent process never reads half a file.
            let tmp = target.join(format!(".{name}.{}", std::process::id()));
            std::fs::write(&tmp, &add)?;
            std::fs::rename(&tmp, &path)?;
        } else {
            let mut f = std::fs::OpenOptions::new().append(true).open(&path)?;
            f.write_all(add.as_bytes())?;
        }
        done.written += 1;
        done.results += n;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installs_the_h200_results_once_and_only_on_its_architecture() {
        let dir = tempfile::tempdir().unwrap();
        let card = |name, cc| CardId {
            name,
            compute_capability: Some(cc),
        };
        let a100 = card("NVIDIA A100-SXM4-80GB", (8, 0));
        assert_eq!(install_tuned(dir.path(), &a100, 0), None);
        let h200 = card("NVIDIA H200", (9, 0));
        let line = install_tuned(dir.path(), &h200, 1).unwrap();
        assert!(line.starts_with("installed"), "{line}");
        let target = dir.path().join("autotune/0.10.0/device-0-1-cuda");
        let n = std::fs::read_dir(&target).unwrap().count();
        assert_eq!(n, PACKS[0].files.len());
        let again = install_tuned(dir.path(), &h200, 1).unwrap();
        assert!(again.contains("already"), "{again}");
        let h100 = card("NVIDIA H100 80GB HBM3", (9, 0));
        let line = install_tuned(dir.path(), &h100, 0).unwrap();
        assert!(
            line.starts_with("installed") && line.contains("used on this NVIDIA H100 80GB HBM3"),
            "{line}"
        );
    }

    #[test]
    fn results_the_cache_lacks_are_appended_and_its_own_kept() {
        let dir = tempfile::tempdir().unwrap();
        let theirs = r#"{"key":{"key":"mine","checksum":"c"},"value":{"fastest_index":0}}"#;
        let shipped = [
            r#"{"key":{"key":"a","checksum":"c"},"value":{"fastest_index":1}}"#,
            r#"{"key":{"key":"mine","checksum":"c"},"value":{"fastest_index":2}}"#,
        ]
        .join("\n");
        std::fs::write(dir.path().join("f.json.log"), format!("{theirs}\n")).unwrap();
        let files: [(&str, &str); 1] = [("f.json.log", &shipped)];
        let done = write_missing(dir.path(), &files).unwrap();
        assert_eq!((done.written, done.results), (1, 1));
        let text = std::fs::read_to_string(dir.path().join("f.json.log")).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.starts_with(theirs) && text.contains(r#""key":"a""#));
        assert_eq!(write_missing(dir.path(), &files).unwrap().results, 0);
    }

    #[test]
    fn every_shipped_line_is_a_cubecl_cache_entry() {
        for pack in PACKS {
            for (name, text) in pack.files {
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    let v: serde_json::Value = serde_json::from_str(line).unwrap();
                    assert!(
                        v["key"]["checksum"].is_string() && v["value"]["fastest_index"].is_u64(),
                        "{name}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_cache_layout_is_the_one_of_the_locked_cubecl() {
        let lock = include_str!("../../../../Cargo.lock");
        assert!(
            lock.contains(&format!(
                "name = \"cubecl-runtime\"\nversion = \"{CUBECL_VERSION}\""
            )),
            "cubecl-runtime is not {CUBECL_VERSION}: re-measure the shipped autotune results"
        );
    }
}
