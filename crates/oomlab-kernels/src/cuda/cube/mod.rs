//! oomlab's own `#[cube]` kernels, one file per family, apart from the host code that
//! checks shapes, picks a grid and launches them (super::gelu_kernels, super::norm_kernels,
//! super::softmax_kernels, super::adamw_kernels, super::fence).
//!
//! Each file hashes its own text into its kernels' cache key (`source_key`, a compile-time
//! argument), so the shipped kernel pack (super::compiled) serves a kernel only while its
//! code is the code the pack was compiled from. Keeping the host code out of these files
//! means an edit there (a default, a fallback, a check) leaves the pack valid.

pub(crate) mod adamw;
pub(crate) mod fence;
pub(crate) mod gelu;
pub(crate) mod norm;
pub(crate) mod softmax;
