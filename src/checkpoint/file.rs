//! One checkpoint file: what it holds, how it is laid out on disk, written so that a crash
//! at any moment leaves either the old file or the new one, and read so that a truncated
//! or damaged file is told apart from a good one.
//!
//! Layout (little-endian): `OOMLABCK`, format (u32), then three length-prefixed (u64)
//! sections: the metadata as JSON, the model's record and the optimizer's record (burn's
//! `BinBytesRecorder`, full precision), and last the CRC-32 of every byte before it.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::meta::CheckpointMeta;

const MAGIC: &[u8; 8] = b"OOMLABCK";
/// The layout version this build writes and reads.
pub const FORMAT: u32 = 1;
/// File name suffix of a checkpoint.
pub const SUFFIX: &str = ".ckpt";

/// Why a checkpoint could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not a checkpoint: the first bytes are not oomlab's.
    #[error("not an oomlab checkpoint (its first bytes are not OOMLABCK)")]
    NotACheckpoint,
    /// Written by a build with another layout.
    #[error("checkpoint format {found}, this oomlab reads format {FORMAT}")]
    Format {
        /// The file's format.
        found: u32,
    },
    /// The file ends before its last section: a write that did not finish.
    #[error("truncated: {len} bytes, the header announces more")]
    Truncated {
        /// Bytes in the file.
        len: usize,
    },
    /// The bytes are not the ones written.
    #[error("checksum mismatch: stored {stored:08x}, computed {computed:08x} (the file was damaged after it was written)")]
    Checksum {
        /// CRC-32 stored at the end.
        stored: u32,
        /// CRC-32 of the bytes read.
        computed: u32,
    },
    /// The metadata section does not parse.
    #[error("unreadable metadata: {0}")]
    Meta(String),
    /// burn could not turn the model's or the optimizer's state into bytes or back.
    #[error("burn's recorder: {0}")]
    Record(String),
    /// No file in the folder could be used.
    #[error("no usable checkpoint in {dir}{}", if .tried.is_empty() { String::new() } else { format!(": {}", .tried.join("; ")) })]
    NoneUsable {
        /// The folder.
        dir: PathBuf,
        /// What was wrong with each file tried.
        tried: Vec<String>,
    },
}

/// A checkpoint in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// Everything but the tensors.
    pub meta: CheckpointMeta,
    /// The model's record.
    pub model: Vec<u8>,
    /// The optimizer's record.
    pub optim: Vec<u8>,
}

impl Checkpoint {
    /// The bytes of the file.
    pub fn encode(&self) -> Vec<u8> {
        let meta = serde_json::to_vec(&self.meta).unwrap_or_default();
        let mut out =
            Vec::with_capacity(8 + 4 + 24 + meta.len() + self.model.len() + self.optim.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        for section in [&meta, &self.model, &self.optim] {
            out.extend_from_slice(&(section.len() as u64).to_le_bytes());
            out.extend_from_slice(section);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads the bytes of a file, checking magic, format, length and checksum.
    pub fn decode(bytes: &[u8]) -> Result<Self, CheckpointError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(CheckpointError::NotACheckpoint);
        }
        let format = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if format != FORMAT {
            return Err(CheckpointError::Format { found: format });
        }
        let truncated = CheckpointError::Truncated { len: bytes.len() };
        let mut at = 12usize;
        let mut sections = Vec::with_capacity(3);
        for _ in 0..3 {
            let Some(len) = bytes.get(at..at + 8) else {
                return Err(truncated);
            };
            let mut le = [0u8; 8];
            le.copy_from_slice(len);
            let len = usize::try_from(u64::from_le_bytes(le)).unwrap_or(usize::MAX);
            at += 8;
            let end = at.saturating_add(len);
            let Some(section) = bytes.get(at..end) else {
                return Err(truncated);
            };
            sections.push(section);
            at = end;
        }
        let Some(stored) = bytes.get(at..at + 4) else {
            return Err(truncated);
        };
        let stored = u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]);
        let computed = crc32fast::hash(&bytes[..at]);
        if stored != computed {
            return Err(CheckpointError::Checksum { stored, computed });
        }
        let meta = serde_json::from_slice(sections[0])
            .map_err(|e| CheckpointError::Meta(e.to_string()))?;
        Ok(Self {
            meta,
            model: sections[1].to_vec(),
            optim: sections[2].to_vec(),
        })
    }
}

