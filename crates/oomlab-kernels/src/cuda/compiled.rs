//! Compiled kernels shipped with oomlab for the cards it was measured on.
//!
//! burn 0.21's CUDA runtime (cubecl 0.10) compiles every kernel with NVRTC the first time
//! a process meets it, one after another on its device thread; a fresh H200 spent
//! minutes there before the first step. cubecl can keep the PTX it compiled in a
//! persistent cache (`<kernel cache>/cuda/0.10.0/ptx/`: `toc.json.log`, one line per
//! kernel, `{"key": <u128>, "value": "<chunk file>"}`, and chunk files of CBOR entries).
//! oomlab ships such a chunk (xz-compressed: PTX shrinks about 30 times), written on an
//! H200 by `oomlab warm-up`, and adds it to the
//! user's cache as a chunk file of its own, with a table-of-contents line for each kernel
//! the cache does not have yet. cubecl then loads those kernels' PTX (the driver turns it
//! into machine code) instead of compiling them.
//!
//! The keys are hashes of the kernel's Rust type (its `TypeId`), so they match only a
//! binary built from the same crates by the same rustc: another toolchain finds none of
//! them and compiles as before (nothing breaks; the summary's kernel count shows it).
//! cubecl checks nothing when it loads a cached entry, and a driver older than the PTX's
//! ISA would refuse it with an error rather than a recompile, so the pack is installed
//! only on cards of the architecture it was made for ([`super::pack_card`]: the PTX is
//! `sm_90a`, for compute capability 9.0 exactly) and on a driver at least as new as the
//! PTX needs. Every kernel comes from a locked crate version, so a key cannot meet changed
//! kernel code, except oomlab's own two (super::fence), whose key carries a hash of their
//! file as a compile-time argument (a test holds every `#[cube]` kernel of oomlab's to that).

use std::io::Write;
use std::path::Path;

use serde::Deserialize;

use super::pack_card::{CardId, MadeOn, H200};

/// A pack of compiled kernels.
pub(super) struct CompiledPack {
    /// The card it was made on ([`MadeOn::fit`]: the cards it is installed on).
    pub device: MadeOn,
    /// The lowest CUDA driver version (as `cuDriverGetVersion` gives it: 13000 = 13.0)
    /// that loads its PTX.
    pub min_driver: i32,
    /// The table of contents as cubecl wrote it.
    pub toc: &'static str,
    /// The chunk file, xz-compressed.
    pub chunk_xz: &'static [u8],
    /// Where it came from.
    pub origin: &'static str,
}

/// The packs oomlab ships (`pack/<card>/ptx/`, made by `scripts/kernel-pack.py`).
pub(super) const PACKS: &[CompiledPack] = &[CompiledPack {
    device: H200,
    min_driver: include!("../../pack/nvidia-h200/ptx/min-driver.txt"),
    toc: include_str!("../../pack/nvidia-h200/ptx/toc.json.log"),
    chunk_xz: include_bytes!("../../pack/nvidia-h200/ptx/chunk.cbor.xz"),
    origin: "pack/nvidia-h200/ptx/, written by oomlab warm-up on an H200",
}];

#[derive(Deserialize)]
struct TocLine {
    key: u128,
}

/// The keys of a cubecl table of contents (unreadable lines are skipped, as cubecl does).
fn keys(toc: &str) -> Vec<u128> {
    toc.lines()
        .filter_map(|l| serde_json::from_str::<TocLine>(l).ok())
        .map(|l| l.key)
        .collect()
}

/// The name of a pack's chunk file in the cache: one per pack content, so a new pack
/// never overwrites the chunk an older table of contents points to.
fn chunk_name(pack: &CompiledPack) -> String {
    format!("oomlab-{:08x}.cbor", crc32fast::hash(pack.chunk_xz))
}

/// What [`install_compiled`] did, and where the pack came from ([`Install::note`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Install {
    /// What was done.
    pub done: Installed,
    /// "on an NVIDIA H200" (and, on another card of its architecture, which one).
    pub made: String,
    /// The pack's folder.
    pub origin: &'static str,
}

/// What [`install_compiled`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installed {
    /// This many kernels were added to the cache.
    Added(usize),
    /// The cache had every kernel of the pack already.
    AlreadyThere,
    /// Not installed, and why.
    Skipped(String),
}

/// Adds the pack for `card` to kernel cache folder `dir` (the folder oomlab gives cubecl),
/// on a driver of version `driver` (`cuDriverGetVersion`). `None` when oomlab ships
/// nothing for this card.
pub fn install_compiled(dir: &Path, card: &CardId, driver: Option<i32>) -> Option<Install> {
    let (pack, fit) = PACKS
        .iter()
        .find_map(|p| p.device.fit(card).map(|f| (p, f)))?;
    Some(Install {
        done: install_pack(dir, pack, driver),
        made: pack.device.origin(&fit, card),
        origin: pack.origin,
    })
}

