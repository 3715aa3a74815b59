//! Optimizer-state offload changes where AdamW's moments live, not the training: on the CPU
//! backend the host update is burn's AdamW, operation for operation, so the weights after
//! each step are the same bits as with burn's AdamW; a checkpoint of the host moments
//! restores the run exactly; the strategy is refused where there is nothing to offload.

use std::sync::Arc;

use oomlab::backend::CpuBackend;
use oomlab::config::{load, ConfigSource, RunConfig};
use oomlab::data::Corpus;
use oomlab::model::flat_params;
use oomlab::strategy::for_split;
use oomlab::train::Trainer;

use crate::util::{assert_exit, flat, oomlab, steps, train_json};

fn config(offload: bool) -> RunConfig {
    let overrides = vec![
        // A weight decay, so that the decoupled decay is part of the comparison.
        ("optim.weight_decay".to_string(), toml::Value::Float(0.01)),
        ("train.batch".to_string(), toml::Value::Integer(8)),
        ("model.seq_len".to_string(), toml::Value::Integer(32)),
        (
            "train.offload_optimizer".to_string(),
            toml::Value::Boolean(offload),
        ),
    ];
    load(&ConfigSource::Builtin("tiny".into()), &overrides)
        .unwrap()
        .1
}

fn trainer(cfg: &RunConfig) -> Trainer<CpuBackend> {
    let corpus = Arc::new(Corpus::load(&cfg.data, cfg.model.seq_len).unwrap());
    let plan = for_split(cfg.train.split).plan(cfg.train.batch);
    Trainer::<CpuBackend>::new(cfg, corpus, plan, Default::default())
}

#[test]
fn the_host_update_gives_burns_adamw_bit_for_bit() {
    let (mut burn, mut host) = (trainer(&config(false)), trainer(&config(true)));
    assert_eq!(flat_params(burn.model()), flat_params(host.model()));
    for step in 0..3 {
        burn.step(step).unwrap();
        host.step(step).unwrap();
        let (a, b) = (flat_params(burn.model()), flat_params(host.model()));
        let same = a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
        assert!(same, "weights differ after step {step}");
    }
}

#[test]
fn a_checkpoint_of_the_host_moments_resumes_exactly() {
    let cfg = config(true);
    let mut whole = trainer(&cfg);
    whole.step(0).unwrap();
    whole.step(1).unwrap();
    let (model, optim) = whole.snapshot().unwrap();
    whole.step(2).unwrap();
    let mut resumed = trainer(&cfg);
    resumed.restore(model, optim, None).unwrap();
    resumed.step(2).unwrap();
    assert_eq!(flat_params(whole.model()), flat_params(resumed.model()));
    // The bytes of another optimizer's state are refused, not misread.
    let mut other = trainer(&cfg);
    let (model, _) = whole.snapshot().unwrap();
    assert!(other.restore(model, b"not moments".to_vec(), None).is_err());
}

#[test]
fn the_strategy_trains_like_the_baseline_and_says_where_the_moments_are() {
    let dir = tempfile::tempdir().unwrap();
    let (base, off) = (dir.path().join("base"), dir.path().join("off"));
    let args = ["--config", "tiny", "--max-steps", "3"];
    train_json(&base, &args);
    let summary = train_json(
        &off,
        &[&args[..], &["--strategy", "offload-optimizer"]].concat(),
    );
    assert_eq!(summary["strategy"]["name"], "offload-optimizer");
    assert_eq!(summary["offload_optimizer"], true);
    let loss = |d| {
        steps(d)
            .iter()
            .map(|s| s["loss"].as_f64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(loss(&base), loss(&off));
    let text = std::fs::read_to_string(off.join("summary.txt")).unwrap();
    assert!(
        flat(&text).contains("are in host memory (offload-optimizer)"),
        "{text}"
    );
}

#[test]
fn offload_is_refused_without_adamw_or_with_shard_optimizer() {
    let dir = tempfile::tempdir().unwrap();
    let out = oomlab()
        .args([
            "train",
            "--device",
            "cpu",
            "--config",
            "tiny",
            "--max-steps",
            "1",
        ])
        .args(["--offload-optimizer", "--set", "optim.kind=sgd", "--out"])
        .arg(dir.path().join("sgd"))
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let err = flat(&String::from_utf8_lossy(&out.stderr));
    assert!(err.contains("keeps no state to move"), "{err}");
    let out = oomlab()
        .args([
            "train",
            "--devices",
            "cpu,cpu",
            "--config",
            "tiny",
            "--max-steps",
            "1",
        ])
        .args([
            "--strategy",
            "shard-optimizer",
            "--offload-optimizer",
            "--out",
        ])
        .arg(dir.path().join("shard"))
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let err = flat(&String::from_utf8_lossy(&out.stderr));
    assert!(
        err.contains("cannot be combined with shard-optimizer"),
        "{err}"
    );
}
