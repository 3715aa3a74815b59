//! A kernel of N tensors giving M as a custom operation of the backend burn's fusion wraps: the
//! fused kernels before it run first, and its output is a plain tensor to later ones. The
//! linear layers' products (super::product), attention's batched ones (super::batched),
//! its softmax kernels (super::softmax), LayerNorm's (super::norm_kernel) and the
//! feed-forward layer's bias and GELU (super::gelu_kernel) reach cuBLAS and oomlab's own
//! kernels this way from burn's default CUDA backend.

use std::marker::PhantomData;

use burn::tensor::backend::Backend;
use burn::tensor::ops::FloatTensor;
use burn::tensor::{DType, Shape};
use burn_fusion::stream::{Operation, OperationStreams};
use burn_fusion::{Fusion, FusionBackend, FusionRuntime};
use burn_ir::{CustomOpIr, HandleContainer, OperationIr, OperationOutput, TensorIr, TensorStatus};

/// What a custom operation of N operands and M outputs computes on the backend fusion
/// wraps.
pub trait Operands<B: Backend, const N: usize, const M: usize>:
    Copy + Send + Sync + std::fmt::Debug + 'static
{
    /// The outputs of `inputs`.
    fn run(self, inputs: [FloatTensor<B>; N]) -> [FloatTensor<B>; M];

    /// The outputs of `inputs`, told which inputs no other tensor shares (fusion's
    /// read-write status: the operation holds the only reference, so it may write into
    /// that input's buffer). By default [`Self::run`].
    fn run_owned(self, inputs: [FloatTensor<B>; N], owned: [bool; N]) -> [FloatTensor<B>; M] {
        let _ = owned;
        self.run(inputs)
    }
}

/// `kind` of `inputs` (the outputs' shapes and dtypes: `outputs`) as the custom operation
/// `name`.
pub fn custom_op<B: FusionBackend, K: Operands<B, N, M>, const N: usize, const M: usize>(
    name: &'static str,
    inputs: [FloatTensor<Fusion<B>>; N],
    outputs: [(Shape, DType); M],
    kind: K,
) -> [FloatTensor<Fusion<B>>; M] {
    let client = inputs[0].client.clone();
    let streams = OperationStreams::with_inputs(&inputs);
    let outs: Vec<TensorIr> = outputs
        .into_iter()
        .map(|(shape, dtype)| TensorIr::uninit(client.create_empty_handle(), shape, dtype))
        .collect();
    let irs: Vec<TensorIr> = inputs.into_iter().map(|t| t.into_ir()).collect();
    let desc = CustomOpIr::new(name, &irs, &outs);
    client
        .register(
            streams,
            OperationIr::Custom(desc.clone()),
            CustomOp::<B, K, N, M> {
                desc,
                kind,
                _backend: PhantomData,
            },
        )
        .outputs::<M>()
}

#[derive(Debug)]
struct CustomOp<B, K, const N: usize, const M: usize> {
    desc: CustomOpIr,
    kind: K,
    _backend: PhantomData<B>,
}

impl<B: FusionBackend, K: Operands<B, N, M>, const N: usize, const M: usize>
    Operation<B::FusionRuntime> for CustomOp<B, K, N, M>
{
    fn execute(
        &self,
        handles: &mut HandleContainer<<B::FusionRuntime as FusionRuntime>::FusionHandle>,
    ) {
        let (inputs, outs) = self.desc.as_fixed::<N, M>();
        let owned = inputs
            .each_ref()
            .map(|t| t.status == TensorStatus::ReadWrite);
        let inputs = inputs.each_ref().map(|t| handles.get_float_tensor::<B>(t));
        for (out, t) in outs.iter().zip(self.kind.run_owned(inputs, owned)) {
            handles.register_float_tensor::<B>(&out.id, t);
        }
    }
}
