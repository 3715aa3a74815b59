//! Reading a config (a file or a built-in one), layering overrides on it, and checking it.

use std::path::{Path, PathBuf};

use super::resolved::*;
use super::schema::ConfigFile;
use super::ConfigError;
use crate::words::{PoolMode, Precision, Strategy};

/// Configs compiled into the binary, so `--config gpu` works from any directory.
/// They are the files in `configs/`.
pub const BUILTIN_CONFIGS: &[(&str, &str)] = &[
    ("tiny", include_str!("../../configs/tiny.toml")),
    ("gpu", include_str!("../../configs/gpu.toml")),
    ("h200", include_str!("../../configs/h200.toml")),
];

/// The text of a built-in config, by name.
pub fn builtin_config(name: &str) -> Option<&'static str> {
    BUILTIN_CONFIGS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// Where a configuration comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// One of [`BUILTIN_CONFIGS`].
    Builtin(String),
    /// A TOML file.
    File(PathBuf),
}

impl ConfigSource {
    /// `--config X`: a path if such a file exists or X ends in `.toml`, else a built-in name.
    pub fn from_arg(arg: &str) -> Self {
        let path = Path::new(arg);
        if path.exists() || arg.ends_with(".toml") || builtin_config(arg).is_none() {
            ConfigSource::File(path.to_path_buf())
        } else {
            ConfigSource::Builtin(arg.to_string())
        }
    }

    fn origin(&self) -> String {
        match self {
            ConfigSource::Builtin(name) => {
                format!("built-in config '{name}' (configs/{name}.toml)")
            }
            ConfigSource::File(p) => p.display().to_string(),
        }
    }
}

/// Sets `section.key = value` in a parsed TOML document, creating the section if needed.
pub fn apply_override(
    doc: &mut toml::Table,
    key: &str,
    value: toml::Value,
) -> Result<(), ConfigError> {
    let Some((section, field)) = key.split_once('.') else {
        return Err(ConfigError::Override {
            given: format!("--set {key}"),
            reason: "keys are written section.key, e.g. train.batch=64 or model.d_model=256".into(),
        });
    };
    let entry = doc
        .entry(section.to_string())
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    match entry {
        toml::Value::Table(t) => {
            t.insert(field.to_string(), value);
            Ok(())
        }
        _ => Err(ConfigError::Override {
            given: format!("--set {key}"),
            reason: format!("`{section}` is not a section"),
        }),
    }
}

/// A configuration being layered: the file, then `--set` overrides, then the named flags
/// (each applied to the typed [`ConfigFile`] by the command line), then [`Draft::validate`].
#[derive(Debug, Clone)]
pub struct Draft {
    /// The values so far.
    pub file: ConfigFile,
    origin: String,
    /// Keys set on the command line, with the flag as the user wrote it, latest last, so
    /// that a message about a key names what set it.
    given: Vec<(String, String)>,
    /// (key, flag) of the flags that can set a key, for messages about values from the
    /// file.
    flag_names: Vec<(String, String)>,
}

