//! Issue 15's first question, answered on the CPU: does burn 0.21's collective
//! (burn-collective, the engine a data-parallel run would use) all-reduce this model's
//! gradients across two peers? Two threads each take half of a batch, compute the
//! gradients of their half's mean loss and all-reduce them (mean); the result must equal
//! the gradients of the whole batch's mean loss, as data parallelism needs. Both peers
//! run on the CPU device (burn-collective's own tests do the same on Flex).

use std::sync::Arc;

use burn::collective::{finish_collective, register, CollectiveConfig, PeerId, ReduceOperation};
use burn::module::{ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use oomlab::backend::CpuBackend;
use oomlab::config::{load, ConfigSource};
use oomlab::data::{BatchSampler, Corpus};
use oomlab::model::Net;

type Inner = <CpuBackend as AutodiffBackend>::InnerBackend;

/// Every parameter's gradient, flattened, in visiting order.
struct Flat<'a>(&'a GradientsParams, Vec<Vec<f32>>);
impl<B: AutodiffBackend> ModuleVisitor<B> for Flat<'_> {
    fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
        let g = self
            .0
            .get::<B::InnerBackend, D>(p.id)
            .expect("a gradient for every parameter");
        self.1.push(g.into_data().to_vec::<f32>().expect("f32"));
    }
}

fn grads(model: &Net<CpuBackend>, batch: &oomlab::data::HostBatch) -> GradientsParams {
    let b = batch.to_device::<CpuBackend>(&Default::default());
    let loss = model.loss(b.inputs, b.targets);
    GradientsParams::from_grads(loss.backward(), model)
}

fn flat(model: &Net<CpuBackend>, g: &GradientsParams) -> Vec<Vec<f32>> {
    let mut v = Flat(g, Vec::new());
    model.visit(&mut v);
    v.1
}

#[test]
fn two_peers_all_reduce_the_gradients_of_the_whole_batch() {
    let (_, cfg) = load(
        &ConfigSource::Builtin("tiny".into()),
        &[("model.seq_len".into(), toml::Value::Integer(16))],
    )
    .unwrap();
    let corpus = Arc::new(Corpus::load(&cfg.data, 16).unwrap());
    let device = Default::default();
    CpuBackend::seed(&device, 7);
    let model = Net::<CpuBackend>::init(&cfg.model, corpus.vocab.len(), &device);
    let batch = BatchSampler::new(corpus, 16, 3).batch(0, 8);
    let whole = flat(&model, &grads(&model, &batch));

    let config = CollectiveConfig::default().with_num_devices(2);
    let peers: Vec<_> = (0..2usize)
        .map(|rank| {
            let (model, half, config) = (model.clone(), batch.rows(rank * 4, 4), config.clone());
            std::thread::spawn(move || {
                let id = PeerId::from(rank);
                register::<Inner>(id, Default::default(), config).unwrap();
                let g = grads(&model, &half);
                let own = flat(&model, &g);
                let g = g.all_reduce::<Inner>(id, ReduceOperation::Mean).unwrap();
                let out = flat(&model, &g);
                finish_collective::<Inner>(id).unwrap();
                (own, out)
            })
        })
        .collect();
    let close = |a: f32, b: f32| (a - b).abs() <= 1e-5 + 1e-4 * b.abs();
    for peer in peers {
        let (own, reduced) = peer.join().unwrap();
        // A half's own gradient is not the whole batch's: the all-reduce did the work.
        assert!(
            own.iter()
                .flatten()
                .zip(whole.iter().flatten())
                .any(|(a, b)| !close(*a, *b)),
            "a half-batch gradient already equals the whole batch's"
        );
        assert_eq!(reduced.len(), whole.len());
        for (r, w) in reduced.iter().zip(&whole) {
            for (a, b) in r.iter().zip(w) {
                assert!(close(*a, *b), "{a} vs {b}");
            }
        }
    }
}
