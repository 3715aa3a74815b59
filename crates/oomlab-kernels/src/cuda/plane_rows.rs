//! What oomlab's kernels share on the host (super::softmax_kernels, super::norm_kernels,
//! and the element-wise super::gelu_kernels and super::adamw_kernels): the dtypes they run by default, contiguous
//! inputs, outputs with packed rows, a count of the calls that ran on the kernels and a
//! line, once per reason, for those that did not, the header line; and for the kernels
//! that give one plane (32 threads) to each row of a matrix, the launch grid and the check
//! that the device's planes are that wide.

use super::error::CudaOpError::{self, Unfit};
use burn::tensor::{DType, Shape};
use burn_cubecl::tensor::CubeTensor;
use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;

/// Whether oomlab's kernels run a pass of `dtype` on CUDA where no variable says otherwise
/// (`kernels.attention_softmax`, `kernels.layer_norm`, `kernels.gelu`): f32 and bf16. f32 since
/// docs/results/2026-12-06-h200-row-kernels and 2026-12-06-h100-gelu-kernels; bf16 since
/// docs/results/2026-12-06-h100-bf16-kernels measured all three together over five seeds
/// (scripts/seed-spread.py's rule). f16's rows have not been measured on them.
pub(super) fn on_kernels_by_default(dtype: DType) -> bool {
    matches!(dtype, DType::F32 | DType::BF16)
}

/// `t` with contiguous memory (a copy only where it is not).
pub(super) fn contiguous(t: &CubeTensor<CudaRuntime>) -> CubeTensor<CudaRuntime> {
    burn_cubecl::kernel::into_contiguous(t.clone())
}

/// The plane width the kernels are launched for (NVIDIA's warp).
pub(super) const PLANE: u32 = 32;

/// Rows per cube (one plane each).
pub(super) const ROWS_PER_CUBE: u32 = 8;

/// Whether the device runs plane operations on planes of [`PLANE`] threads.
pub(super) fn planes_fit(t: &CubeTensor<CudaRuntime>) -> Result<(), CudaOpError> {
    let properties = t.client.properties();
    let hardware = &properties.hardware;
    let ops = properties
        .features
        .plane
        .contains(cubecl::ir::features::Plane::Ops);
    if ops && hardware.plane_size_min == PLANE && hardware.plane_size_max == PLANE {
        Ok(())
    } else {
        Err(Unfit(format!(
            "plane operations {ops}, plane sizes {}..={}",
            hardware.plane_size_min, hardware.plane_size_max
        )))
    }
}

/// The cube count and cube dimension for `rows` rows.
pub(super) fn row_grid(rows: u32) -> (CubeCount, CubeDim) {
    (
        CubeCount::Static(rows.div_ceil(ROWS_PER_CUBE), 1, 1),
        CubeDim::new_2d(PLANE, ROWS_PER_CUBE),
    )
}

/// An empty tensor of `shape` and `dtype` beside `like`, its rows packed: the kernels
/// write `row·width + column`. (cubecl's default layout pads rows whose bytes are not a
/// multiple of its alignment, e.g. 37 or 100 f32 values: tests/gpu/softmax.rs and
/// tests/gpu/norm.rs caught that.)
pub(super) fn packed_empty(
    like: &CubeTensor<CudaRuntime>,
    shape: Shape,
    dtype: DType,
) -> CubeTensor<CudaRuntime> {
    burn_cubecl::ops::numeric::empty_device_contiguous_dtype(
        like.client.clone(),
        like.device.clone(),
        shape,
        dtype,
    )
}

/// A kernel family's calls that ran on its kernels, for the GPU tests.
pub(super) struct Calls(std::sync::atomic::AtomicU64);

impl Calls {
    /// None yet.
    pub(super) const fn new() -> Calls {
        Calls(std::sync::atomic::AtomicU64::new(0))
    }