impl Draft {
    /// Reads `source` and applies `set` (dotted key, value) in order. `flag_names` are
    /// `(key, --flag)` of the flags that can set each key, for messages.
    pub fn read(
        source: &ConfigSource,
        set: &[(String, toml::Value)],
        flag_names: Vec<(String, String)>,
    ) -> Result<Self, ConfigError> {
        let origin = source.origin();
        let text = match source {
            ConfigSource::Builtin(name) => builtin_config(name)
                .ok_or_else(|| ConfigError::Parse {
                    origin: origin.clone(),
                    message: format!(
                        "no built-in config named '{name}'; built-in: {}",
                        builtin_names()
                    ),
                })?
                .to_string(),
            ConfigSource::File(path) => {
                std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: format!("{} (built-in configs: {})", path.display(), builtin_names()),
                    source,
                })?
            }
        };
        let mut doc: toml::Table =
            text.parse()
                .map_err(|e: toml::de::Error| ConfigError::Parse {
                    origin: origin.clone(),
                    message: e.to_string(),
                })?;
        let mut given = Vec::new();
        for (key, value) in set {
            apply_override(&mut doc, key, value.clone())?;
            given.push((key.clone(), format!("--set {key}={value}")));
        }
        let mut draft = Draft {
            file: ConfigFile::default(),
            origin,
            given,
            flag_names,
        };
        draft.file = draft.deserialize_table(doc)?;
        Ok(draft)
    }

    /// Every dotted key a config can have.
    pub fn keys() -> Vec<String> {
        let mut file = ConfigFile::default();
        file.data.file = Some(String::new());
        file.entries().into_iter().map(|(k, _)| k).collect()
    }

    /// Applies one command-line flag: `edit` changes the typed values, `key` is the dotted
    /// key it sets and `flag` what the user wrote (`--batch 64`), for messages.
    pub fn flag(&mut self, flag: impl Into<String>, key: &str, edit: impl FnOnce(&mut ConfigFile)) {
        edit(&mut self.file);
        self.given.push((key.to_string(), flag.into()));
    }

    /// Checks every value; returns the final file (written into the run folder) and the
    /// resolved configuration.
    pub fn validate(self) -> Result<(ConfigFile, RunConfig), ConfigError> {
        let origin = if self.given.is_empty() {
            self.origin.clone()
        } else {
            format!("{} with command-line overrides", self.origin)
        };
        let run = validate(&self.file, &self.checker(&origin))?;
        let mut file = self.file;
        // The resolved file says what runs: pure half's default dtype (bf16) written out.
        if let PrecisionMode::Pure(h) = run.train.precision {
            file.train.precision = match h {
                HalfDtype::Bf16 => Precision::Bf16,
                HalfDtype::F16 => Precision::F16,
            };
        }
        Ok((file, run))
    }

    /// Messages about this draft's keys, for a source described as `origin`.
    fn checker<'a>(&'a self, origin: &'a str) -> Checker<'a> {
        Checker {
            origin,
            given: &self.given,
            flag_names: &self.flag_names,
        }
    }

    fn deserialize_table(&self, doc: toml::Table) -> Result<ConfigFile, ConfigError> {
        // Through text, so that an error has a position and the key can be named.
        let text = toml::to_string(&doc).map_err(|e| ConfigError::Parse {
            origin: self.origin.clone(),
            message: e.to_string(),
        })?;
        toml::from_str(&text).map_err(|e: toml::de::Error| {
            let c = self.checker(&self.origin);
            match e.span().and_then(|span| key_at(&text, span.start)) {
                Some((key, value)) => c.invalid(&key, format!("= {value}: {}", e.message())),
                None => ConfigError::Parse {
                    origin: self.origin.clone(),
                    message: e.message().to_string(),
                },
            }
        })
    }
}

/// The dotted key and the value of the `key = value` line holding byte `pos` of a TOML
/// text.
fn key_at(text: &str, pos: usize) -> Option<(String, String)> {
    let before = text.get(..pos)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(line_start..)?.lines().next()?;
    let (key, value) = line.split_once('=')?;
    let section = before[..line_start]
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')));
    let key = match section {
        Some(s) => format!("{s}.{}", key.trim()),
        None => key.trim().to_string(),
    };
    Some((key, value.trim().to_string()))
}

/// Reads `source`, applies `set` overrides (dotted key, value) in order, and validates.
///
/// Returns the merged file (to be written into the run folder as the resolved config)
/// and the checked [`RunConfig`].
pub fn load(
    source: &ConfigSource,
    set: &[(String, toml::Value)],
) -> Result<(ConfigFile, RunConfig), ConfigError> {
    Draft::read(source, set, Vec::new())?.validate()
}

fn builtin_names() -> String {
    BUILTIN_CONFIGS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

struct Checker<'a> {
    origin: &'a str,
    given: &'a [(String, String)],
    flag_names: &'a [(String, String)],
}