/// `step-000012.ckpt`: the checkpoint taken before step 12 (12 steps applied).
pub fn file_name(next_step: usize) -> String {
    format!("step-{next_step:06}{SUFFIX}")
}

/// The checkpoints in `dir`, newest (highest step) first.
pub fn list(dir: &Path) -> Vec<(usize, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(usize, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let step = name
                .strip_prefix("step-")?
                .strip_suffix(SUFFIX)?
                .parse()
                .ok()?;
            Some((step, e.path()))
        })
        .collect();
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found
}

/// Writes `ckpt` into `dir` as [`file_name`] without ever leaving a partial file under
/// that name: the bytes go to a temporary file, which is flushed to disk (fsync) and then
/// renamed over the final name; the folder is synced so the rename survives a power
/// loss. Then only the newest `keep` checkpoints are kept.
pub fn write_atomic(
    dir: &Path,
    ckpt: &Checkpoint,
    keep: usize,
) -> Result<PathBuf, CheckpointError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CheckpointError::Io { path, source }
    };
    fs::create_dir_all(dir).map_err(io(dir))?;
    let name = file_name(ckpt.meta.next_step);
    let final_path = dir.join(&name);
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let mut f = File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(&ckpt.encode()).map_err(io(&tmp))?;
        f.sync_all().map_err(io(&tmp))?;
    }
    fs::rename(&tmp, &final_path).map_err(io(&final_path))?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    for (_, old) in list(dir).into_iter().skip(keep.max(1)) {
        let _ = fs::remove_file(old);
    }
    Ok(final_path)
}

/// The newest checkpoint in `dir` that reads back intact, its path, and a line for each
/// newer file that did not (truncated, damaged), so the caller can say which was used
/// and why.
pub fn latest_usable(dir: &Path) -> Result<(Checkpoint, PathBuf, Vec<String>), CheckpointError> {
    let mut skipped = Vec::new();
    for (_, path) in list(dir) {
        let result = fs::read(&path)
            .map_err(|source| CheckpointError::Io {
                path: path.clone(),
                source,
            })
            .and_then(|b| Checkpoint::decode(&b));
        match result {
            Ok(c) => return Ok((c, path, skipped)),
            Err(e) => skipped.push(format!("{}: {e}", path.display())),
        }
    }
    Err(CheckpointError::NoneUsable {
        dir: dir.to_path_buf(),
        tried: skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(step: usize) -> Checkpoint {
        Checkpoint {
            meta: CheckpointMeta::sample(step),
            model: (0..200u8).collect(),
            optim: vec![7; 50],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let c = sample(12);
        assert_eq!(Checkpoint::decode(&c.encode()).unwrap(), c);
    }

    #[test]
    fn a_truncated_file_is_told_from_a_damaged_one() {
        let bytes = sample(3).encode();
        for cut in [0, 11, 20, bytes.len() / 2, bytes.len() - 1] {
            let err = Checkpoint::decode(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(
                    err,
                    CheckpointError::Truncated { .. } | CheckpointError::NotACheckpoint
                ),
                "cut at {cut}: {err}"
            );
        }
        let mut flipped = bytes.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x10;
        assert!(matches!(
            Checkpoint::decode(&flipped),
            Err(CheckpointError::Checksum { .. })
        ));
    }

    #[test]
    fn only_the_newest_are_kept_and_a_damaged_newest_falls_back_to_the_one_before() {
        let dir = tempfile::tempdir().unwrap();
        for step in [3, 6, 9, 12] {
            write_atomic(dir.path(), &sample(step), 2).unwrap();
        }
        let steps: Vec<usize> = list(dir.path()).into_iter().map(|(s, _)| s).collect();
        assert_eq!(steps, vec![12, 9]);
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);

        let newest = dir.path().join(file_name(12));
        let bytes = fs::read(&newest).unwrap();
        fs::write(&newest, &bytes[..bytes.len() - 10]).unwrap();
        let (c, path, skipped) = latest_usable(dir.path()).unwrap();
        assert_eq!(c.meta.next_step, 9);
        assert_eq!(path, dir.path().join(file_name(9)));
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].contains("truncated"), "{skipped:?}");

        fs::write(dir.path().join(file_name(9)), b"OOMLABCK garbage").unwrap();
        let err = latest_usable(dir.path()).unwrap_err();
        assert!(
            matches!(err, CheckpointError::NoneUsable { ref tried, .. } if tried.len() == 2),
            "{err}"
        );
    }
}
