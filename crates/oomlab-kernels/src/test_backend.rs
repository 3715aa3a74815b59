//! The backend the tests differentiate on: burn's CPU backend with autodiff.

/// burn's CPU backend with autodiff.
pub type CpuBackend = burn::backend::Autodiff<burn::backend::Flex>;
