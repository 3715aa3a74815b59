//! oomlab: a training loop on burn that shows, measures and teaches how to survive
//! "CUDA out of memory".
//!
//! The binary is a thin shell over this library: [`cli`] turns flags into validated plans
//! (e.g. [`cmd::train::TrainPlan`]), [`cmd`] holds the commands that carry them out,
//! [`backend`] picks the concrete burn backend in one place, everything under [`train`] is
//! generic over it (one device or several: [`train::GradSync`]), and [`results`] holds the
//! result types every layer fills in and every renderer reads.

#![warn(missing_docs)]

pub mod backend;
pub mod checkpoint;
pub mod cli;
pub mod cmd;
pub mod compare;
pub mod config;
pub mod data;
pub mod device;
pub mod diagnose;
pub mod env;
pub mod error;
pub mod estimate;
pub mod evidence;
pub mod explain;
pub mod hf;
pub mod holders;
pub mod lesson;
pub mod model;
pub mod oom;
pub mod optim;
pub mod parallel;
pub mod precision;
pub mod probe;
pub mod progress;
pub mod render;
pub mod results;
pub mod run_dir;
pub mod strategy;
pub mod technique;
pub mod text;
pub mod train;
pub mod units;
pub mod watch;
pub mod words;

pub use error::Error;
