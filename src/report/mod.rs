//! Run summaries rendered for humans (terminal); the summary types themselves are in
//! [`crate::results`].

mod render;

pub use render::{render_attempts, render_memory, render_peers, render_summary};
