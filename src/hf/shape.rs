//! A Hugging Face decoder-only model's shapes, read from its `config.json` (or one of the
//! built-in shapes in `configs/hf/`): what the memory estimate needs, nothing else (no
//! weights, no network).

use serde::Serialize;
use serde_json::Value;

/// Why a config.json cannot be estimated.
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    /// The file is not there or not JSON.
    #[error("cannot read {path}: {why} (give the config.json of a Hugging Face model, e.g. from its Hub page's 'Files' tab)")]
    Read {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// A field the estimate needs is missing or not a number.
    #[error("{name}: config.json has no usable `{field}` ({want})")]
    Missing {
        /// The model.
        name: String,
        /// The field.
        field: &'static str,
        /// What it should be.
        want: &'static str,
    },
    /// An architecture or setting the estimate does not model.
    #[error("{name}: `{field}` = {value} is not supported: {why}")]
    Unsupported {
        /// The model.
        name: String,
        /// The field.
        field: String,
        /// Its value.
        value: String,
        /// What is supported.
        why: String,
    },
    /// `--model` names no built-in shape.
    #[error("no built-in shape '{0}': built in are {list} (or give --hf-config PATH/config.json)", list = builtin_names().join(", "))]
    UnknownName(String),
}

/// The decoder-only families the estimate models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// GPT-2: learned positions, LayerNorm with bias, GELU MLP (tanh form, written out in
    /// Python), fused qkv with bias, dropout, tied head.
    Gpt2,
    /// Llama, Mistral, Qwen2: RoPE, RMSNorm, SwiGLU MLP, grouped-query attention.
    Llama,
}

/// The shapes of one model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shape {
    /// Its name (the built-in name or the file's folder).
    pub name: String,
    /// `model_type` as in config.json.
    pub model_type: String,
    /// GPT-2 or Llama-like.
    pub family: Family,
    /// Tokens in the vocabulary (rows of the embedding and of the head).
    pub vocab: u64,
    /// Width of the residual stream.
    pub hidden: u64,
    /// Decoder layers.
    pub layers: u64,
    /// Attention (query) heads.
    pub heads: u64,
    /// Key/value heads (grouped-query attention; = heads without it).
    pub kv_heads: u64,
    /// Width of one head.
    pub head_dim: u64,
    /// Width of the MLP's hidden layer.
    pub intermediate: u64,
    /// The head shares the embedding's weights.
    pub tied: bool,
    /// Learned position embeddings (GPT-2: n_positions rows); 0 for RoPE.
    pub positions: u64,
    /// Bias on the q, k, v projections (GPT-2, Qwen2).
    pub qkv_bias: bool,
    /// Bias on the attention output projection (GPT-2).
    pub out_bias: bool,
    /// Bias on the MLP's projections (GPT-2).
    pub mlp_bias: bool,
    /// Dropout inside the layers (GPT-2's resid_pdrop > 0: one byte a value for the masks).
    pub dropout: bool,
}

/// The built-in shapes: (name, config.json as published on the model's Hub page).
const BUILTIN: &[(&str, &str)] = &[
    ("gpt2", include_str!("../../configs/hf/gpt2.json")),
    (
        "gpt2-medium",
        include_str!("../../configs/hf/gpt2-medium.json"),
    ),
    (
        "qwen2.5-0.5b",
        include_str!("../../configs/hf/qwen2.5-0.5b.json"),
    ),
    (
        "llama-3.2-1b",
        include_str!("../../configs/hf/llama-3.2-1b.json"),
    ),
    (
        "mistral-7b",
        include_str!("../../configs/hf/mistral-7b.json"),
    ),
    (
        "llama-3-8b",
        include_str!("../../configs/hf/llama-3-8b.json"),
    ),
    (
        "qwen2.5-7b",
        include_str!("../../configs/hf/qwen2.5-7b.json"),
    ),
];

/// The names `--model` takes for Hugging Face shapes.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(n, _)| *n).collect()
}

/// Whether `name` is a built-in shape (case ignored).
pub fn is_builtin(name: &str) -> bool {
    BUILTIN.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
}