impl Checker<'_> {
    fn invalid(&self, key: &str, reason: impl Into<String>) -> ConfigError {
        let from = self
            .given
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, f)| format!("from {f}"));
        let flags: Vec<&str> = self
            .flag_names
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, f)| f.as_str())
            .collect();
        let flag_part = (!flags.is_empty()).then(|| format!("flag {}", flags.join(", ")));
        let parts: Vec<String> = [from, flag_part].into_iter().flatten().collect();
        let flag = if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        };
        ConfigError::Invalid {
            origin: self.origin.to_string(),
            key: key.to_string(),
            flag,
            reason: reason.into(),
        }
    }

    fn positive(&self, key: &str, v: i64) -> Result<usize, ConfigError> {
        if v <= 0 {
            return Err(self.invalid(key, format!("= {v}: must be a positive integer")));
        }
        usize::try_from(v).map_err(|_| self.invalid(key, format!("= {v}: too large")))
    }

    fn non_negative_seed(&self, key: &str, v: i64) -> Result<u64, ConfigError> {
        u64::try_from(v).map_err(|_| self.invalid(key, format!("= {v}: must be 0 or more")))
    }

    fn rate(&self, key: &str, v: f64, lo: f64, hi: f64) -> Result<f64, ConfigError> {
        if !(v.is_finite() && v >= lo && v <= hi) {
            return Err(self.invalid(key, format!("= {v}: must be between {lo} and {hi}")));
        }
        Ok(v)
    }
}

