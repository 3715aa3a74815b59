//! `oomlab run -- CMD`: the user's own job, checked before it starts (free memory on the
//! card it will use, who holds the rest), launched with its output passed through and its
//! signals forwarded, its process tree watched (host memory of every process, and the VRAM
//! NVML charges to each), and, when it prints an out-of-memory message, that message read
//! with what was on the card at the last sample before the job ended.

mod chart;
mod launch;
mod prelaunch;
mod report;
mod sample;
mod tree;

pub use chart::timeline_svg;
pub use launch::{exit_code, launch, Job, LaunchError};
pub use prelaunch::{first_visible, holders_line, prelaunch, Need, Prelaunch};
pub use report::{user_of, JobReport};
pub use sample::{CardPeak, JobProcess, Watched, Watcher};
pub use tree::{descendants, parse_ppid, tree_of, TreeProcess};