    /// One more.
    pub(super) fn add(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// How many so far.
    pub(super) fn get(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Says on stderr, once per reason, why `what` runs as burn's tensor operations where the
/// kernels were to run it.
pub(super) struct Fallback {
    what: &'static str,
    said: std::sync::Mutex<Vec<String>>,
}

impl Fallback {
    /// For `what` (e.g. "LayerNorm").
    pub(super) const fn new(what: &'static str) -> Fallback {
        Fallback {
            what,
            said: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// What a pass tried on the kernels gave: its output, counted in `calls`; or, where it
    /// could not run (`Err` says why, once per reason), `burn`'s.
    pub(super) fn or_burn<T>(
        &self,
        calls: &Calls,
        tried: Result<T, CudaOpError>,
        burn: impl FnOnce() -> T,
    ) -> T {
        match tried {
            Ok(out) => {
                calls.add();
                out
            }
            Err(why) => {
                self.say(&why.to_string());
                burn()
            }
        }
    }

    /// Says `why`, unless it was said before.
    pub(super) fn say(&self, why: &str) {
        if let Ok(mut said) = self.said.lock() {
            if !said.iter().any(|s| s == why) {
                eprintln!(
                    "oomlab: {} runs as burn's tensor operations: {why}",
                    self.what
                );
                said.push(why.to_string());
            }
        }
    }
}

/// One line for a CUDA run's header: where attention's softmax, LayerNorm, the
/// feed-forward layer's bias and GELU (super::gelu_kernels, element-wise kernels beside
/// these) and AdamW's update (super::adamw_kernels) run, as `kernels.attention_softmax`,
/// `kernels.layer_norm`, `kernels.gelu` and `kernels.adamw` say.
pub fn kernels_line() -> String {
    const ADAMW: &str = "kernels.adamw";
    // The unset case names the dtypes as [`on_kernels_by_default`] splits them.
    let dtypes = |on: bool| {
        let names: Vec<&str> = [
            ("f32", DType::F32),
            ("bf16", DType::BF16),
            ("f16", DType::F16),
        ]
        .into_iter()
        .filter(|&(_, dtype)| on_kernels_by_default(dtype) == on)
        .map(|(name, _)| name)
        .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    };
    let part = |what: &str, setting: Option<bool>, name: &str| {
        match setting {
        Some(true) => format!("{what}: oomlab's kernels ({name}=kernel)"),
        Some(false) => format!("{what}: burn's tensor operations ({name}=burn)"),
        None => format!(
            "{what}: oomlab's kernels for {}, burn's tensor operations for {} ({name}=kernel for every dtype, =burn for none)",
            dtypes(true),
            dtypes(false)
        ),
    }
    };
    let adamw = match crate::ops::adamw_setting() {
        Some(false) => format!("AdamW's update: burn's AdamW ({ADAMW}=burn)"),
        _ => format!(
            "AdamW's update: oomlab's kernel for f32 parameters (AMP's included), burn's AdamW for half-precision ones ({ADAMW}=burn for all)"
        ),
    };
    format!(
        "{}; {}; {}; {adamw}",
        part(
            "attention's softmax (its forward pass written out around it where it runs)",
            crate::ops::softmax_setting(),
            "kernels.attention_softmax"
        ),
        part(
            "LayerNorm",
            crate::ops::norm_setting(),
            "kernels.layer_norm"
        ),
        part(
            "the feed-forward layer's bias and GELU",
            crate::ops::gelu_setting(),
            "kernels.gelu"
        )
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_header_line_names_the_kernels_and_their_variables() {
        let line = super::kernels_line();
        assert!(line.contains("attention's softmax"), "{line}");
        assert!(line.contains("LayerNorm"), "{line}");
        assert!(line.contains("kernels.attention_softmax="), "{line}");
        assert!(line.contains("kernels.layer_norm="), "{line}");
        assert!(line.contains("kernels.gelu="), "{line}");
        assert!(line.contains("AdamW's update"), "{line}");
        assert!(line.contains("kernels.adamw="), "{line}");
    }
}