fn install_pack(dir: &Path, pack: &CompiledPack, driver: Option<i32>) -> Installed {
    if pack.toc.trim().is_empty() {
        return Installed::Skipped("the pack is empty".into());
    }
    match driver {
        Some(v) if v >= pack.min_driver => {}
        Some(v) => {
            return Installed::Skipped(format!(
                "the CUDA driver supports CUDA {}.{}, older than the {}.{} the shipped PTX needs: kernels compile here",
                v / 1000,
                (v % 1000) / 10,
                pack.min_driver / 1000,
                (pack.min_driver % 1000) / 10
            ))
        }
        None => {
            return Installed::Skipped(
                "the CUDA driver's version could not be read: kernels compile here".into(),
            )
        }
    }
    let ptx = dir.join("cuda").join(super::CUBECL_VERSION).join("ptx");
    match add_to_cache(&ptx, pack) {
        Ok(0) => Installed::AlreadyThere,
        Ok(n) => Installed::Added(n),
        Err(e) => Installed::Skipped(format!("cannot write into {} ({e})", ptx.display())),
    }
}

impl Install {
    /// The line for the user.
    pub fn note(&self) -> String {
        let (made, origin) = (&self.made, self.origin);
        match &self.done {
            Installed::Added(n) => format!(
                "added {n} kernels compiled {made} ({origin}) to the kernel cache: a binary built from the same crates by the same rustc loads them instead of compiling"
            ),
            Installed::AlreadyThere => {
                format!("kernels compiled {made}: already in the kernel cache")
            }
            Installed::Skipped(why) => {
                format!("shipped kernels compiled {made} not installed: {why}")
            }
        }
    }
}

