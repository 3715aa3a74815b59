//! Checkpoints for exact resume: the file format (with its checksum and atomic write),
//! the metadata beside the tensors, and the configuration check a resume makes.
//! The trainer's side (what goes in, how it is put back) is in `train::resume`.

mod diff;
mod file;
mod meta;

pub use diff::changed_keys;
pub use file::{
    file_name, latest_usable, list, write_atomic, Checkpoint, CheckpointError, FORMAT, SUFFIX,
};
pub use meta::{CheckpointMeta, ResumeMark};

/// The folder inside a run folder that holds its checkpoints.
pub const DIR: &str = "checkpoints";
