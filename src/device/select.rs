//! The device policy: what `--device` gives on this machine.

use std::path::PathBuf;

use super::request::DeviceRequest;
use oomlab_kernels::cuda::{cuda_driver, locate_nvrtc, CudaDriver, CudaOpError, NvrtcStatus};

/// The device a run will use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selected {
    /// The CPU, burn's Flex backend.
    Cpu {
        /// Why the CPU was chosen when the user let oomlab choose (one line for stderr).
        note: Option<String>,
    },
    /// A CUDA device.
    Cuda {
        /// Device index.
        index: usize,
        /// Device name from the driver.
        name: String,
        /// NVRTC lives here and is not on the library path: restart with it added first.
        restart_with: Option<PathBuf>,
    },
}

/// Why the requested device cannot be used. These are the user's to fix (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    /// `--device cuda` on a machine without a working driver.
    #[error("--device {requested}: no usable CUDA driver ({reason}). Use --device cpu or --device auto to train on the CPU")]
    NoDriver {
        /// What was asked.
        requested: DeviceRequest,
        /// The driver's complaint.
        reason: CudaOpError,
    },
    /// An index past the last device.
    #[error("--device cuda:{index}: this machine has {count} CUDA device(s){}", if *count > 0 { format!("; use cuda:0 to cuda:{}", count - 1) } else { " visible (check CUDA_VISIBLE_DEVICES); use --device cpu or --device auto to train on the CPU".to_string() })]
    NoSuchDevice {
        /// What was asked.
        index: usize,
        /// How many exist.
        count: usize,
    },
    /// The GPU is there but NVRTC is not.
    #[error("--device {requested}: the GPU is there but NVRTC (libnvrtc.so), which burn's CUDA backend needs to compile kernels at run time, was not found. Searched: {}. Install the CUDA toolkit's NVRTC (e.g. the cuda-nvrtc package) or add its folder to LD_LIBRARY_PATH, e.g. export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64", searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    NoNvrtc {
        /// What was asked.
        requested: DeviceRequest,
        /// Folders searched.
        searched: Vec<PathBuf>,
    },
}

/// Applies the policy to this machine.
pub fn select(request: DeviceRequest) -> Result<Selected, DeviceError> {
    if request == DeviceRequest::Cpu {
        return Ok(Selected::Cpu { note: None });
    }
    let driver = cuda_driver();
    let nvrtc = match &driver {
        Ok(d) if d.devices > 0 => locate_nvrtc(),
        _ => NvrtcStatus::Loadable, // not looked at
    };
    decide(request, driver, nvrtc)
}

/// The policy itself, on given facts (so it can be tested on any machine).
pub(super) fn decide(
    request: DeviceRequest,
    driver: Result<CudaDriver, CudaOpError>,
    nvrtc: NvrtcStatus,
) -> Result<Selected, DeviceError> {
    let index = match request {
        DeviceRequest::Cpu => return Ok(Selected::Cpu { note: None }),
        DeviceRequest::Auto => 0,
        DeviceRequest::Cuda(n) => n,
    };
    let auto = request == DeviceRequest::Auto;
    let driver = match driver {
        Ok(d) => d,
        Err(reason) if auto => {
            return Ok(Selected::Cpu {
                note: Some(format!("no CUDA GPU ({reason}): training on the CPU")),
            })
        }
        Err(reason) => {
            return Err(DeviceError::NoDriver {
                requested: request,
                reason,
            })
        }
    };
    if index >= driver.devices {
        if auto {
            return Ok(Selected::Cpu {
                note: Some(
                    "no CUDA GPU (the driver reports no visible device; CUDA_VISIBLE_DEVICES may hide them): training on the CPU"
                        .into(),
                ),
            });
        }
        return Err(DeviceError::NoSuchDevice {
            index,
            count: driver.devices,
        });
    }
    let restart_with = match nvrtc {
        NvrtcStatus::Loadable => None,
        NvrtcStatus::FoundAt(dir) => Some(dir),
        NvrtcStatus::Missing { searched } if auto => {
            let err = DeviceError::NoNvrtc {
                requested: request,
                searched,
            };
            return Ok(Selected::Cpu {
                note: Some(format!("{err} -- training on the CPU meanwhile")),
            });
        }
        NvrtcStatus::Missing { searched } => {
            return Err(DeviceError::NoNvrtc {
                requested: request,
                searched,
            })
        }
    };
    Ok(Selected::Cuda {
        index,
        name: driver
            .names
            .get(index)
            .cloned()
            .unwrap_or_else(|| format!("CUDA device {index}")),
        restart_with,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu(n: usize) -> Result<CudaDriver, CudaOpError> {
        Ok(CudaDriver {
            devices: n,
            names: (0..n).map(|i| format!("GPU{i}")).collect(),
        })
    }

    #[test]
    fn auto_falls_back_to_the_cpu_and_says_why() {
        let s = decide(
            DeviceRequest::Auto,
            Err(CudaOpError::NoDriver),
            NvrtcStatus::Loadable,
        )
        .unwrap();
        match s {
            Selected::Cpu { note: Some(n) } => {
                assert!(n.contains("libcuda.so.1, cannot be loaded"), "{n}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn asking_for_cuda_without_a_driver_is_an_error() {
        let e = decide(
            DeviceRequest::Cuda(0),
            Err(CudaOpError::NoDriver),
            NvrtcStatus::Loadable,
        )
        .unwrap_err();
        assert!(e.to_string().contains("--device cpu"), "{e}");
    }

    #[test]
    fn a_device_index_past_the_last_lists_the_valid_ones() {
        let e = decide(DeviceRequest::Cuda(2), gpu(2), NvrtcStatus::Loadable).unwrap_err();
        assert!(e.to_string().contains("cuda:0 to cuda:1"), "{e}");
    }

    #[test]
    fn nvrtc_off_the_library_path_means_a_restart_with_its_folder() {
        let s = decide(
            DeviceRequest::Auto,
            gpu(1),
            NvrtcStatus::FoundAt("/usr/local/cuda-13.0/lib64".into()),
        )
        .unwrap();
        assert_eq!(
            s,
            Selected::Cuda {
                index: 0,
                name: "GPU0".into(),
                restart_with: Some("/usr/local/cuda-13.0/lib64".into())
            }
        );
    }

    #[test]
    fn missing_nvrtc_says_what_to_set() {
        let e = decide(
            DeviceRequest::Cuda(0),
            gpu(1),
            NvrtcStatus::Missing {
                searched: vec!["/usr/local/cuda/lib64".into()],
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("LD_LIBRARY_PATH"), "{e}");
    }
}
