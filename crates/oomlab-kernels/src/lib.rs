//! oomlab's CUDA operations: the linear layers' and attention's products on cuBLAS, and
//! oomlab's own kernels for LayerNorm, GELU, the causal softmax and AdamW, inside burn
//! 0.21's CUDA backend; with the kernel pack that lets a fresh card skip compiling them.
//!
//! Each operation is a backend trait of [`ops`] whose default is burn's plain tensor
//! operations: the CPU's path, and the reference every CUDA implementation is tested
//! against. [`cuda`] implements the traits for burn's CUDA backend (cubecl's buffers),
//! and [`ops`] for burn's fusion backend over it, as custom operations. A program picks
//! between the two ways of each operation with [`Choices`]; by default each backend runs
//! what was measured fastest on it.

pub mod choices;
pub mod cuda;
pub mod env;
pub mod ops;
#[cfg(test)]
mod test_backend;

pub use choices::{choose, chosen, Choices};
