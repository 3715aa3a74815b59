//! The operations, one backend trait each, whose default is burn's plain tensor
//! operations (the CPU's path and the reference of every faster one), with their custom
//! operations for burn's fusion backend; [`crate::cuda`] has them on cuBLAS and oomlab's
//! kernels.
//!
//! - [`ProductBackend`]: a linear layer's products, and attention's batched ones;
//! - [`NormKernelBackend`]: LayerNorm over rows, both passes;
//! - [`GeluKernelBackend`]: the feed-forward layer's bias and GELU, both passes;
//! - [`SoftmaxBackend`]: attention's causal softmax and its gradient;
//! - [`AdamWKernelBackend`]: AdamW's update of one parameter.

mod adamw_kernel;
mod column_sum;
mod fusion_op;
mod gelu_kernel;
mod norm_kernel;
mod norm_rows;
mod product;
mod product_fusion;
mod product_layout;
mod softmax;

pub use adamw_kernel::{adamw_setting, burn_adamw_update, AdamWKernelBackend, AdamWScalars};
pub use column_sum::{add_to_rows, column_sum, split, split_setting};
pub use fusion_op::{custom_op, Operands};
pub use gelu_kernel::{burn_bias_gelu, burn_bias_gelu_backward, gelu_setting, GeluKernelBackend};
pub use norm_kernel::{
    burn_layer_norm, burn_layer_norm_backward, norm_backward, norm_forward, norm_setting,
    NormKernelBackend,
};
pub use norm_rows::{backward_rows, forward_rows};
pub use product::{
    apart_into_and_new, apart_into_twice, batched_setting, burn_batched, burn_batched_into,
    burn_product, custom_products_setting, linear_grads_apart, linear_grads_together,
    linear_setting, Form, ProductBackend,
};
pub use product_layout::{narrow_heads, Operand, Place, Rows, Span};
pub use softmax::{
    burn_causal_softmax, burn_softmax_grad, causal_softmax, future_mask, softmax_grad,
    softmax_setting, SoftmaxBackend,
};

/// `t` in f32: unchanged when it already is, else the (differentiable) cast.
pub fn in_f32<B: burn::tensor::backend::Backend, const D: usize>(
    t: burn::tensor::Tensor<B, D>,
) -> burn::tensor::Tensor<B, D> {
    in_dtype(t, burn::tensor::DType::F32)
}

/// `t` in `dtype`: unchanged when it already is, else the (differentiable) cast.
pub fn in_dtype<B: burn::tensor::backend::Backend, const D: usize>(
    t: burn::tensor::Tensor<B, D>,
    dtype: burn::tensor::DType,
) -> burn::tensor::Tensor<B, D> {
    if t.dtype() == dtype {
        t
    } else {
        t.cast(burn::tensor::FloatDType::from(dtype))
    }
}
