//! Run summaries rendered for humans (terminal); the summary types themselves are in
//! [`crate::results`].

mod anatomy;
mod labels;
mod summary;

pub use anatomy::{anatomy_svg, anatomy_text};
pub use summary::{render_attempts, render_memory, render_peers, render_summary};
