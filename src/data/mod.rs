//! Training text: a generated small language (the default) or a user's file, turned into
//! character tokens and sampled into batches deterministically.

mod batch;
mod corpus;
mod generator;
mod vocab;

pub use batch::{BatchSampler, DeviceBatch, HostBatch};
pub use corpus::{Corpus, DataError};
pub use generator::generate;
pub use vocab::Vocab;