fn divisors(n: usize) -> String {
    (1..=n)
        .filter(|d| n % d == 0)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn validate(f: &ConfigFile, c: &Checker) -> Result<RunConfig, ConfigError> {
    let kind = f.model.kind;
    let d_model = c.positive("model.d_model", f.model.d_model)?;
    let n_heads = c.positive("model.n_heads", f.model.n_heads)?;
    if kind == ModelKind::Gpt && d_model % n_heads != 0 {
        return Err(c.invalid(
            "model.n_heads",
            format!(
                "= {n_heads} does not divide model.d_model = {d_model}; divisors of {d_model}: {}",
                divisors(d_model)
            ),
        ));
    }
    let mut model = ModelSpec {
        kind,
        d_model,
        n_layers: c.positive("model.n_layers", f.model.n_layers)?,
        n_heads,
        d_ff: c.positive("model.d_ff", f.model.d_ff)?,
        seq_len: c.positive("model.seq_len", f.model.seq_len)?,
        dropout: c.rate("model.dropout", f.model.dropout, 0.0, 0.99)?,
        attention: f.model.attention,
        norms_in_f32: false,
    };

    let data = match &f.data.file {
        Some(path) if path.is_empty() => {
            return Err(c.invalid("data.file", "is empty: give a path to a UTF-8 text file"))
        }
        Some(path) => DataSource::File(PathBuf::from(path)),
        None => DataSource::Generated {
            task: f.data.task,
            chars: c.positive("data.corpus_chars", f.data.corpus_chars)?,
            seed: c.non_negative_seed("data.seed", f.data.seed)?,
        },
    };

    let optim = OptimSpec {
        kind: f.optim.kind,
        lr: {
            let lr = f.optim.lr;
            if !(lr.is_finite() && lr > 0.0) {
                return Err(c.invalid("optim.lr", format!("= {lr}: must be a positive number")));
            }
            lr
        },
        weight_decay: c.rate("optim.weight_decay", f.optim.weight_decay, 0.0, 1.0)?,
    };

    let batch = c.positive("train.batch", f.train.batch)?;
    // The preset: a strategy name sets the split and the settings it stands for.
    let preset = f.train.strategy;
    let split = match preset {
        Strategy::Baseline
        | Strategy::Checkpointing
        | Strategy::Half
        | Strategy::ShardOptimizer
        | Strategy::OffloadOptimizer => Split::Whole,
        Strategy::GradAccum => {
            let steps = c.positive("train.grad_accum_steps", f.train.grad_accum_steps)?;
            if batch % steps != 0 {
                return Err(c.invalid(
                    "train.grad_accum_steps",
                    format!(
                        "= {steps} does not divide train.batch = {batch}; values that do: {}",
                        divisors(batch)
                    ),
                ));
            }
            Split::GradAccum { steps }
        }
        Strategy::AutoHalve => {
            let a = &f.auto_halve;
            let start_steps = c.positive("auto_halve.start_steps", a.start_steps)?;
            if batch % start_steps != 0 {
                return Err(c.invalid(
                    "auto_halve.start_steps",
                    format!(
                        "= {start_steps} does not divide train.batch = {batch}; values that do: {}",
                        divisors(batch)
                    ),
                ));
            }
            let min_micro_batch = c.positive("auto_halve.min_micro_batch", a.min_micro_batch)?;
            if min_micro_batch > batch / start_steps {
                return Err(c.invalid(
                    "auto_halve.min_micro_batch",
                    format!(
                        "= {min_micro_batch} is larger than the starting micro-batch {} (train.batch / auto_halve.start_steps)",
                        batch / start_steps
                    ),
                ));
            }
            Split::AutoHalve(AutoHalveSpec {
                start_steps,
                keep_effective_batch: a.keep_effective_batch,
                search: a.search,
                min_micro_batch,
                max_search_attempts: usize::try_from(a.max_search_attempts).map_err(|_| {
                    c.invalid(
                        "auto_halve.max_search_attempts",
                        format!("= {}: must be 0 or more", a.max_search_attempts),
                    )
                })?,
            })
        }
    };
    let half = match f.train.precision {
        Precision::F32 => None,
        Precision::Bf16 => Some(HalfDtype::Bf16),
        Precision::F16 => Some(HalfDtype::F16),
    };
    let precision = match (preset, half) {
        // f32 asked for on the command line contradicts the preset: say so.
        (Strategy::Half, None) if c.given.iter().any(|(k, _)| k == "train.precision") => {
            return Err(c.invalid(
                "train.precision",
                "= \"f32\" with strategy \"half\": pure half is bf16 or f16; leave out --precision for bf16, or give --precision bf16 or f16",
            ))
        }
        // Otherwise the preset's precision: bf16 (f32's range, so no loss scaling).
        (Strategy::Half, None) => PrecisionMode::Pure(HalfDtype::Bf16),
        (Strategy::Half, Some(h)) => PrecisionMode::Pure(h),
        (_, Some(h)) => PrecisionMode::Mixed(h),
        (_, None) => PrecisionMode::F32,
    };
    model.norms_in_f32 = f.model.norm_in_f32;
    let ls = &f.loss_scale;
    let loss_scale = if half == Some(HalfDtype::F16) && ls.enabled {
        if !(ls.init_scale.is_finite()
            && ls.init_scale > 0.0
            && ls.init_scale <= f64::from(f32::MAX))
        {
            return Err(c.invalid(
                "loss_scale.init_scale",
                format!("= {}: must be a positive f32 number", ls.init_scale),
            ));
        }
        if !(ls.growth_factor.is_finite() && ls.growth_factor > 1.0) {
            return Err(c.invalid(
                "loss_scale.growth_factor",
                format!("= {}: must be more than 1", ls.growth_factor),
            ));
        }
        if !(ls.backoff_factor > 0.0 && ls.backoff_factor < 1.0) {
            return Err(c.invalid(
                "loss_scale.backoff_factor",
                format!(
                    "= {}: must be between 0 and 1 (exclusive)",
                    ls.backoff_factor
                ),
            ));
        }
        Some(LossScaleSpec {
            init_scale: ls.init_scale,
            growth_factor: ls.growth_factor,
            backoff_factor: ls.backoff_factor,
            growth_interval: c.positive("loss_scale.growth_interval", ls.growth_interval)?,
        })
    } else {
        None
    };
    let memory_mode = match f.memory.mode {
        PoolMode::Growth => MemoryMode::Growth,
        PoolMode::Prealloc => {
            let fraction = f.memory.prealloc_fraction;
            if !(fraction > 0.0 && fraction < 1.0) {
                return Err(c.invalid(
                    "memory.prealloc_fraction",
                    format!("= {fraction}: must be between 0 and 1 (exclusive), e.g. 0.9"),
                ));
            }
            MemoryMode::Prealloc { fraction }
        }
        PoolMode::Exact => MemoryMode::Exact,
    };
    let train = TrainSpec {
        preset,
        split,
        shard_optimizer: preset == Strategy::ShardOptimizer,
        batch,
        max_steps: c.positive("train.max_steps", f.train.max_steps)?,
        seed: c.non_negative_seed("train.seed", f.train.seed)?,
        empty_cache_every: match f.train.empty_cache_every {
            0 => None,
            n => Some(c.positive("train.empty_cache_every", n)?),
        },
        precision,
        loss_scale,
        memory_mode,
        host_heap: f.memory.host_heap,
        bucket_elements: match c.non_negative_seed("train.bucket_mib", f.train.bucket_mib)? {
            0 => None,
            mib => Some(
                usize::try_from(mib)
                    .ok()
                    .and_then(|m| m.checked_mul(1 << 18))
                    .ok_or_else(|| c.invalid("train.bucket_mib", format!("= {mib}: too large")))?,
            ),
        },
        checkpointing: f.train.checkpointing || preset == Strategy::Checkpointing,
        offload_optimizer: f.train.offload_optimizer || preset == Strategy::OffloadOptimizer,
    };
    if train.offload_optimizer && train.shard_optimizer {
        return Err(c.invalid(
            "train.offload_optimizer",
            "cannot be combined with shard-optimizer: each device would both split its moments with the others and move them to host memory; choose one",
        ));
    }
    if train.offload_optimizer && f.optim.kind != OptimKind::AdamW {
        return Err(c.invalid(
            "train.offload_optimizer",
            "moves AdamW's moments to host memory; this optimizer keeps no state to move: use optim.kind = \"adamw\" or turn it off",
        ));
    }
    if let (MemoryMode::Prealloc { .. }, Some(_)) = (memory_mode, train.empty_cache_every) {
        return Err(c.invalid(
            "train.empty_cache_every",
            "cannot be combined with memory.mode = \"prealloc\": a cleanup returns the preallocated pages to the driver; choose one",
        ));
    }

    Ok(RunConfig {
        model,
        data,
        optim,
        train,
        kernels: f.kernels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(overrides: &[(&str, toml::Value)]) -> Result<RunConfig, ConfigError> {
        let o: Vec<_> = overrides
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        load(&ConfigSource::Builtin("tiny".into()), &o).map(|(_, r)| r)
    }

    #[test]
    fn every_builtin_config_is_valid() {
        for (name, _) in BUILTIN_CONFIGS {
            load(&ConfigSource::Builtin(name.to_string()), &[])
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn overrides_win_over_the_file() {
        let run = with(&[("train.batch", toml::Value::Integer(8))]).unwrap();
        assert_eq!(run.train.batch, 8);
    }

    #[test]
    fn grad_accum_steps_that_do_not_divide_the_batch_list_the_ones_that_do() {
        let err = with(&[
            ("train.strategy", toml::Value::String("grad-accum".into())),
            ("train.batch", toml::Value::Integer(12)),
            ("train.grad_accum_steps", toml::Value::Integer(5)),
        ])
        .unwrap_err()
        .to_string();
        assert!(err.contains("train.grad_accum_steps"), "{err}");
        assert!(err.contains("1, 2, 3, 4, 6, 12"), "{err}");
    }

    #[test]
    fn negative_sizes_name_the_key() {
        let err = with(&[("model.d_model", toml::Value::Integer(-3))])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("model.d_model") && err.contains("positive"),
            "{err}"
        );
    }

    #[test]
    fn unknown_keys_are_rejected_by_name() {
        let err = with(&[("train.bacth", toml::Value::Integer(3))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("bacth"), "{err}");
    }

    #[test]
    fn a_misspelled_word_names_the_key_and_the_words_that_exist() {
        let err = with(&[("train.strategy", toml::Value::String("grad_accum".into()))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("`train.strategy`"), "{err}");
        assert!(err.contains("--set train.strategy"), "{err}");
        assert!(
            err.contains("\"grad_accum\"") && err.contains("`grad-accum`"),
            "{err}"
        );
    }

    #[test]
    fn a_flag_names_itself_in_a_message_about_its_key() {
        let mut d = Draft::read(&ConfigSource::Builtin("tiny".into()), &[], vec![]).unwrap();
        d.flag("--batch 12", "train.batch", |f| f.train.batch = 12);
        d.flag("--steps 5", "train.grad_accum_steps", |f| {
            f.train.grad_accum_steps = 5;
            f.train.strategy = crate::words::Strategy::GradAccum;
        });
        let err = d.validate().unwrap_err().to_string();
        assert!(
            err.contains("`train.grad_accum_steps` (from --steps 5)"),
            "{err}"
        );
    }

    #[test]
    fn a_strategy_name_is_a_preset_of_a_split_and_settings() {
        let word = |w: &str| toml::Value::String(w.into());
        let of = |w: &str| with(&[("train.strategy", word(w))]).unwrap().train;
        let t = of("checkpointing");
        assert_eq!((t.split, t.checkpointing), (Split::Whole, true));
        let t = of("half");
        assert_eq!(t.split, Split::Whole);
        assert_eq!(t.precision, PrecisionMode::Pure(HalfDtype::Bf16));
        // The resolved file (a run folder's config.toml) says bf16 too.
        let (file, _) = load(
            &ConfigSource::Builtin("tiny".into()),
            &[("train.strategy".to_string(), word("half"))],
        )
        .unwrap();
        assert_eq!(file.train.precision, Precision::Bf16);
        let t = with(&[
            ("train.strategy", word("half")),
            ("train.precision", word("f16")),
        ])
        .unwrap()
        .train;
        assert_eq!(t.precision, PrecisionMode::Pure(HalfDtype::F16));
        let refused = with(&[
            ("train.strategy", word("half")),
            ("train.precision", word("f32")),
        ]);
        assert!(refused.is_err(), "an explicit f32 contradicts half");
        let t = of("shard-optimizer");
        assert_eq!((t.split, t.shard_optimizer), (Split::Whole, true));
        let t = of("baseline");
        assert!(!t.checkpointing && !t.shard_optimizer);
        assert_eq!(t.precision, PrecisionMode::F32);
        assert!(matches!(of("auto-halve").split, Split::AutoHalve(_)));
        // The summary's record keeps the shape it had when strategies were one enum.
        for (w, json) in [
            ("baseline", r#"{"name":"baseline"}"#),
            ("checkpointing", r#"{"name":"checkpointing"}"#),
            ("half", r#"{"name":"half"}"#),
            ("shard-optimizer", r#"{"name":"shard-optimizer"}"#),
        ] {
            let t = of(w);
            let record = crate::results::StrategySpec::of(t.preset, t.split);
            assert_eq!(serde_json::to_string(&record).unwrap(), json);
        }
    }

    #[test]
    fn heads_must_divide_width() {
        let err = with(&[("model.n_heads", toml::Value::Integer(5))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("model.n_heads"), "{err}");
    }

    #[test]
    fn a_path_that_exists_is_a_file_and_a_known_name_is_builtin() {
        assert_eq!(
            ConfigSource::from_arg("tiny"),
            ConfigSource::Builtin("tiny".into())
        );
        assert!(matches!(
            ConfigSource::from_arg("configs/tiny.toml"),
            ConfigSource::File(_)
        ));
        assert!(matches!(
            ConfigSource::from_arg("nope"),
            ConfigSource::File(_)
        ));
    }
}
