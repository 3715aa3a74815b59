//! Why a CUDA operation of this crate could not run. The operations fall back to burn's
//! own on any of them, saying why once; the driver's check reports it.

use std::fmt;

use cudarc::cublas::result::CublasError;
use cudarc::driver::DriverError;

/// Why a CUDA operation could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CudaOpError {
    /// An input the operation does not take (its shape, dtype, strides or size): burn's
    /// operations run it instead.
    Unfit(String),
    /// The CUDA driver library (libcuda.so.1) does not load.
    NoDriver,
    /// A CUDA driver call failed.
    Driver {
        /// The call (`cuInit`).
        call: &'static str,
        /// The driver's error.
        error: DriverError,
    },
    /// A cuBLAS call failed.
    Cublas(CublasError),
    /// cubecl could not give a tensor's device buffer.
    Buffer(String),
}

impl CudaOpError {
    /// A failure of the driver's `call`, for `map_err`.
    pub fn driver(call: &'static str) -> impl Fn(DriverError) -> CudaOpError {
        move |error| CudaOpError::Driver { call, error }
    }
}

impl From<CublasError> for CudaOpError {
    fn from(e: CublasError) -> Self {
        CudaOpError::Cublas(e)
    }
}

impl fmt::Display for CudaOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaOpError::Unfit(why) => f.write_str(why),
            CudaOpError::NoDriver => {
                f.write_str("the CUDA driver library, libcuda.so.1, cannot be loaded")
            }
            CudaOpError::Driver { call, error } => {
                write!(f, "{call} failed: {error}")?;
                if *call == "cuInit" {
                    f.write_str(" (is the driver loaded? does nvidia-smi work?)")?;
                }
                Ok(())
            }
            CudaOpError::Cublas(e) => write!(f, "cuBLAS: {e:?}"),
            CudaOpError::Buffer(why) => write!(f, "a tensor's device buffer: {why}"),
        }
    }
}

impl std::error::Error for CudaOpError {}
