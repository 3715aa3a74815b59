//! A product of two tensors as a custom operation of the backend burn's fusion wraps: the
//! fused kernels before it run first, and its output is a plain tensor to later ones. The
//! linear layers' products (super::product) and attention's batched ones (super::batched)
//! reach cuBLAS this way from burn's default CUDA backend.

use std::marker::PhantomData;

use burn::tensor::backend::Backend;
use burn::tensor::ops::FloatTensor;
use burn::tensor::Shape;
use burn_fusion::stream::{Operation, OperationStreams};
use burn_fusion::{Fusion, FusionBackend, FusionRuntime};
use burn_ir::{CustomOpIr, HandleContainer, OperationIr, OperationOutput, TensorIr};

/// What a two-operand custom operation computes on the backend fusion wraps.
pub trait TwoOperands<B: Backend>: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// The output of `a` and `b`.
    fn run(self, a: FloatTensor<B>, b: FloatTensor<B>) -> FloatTensor<B>;
}

/// `kind` of `a` and `b` (output `shape`, the dtype of `a`) as the custom operation `name`.
pub fn two_operands<B: FusionBackend, K: TwoOperands<B>>(
    name: &'static str,
    a: FloatTensor<Fusion<B>>,
    b: FloatTensor<Fusion<B>>,
    shape: Shape,
    kind: K,
) -> FloatTensor<Fusion<B>> {
    let client = a.client.clone();
    let streams = OperationStreams::with_inputs([&a, &b]);
    let out = TensorIr::uninit(client.create_empty_handle(), shape, a.dtype);
    let desc = CustomOpIr::new(name, &[a.into_ir(), b.into_ir()], &[out]);
    client
        .register(
            streams,
            OperationIr::Custom(desc.clone()),
            CustomOp::<B, K> {
                desc,
                kind,
                _backend: PhantomData,
            },
        )
        .output()
}

#[derive(Debug)]
struct CustomOp<B, K> {
    desc: CustomOpIr,
    kind: K,
    _backend: PhantomData<B>,
}

impl<B: FusionBackend, K: TwoOperands<B>> Operation<B::FusionRuntime> for CustomOp<B, K> {
    fn execute(
        &self,
        handles: &mut HandleContainer<<B::FusionRuntime as FusionRuntime>::FusionHandle>,
    ) {
        let ([a, b], [out]) = self.desc.as_fixed();
        let a = handles.get_float_tensor::<B>(a);
        let b = handles.get_float_tensor::<B>(b);
        handles.register_float_tensor::<B>(&out.id, self.kind.run(a, b));
    }
}