impl Shape {
    /// A built-in shape by name (case ignored).
    pub fn builtin(name: &str) -> Result<Shape, ShapeError> {
        let (n, text) = BUILTIN
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| ShapeError::UnknownName(name.to_string()))?;
        let v: Value = serde_json::from_str(text).map_err(|e| ShapeError::Read {
            path: format!("configs/hf/{n}.json (built in)"),
            why: e.to_string(),
        })?;
        Shape::from_json(n, &v)
    }

    /// A config.json file; the model is named after its folder.
    pub fn from_file(path: &std::path::Path) -> Result<Shape, ShapeError> {
        let read = |why: String| ShapeError::Read {
            path: path.display().to_string(),
            why,
        };
        let text = std::fs::read_to_string(path).map_err(|e| read(e.to_string()))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| read(e.to_string()))?;
        let name = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| path.display().to_string());
        Shape::from_json(&name, &v)
    }

    /// The shapes in a parsed config.json.
    pub fn from_json(name: &str, v: &Value) -> Result<Shape, ShapeError> {
        let unsupported = |field: &str, value: String, why: &str| ShapeError::Unsupported {
            name: name.to_string(),
            field: field.to_string(),
            value,
            why: why.to_string(),
        };
        let model_type = v
            .get("model_type")
            .and_then(Value::as_str)
            .ok_or(ShapeError::Missing {
                name: name.to_string(),
                field: "model_type",
                want: "a string such as \"llama\"",
            })?
            .to_string();
        let num = |field: &'static str| -> Result<u64, ShapeError> {
            v.get(field)
                .and_then(Value::as_u64)
                .filter(|&n| n > 0)
                .ok_or(ShapeError::Missing {
                    name: name.to_string(),
                    field,
                    want: "a whole number above 0",
                })
        };
        let opt_num = |field: &'static str| v.get(field).and_then(Value::as_u64).filter(|&n| n > 0);
        let flag =
            |field: &str, default: bool| v.get(field).and_then(Value::as_bool).unwrap_or(default);
        let float = |field: &str| v.get(field).and_then(Value::as_f64).unwrap_or(0.0);
        let shape = match model_type.as_str() {
            "gpt2" => {
                let act = v
                    .get("activation_function")
                    .and_then(Value::as_str)
                    .unwrap_or("gelu_new");
                if act != "gelu_new" {
                    return Err(unsupported(
                        "activation_function",
                        format!("\"{act}\""),
                        "the estimate models GPT-2's gelu_new (written out in Python, which keeps four tensors the width of the MLP)",
                    ));
                }
                if flag("add_cross_attention", false) {
                    return Err(unsupported(
                        "add_cross_attention",
                        "true".into(),
                        "decoder-only models only",
                    ));
                }
                let hidden = num("n_embd")?;
                let heads = num("n_head")?;
                Shape {
                    name: name.to_string(),
                    model_type,
                    family: Family::Gpt2,
                    vocab: num("vocab_size")?,
                    hidden,
                    layers: num("n_layer")?,
                    heads,
                    kv_heads: heads,
                    head_dim: hidden / heads,
                    intermediate: opt_num("n_inner").unwrap_or(4 * hidden),
                    tied: flag("tie_word_embeddings", true),
                    positions: num("n_positions")?,
                    qkv_bias: true,
                    out_bias: true,
                    mlp_bias: true,
                    dropout: float("resid_pdrop") > 0.0 || v.get("resid_pdrop").is_none(),
                }
            }
            "llama" | "mistral" | "qwen2" => {
                let act = v.get("hidden_act").and_then(Value::as_str).unwrap_or("silu");
                if act != "silu" {
                    return Err(unsupported(
                        "hidden_act",
                        format!("\"{act}\""),
                        "the estimate models SwiGLU with silu",
                    ));
                }
                if float("attention_dropout") > 0.0 {
                    return Err(unsupported(
                        "attention_dropout",
                        float("attention_dropout").to_string(),
                        "the estimate models these families without dropout, as they are published",
                    ));
                }
                let hidden = num("hidden_size")?;
                let heads = num("num_attention_heads")?;
                let qkv_bias = model_type == "qwen2" || flag("attention_bias", false);
                Shape {
                    name: name.to_string(),
                    family: Family::Llama,
                    vocab: num("vocab_size")?,
                    hidden,
                    layers: num("num_hidden_layers")?,
                    heads,
                    kv_heads: opt_num("num_key_value_heads").unwrap_or(heads),
                    head_dim: opt_num("head_dim").unwrap_or(hidden / heads),
                    intermediate: num("intermediate_size")?,
                    tied: flag("tie_word_embeddings", false),
                    positions: 0,
                    qkv_bias,
                    out_bias: model_type != "qwen2" && flag("attention_bias", false),
                    mlp_bias: flag("mlp_bias", false),
                    dropout: false,
                    model_type,
                }
            }
            other => {
                return Err(unsupported(
                    "model_type",
                    format!("\"{other}\""),
                    "oomlab estimates decoder-only transformers as Hugging Face defines gpt2, llama, mistral and qwen2",
                ))
            }
        };
        if shape.heads % shape.kv_heads != 0 {
            return Err(unsupported(
                "num_key_value_heads",
                shape.kv_heads.to_string(),
                "it must divide num_attention_heads",
            ));
        }
        Ok(shape)
    }

    /// Width of the queries (heads x head width).
    pub fn q_dim(&self) -> u64 {
        self.heads * self.head_dim
    }

    /// Width of the keys and of the values.
    pub fn kv_dim(&self) -> u64 {
        self.kv_heads * self.head_dim
    }

    /// Grouped-query attention (fewer key/value heads than query heads).
    pub fn gqa(&self) -> bool {
        self.kv_heads < self.heads
    }

    /// Parameters of the matrix products (and their biases) in one layer.
    pub fn layer_matmul_params(&self) -> u64 {
        let (d, q, kv, f) = (self.hidden, self.q_dim(), self.kv_dim(), self.intermediate);
        let b = |on: bool, n: u64| if on { n } else { 0 };
        let attn = d * (q + 2 * kv) + b(self.qkv_bias, q + 2 * kv) + q * d + b(self.out_bias, d);
        let mlp = match self.family {
            Family::Gpt2 => 2 * d * f + b(self.mlp_bias, f + d),
            Family::Llama => 3 * d * f + b(self.mlp_bias, 2 * f + d),
        };
        attn + mlp
    }

    /// Parameters of one layer's norms.
    pub fn layer_norm_params(&self) -> u64 {
        match self.family {
            Family::Gpt2 => 4 * self.hidden,
            Family::Llama => 2 * self.hidden,
        }
    }

    /// Parameters of the final norm.
    pub fn final_norm_params(&self) -> u64 {
        match self.family {
            Family::Gpt2 => 2 * self.hidden,
            Family::Llama => self.hidden,
        }
    }

    /// Parameters of the embeddings (tokens and learned positions).
    pub fn embedding_params(&self) -> u64 {
        (self.vocab + self.positions) * self.hidden
    }

    /// Parameters of the head (0 when tied to the embedding).
    pub fn head_params(&self) -> u64 {
        if self.tied {
            0
        } else {
            self.vocab * self.hidden
        }
    }

    /// Every parameter, tied weights counted once (as `model.parameters()` counts them).
    pub fn params(&self) -> u64 {
        self.embedding_params()
            + self.layers * (self.layer_matmul_params() + self.layer_norm_params())
            + self.final_norm_params()
            + self.head_params()
    }

    /// Parameters autocast casts to bf16 and keeps for the backward pass: every matrix
    /// product's weight and bias, and the head (the embedding matrix when tied).
    pub fn autocast_params(&self) -> u64 {
        self.layers * self.layer_matmul_params() + self.vocab * self.hidden
    }

    /// The largest single parameter tensor's element count: the token embedding (or the
    /// untied head, of the same size), a position table or one MLP matrix.
    pub fn largest_param(&self) -> u64 {
        let (d, f) = (self.hidden, self.intermediate);
        (self.vocab * d)
            .max(self.positions * d)
            .max(f * d)
            .max(d * (self.q_dim() + 2 * self.kv_dim()))
    }

    /// The architecture in a few words.
    pub fn describe(&self) -> String {
        match self.family {
            Family::Gpt2 => format!(
                "{} layers, width {}, {} heads, MLP {}, vocabulary {}, learned positions, tied head",
                self.layers, self.hidden, self.heads, self.intermediate, self.vocab
            ),
            Family::Llama => format!(
                "{} layers, width {}, {} query / {} key-value heads of {}, SwiGLU {}, vocabulary {}, {} head",
                self.layers,
                self.hidden,
                self.heads,
                self.kv_heads,
                self.head_dim,
                self.intermediate,
                self.vocab,
                if self.tied { "tied" } else { "untied" }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt2_counts_as_transformers_does() {
        // The count GPT2LMHeadModel(GPT2Config()).num_parameters() gives; the other
        // built-in shapes are checked against counts read on the H200 (tests/hf_params.rs).
        assert_eq!(Shape::builtin("gpt2").unwrap().params(), 124_439_808);
    }

    #[test]
    fn other_architectures_are_refused_naming_the_field() {
        let v: Value = serde_json::json!({"model_type": "t5", "d_model": 512});
        let e = Shape::from_json("t5-small", &v).unwrap_err().to_string();
        assert!(e.contains("`model_type` = \"t5\""), "{e}");
        let v: Value = serde_json::json!({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
            "num_hidden_layers": 2, "vocab_size": 100, "intermediate_size": 128, "hidden_act": "gelu"});
        let e = Shape::from_json("x", &v).unwrap_err().to_string();
        assert!(e.contains("`hidden_act` = \"gelu\""), "{e}");
        let v: Value = serde_json::json!({"model_type": "llama", "num_attention_heads": 4});
        let e = Shape::from_json("x", &v).unwrap_err().to_string();
        assert!(e.contains("`hidden_size`"), "{e}");
        assert!(Shape::builtin("gpt5")
            .unwrap_err()
            .to_string()
            .contains("llama-3.2-1b"));
    }

    #[test]
    fn grouped_query_attention_is_read() {
        let s = Shape::builtin("llama-3.2-1b").unwrap();
        assert_eq!((s.heads, s.kv_heads, s.head_dim, s.tied), (32, 8, 64, true));
        assert!(s.gqa());
        let q = Shape::builtin("Qwen2.5-0.5B").unwrap();
        assert!(q.qkv_bias && !q.out_bias);
    }
}