fn add_to_cache(ptx: &Path, pack: &CompiledPack) -> std::io::Result<usize> {
    std::fs::create_dir_all(ptx)?;
    let toc_path = ptx.join("toc.json.log");
    let existing = match std::fs::read_to_string(&toc_path) {
        Ok(t) => keys(&t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    let existing: std::collections::HashSet<u128> = existing.into_iter().collect();
    let missing: Vec<u128> = keys(pack.toc)
        .into_iter()
        .filter(|k| !existing.contains(k))
        .collect();
    if missing.is_empty() {
        return Ok(0);
    }
    // The chunk first (temporary file and rename), so no table line ever names a chunk
    // that is not complete.
    let name = chunk_name(pack);
    let chunk = ptx.join(&name);
    if !chunk.exists() {
        let bytes = unxz(pack.chunk_xz)?;
        let tmp = ptx.join(format!(".{name}.{}", std::process::id()));
        std::fs::write(&tmp, &bytes)?;
        std::fs::rename(&tmp, &chunk)?;
    }
    // One append of whole lines, as cubecl appends its own.
    let mut lines = String::new();
    for k in &missing {
        lines += &format!("{{\"key\":{k},\"value\":\"{name}\"}}\n");
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&toc_path)?;
    f.write_all(lines.as_bytes())?;
    Ok(missing.len())
}

fn unxz(packed: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(packed), &mut bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{e:?}")))?;
    Ok(bytes)
}

/// The CUDA driver's version (`cuDriverGetVersion`: 13000 = CUDA 13.0), when the driver
/// loads.
pub fn driver_version() -> Option<i32> {
    use cudarc::driver::sys;
    // SAFETY: a query that writes one int; the library's presence is checked first
    // (cudarc panics on a call when it is missing).
    unsafe {
        if !sys::is_culib_present() {
            return None;
        }
        let mut v = 0;
        (sys::cuDriverGetVersion(&mut v) == sys::CUresult::CUDA_SUCCESS).then_some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xz(bytes: &[u8]) -> &'static [u8] {
        let mut out = Vec::new();
        lzma_rs::xz_compress(&mut std::io::BufReader::new(bytes), &mut out).unwrap();
        Box::leak(out.into_boxed_slice())
    }

    fn pack(toc: &'static str, chunk: &[u8]) -> CompiledPack {
        CompiledPack {
            device: H200,
            min_driver: 13000,
            toc,
            chunk_xz: xz(chunk),
            origin: "test",
        }
    }

    #[test]
    fn the_pack_goes_in_once_beside_the_users_own_kernels() {
        let dir = tempfile::tempdir().unwrap();
        let p = pack(
            "{\"key\":340282366920938463463374607431768211455,\"value\":\"chunk0.cbor\"}\n{\"key\":12,\"value\":\"chunk0.cbor\"}\n{\"key\":13,\"value\":\"chunk0.cbor\"}\n",
            b"cbor entries",
        );
        let ptx = dir.path().join("cuda/0.10.0/ptx");
        std::fs::create_dir_all(&ptx).unwrap();
        // A kernel the user compiled before: kept, and not added twice.
        let theirs = "{\"key\":12,\"value\":\"chunk0.cbor\"}\n";
        std::fs::write(ptx.join("toc.json.log"), theirs).unwrap();
        assert_eq!(
            install_pack(dir.path(), &p, Some(13000)),
            Installed::Added(2)
        );
        let toc = std::fs::read_to_string(ptx.join("toc.json.log")).unwrap();
        assert!(toc.starts_with(theirs), "{toc}");
        let mut got = keys(&toc);
        got.sort();
        assert_eq!(got, vec![12, 13, u128::MAX]);
        assert!(toc.contains(&format!("{{\"key\":13,\"value\":\"{}\"}}", chunk_name(&p))));
        // The chunk is the pack's, uncompressed, under the name its lines give.
        assert_eq!(
            std::fs::read(ptx.join(chunk_name(&p))).unwrap(),
            b"cbor entries"
        );
        assert_eq!(
            install_pack(dir.path(), &p, Some(13010)),
            Installed::AlreadyThere
        );
    }

    #[test]
    fn only_on_its_architecture_and_a_driver_that_loads_its_ptx() {
        let dir = tempfile::tempdir().unwrap();
        let a100 = CardId {
            name: "NVIDIA A100-SXM4-80GB",
            compute_capability: Some((8, 0)),
        };
        assert_eq!(install_compiled(dir.path(), &a100, Some(13000)), None);
        // An H100 gets the H200's pack, and the note says whose it is.
        let h100 = CardId {
            name: "NVIDIA H100 80GB HBM3",
            compute_capability: Some((9, 0)),
        };
        let old = install_compiled(dir.path(), &h100, Some(12080)).unwrap();
        assert!(
            old.note()
                .contains("compiled on an NVIDIA H200 and used on this NVIDIA H100")
                && matches!(old.done, Installed::Skipped(_)),
            "{old:?}"
        );
        let p = pack("{\"key\":1,\"value\":\"chunk0.cbor\"}\n", b"x");
        let old = install_pack(dir.path(), &p, Some(12080));
        assert!(
            matches!(old, Installed::Skipped(ref w) if w.contains("12.8")),
            "{old:?}"
        );
        assert!(matches!(
            install_pack(dir.path(), &p, None),
            Installed::Skipped(_)
        ));
        assert!(!dir.path().join("cuda").exists());
    }

    #[test]
    fn every_shipped_table_line_is_a_cubecl_entry_of_the_shipped_chunk() {
        for pack in PACKS {
            let chunk = unxz(pack.chunk_xz).unwrap();
            for line in pack.toc.lines().filter(|l| !l.trim().is_empty()) {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                assert!(v["value"].is_string(), "{line}");
                assert!(serde_json::from_str::<TocLine>(line).is_ok(), "{line}");
            }
            assert_eq!(chunk.is_empty(), pack.toc.trim().is_empty());
        }
    }

    #[test]
    fn oomlab_kernels_of_its_own_are_keyed_by_their_source() {
        // The shipped keys hash kernel types, not kernel code: a #[cube] kernel of
        // oomlab's, edited, would keep its key and load the old PTX, unless a hash of its
        // file is one of its compile-time arguments (part of the key), as fence.rs does.
        // The kernels of super::cube are launched from the host files beside it, which
        // must pass that key at every launch.
        let mut files = Vec::new();
        fn walk(dir: &Path, files: &mut Vec<(String, String)>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, files);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let name = p.file_name().unwrap().to_string_lossy().to_string();
                    files.push((name, text));
                }
            }
        }
        walk(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let cube = |text: &str| text.lines().any(|l| l.trim_start().starts_with("#[cube"));
        let mut names: Vec<&str> = files
            .iter()
            .filter(|(_, text)| cube(text))
            .map(|(n, _)| n.as_str())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["adamw.rs", "fence.rs", "gelu.rs", "norm.rs", "softmax.rs"]
        );
        let mut launching = Vec::new();
        for (name, text) in &files {
            if cube(text) {
                let hashed = format!("crc32fast::hash(include_str!(\"{name}\").as_bytes())");
                assert!(text.contains(&hashed), "{name} does not hash itself");
                let kernels: Vec<&str> = text.split("#[cube(").skip(1).collect();
                assert!(!kernels.is_empty());
                for k in kernels {
                    let signature = &k[..k.find('{').unwrap()];
                    assert!(
                        signature.contains("#[comptime] _source: u32"),
                        "{name}: {signature}"
                    );
                }
            }
            if name != "compiled.rs" && text.contains("source_key") {
                let launches = text.matches("::launch::<CudaRuntime>(").count();
                let keyed = text.matches("source_key(),\n").count();
                assert_eq!(launches, keyed, "{name}: every launch passes the key");
                if launches > 0 {
                    launching.push(name.as_str());
                }
            }
        }
        launching.sort();
        assert_eq!(
            launching,
            [
                "adamw_kernels.rs",
                "fence.rs",
                "gelu_kernels.rs",
                "norm_kernels.rs",
                "softmax_kernels.rs"
            ]
        );
    }
}
