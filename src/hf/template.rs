//! The allocation sequence of a Hugging Face training run as scripts/hf-templates.py
//! writes it down (src/hf/templates/*.tpl): every tensor the caching allocator is asked for
//! and gives back, from building the model to the optimizer step, with sizes named by the
//! model's dimensions and the layers as loops, so that it can be replayed for another model
//! of the same architecture ([`super::replay`]).
//!
//! Each file was read from the allocator's event traces of two small models of one
//! architecture whose dimensions differ everywhere (configs/hf-templates/, traced on the
//! H200 with torch 2.11 and transformers 5.17: docs/results/2026-12-04-h200-hf-templates),
//! and reproduces both traces event by event.
//!
//! The format, one line each:
//! - `phase NAME`: `build`, then `F`/`B`/`O` (forward pass, backward pass, optimizer step)
//!   and the step, for the first steps until a step repeats the one before;
//! - `a SIZE`: an allocation of SIZE bytes: a sum of products of dimensions (B batch, S
//!   sequence, d hidden, kv key/value width, f MLP width, V vocabulary, H heads, Hkv
//!   key/value heads, hd head size, P positions) and integers (`B*S*d*4+B*8`), or a product
//!   times a ratio, rounded (`B*S*d*4~1.01577`: a kernel's workspace a little larger);
//! - `f PHASE ITEM ITER OFFSET`: the free of the OFFSET-th allocation of item ITEM of
//!   phase PHASE (`build`, or `F`/`B`/`O` and a step relative to this one); where that
//!   item is a loop, ITER says which iteration: `absN` (the N-th), `endN` (the N-th from
//!   the last layer), `relN` (this loop's iteration plus N), `mirN` (layers counted from
//!   the other end: the backward pass frees the forward pass's last layer first), `-` outside
//!   loops; a free in a loop may add `first ...` and `last ...` for its first and last
//!   iteration;
//! - `loop L` or `loop L-1` ... `end`: a body repeated once per layer (or once fewer).

/// A template's dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dims {
    /// Sequences per micro-batch.
    pub batch: u64,
    /// Tokens per sequence.
    pub seq: u64,
    /// Width of the residual stream.
    pub hidden: u64,
    /// Key/value heads x head size.
    pub kv: u64,
    /// MLP width.
    pub intermediate: u64,
    /// Vocabulary.
    pub vocab: u64,
    /// Attention heads.
    pub heads: u64,
    /// Key/value heads.
    pub kv_heads: u64,
    /// Head size.
    pub head_dim: u64,
    /// Learned positions (GPT-2's n_positions; unused by the others).
    pub positions: u64,
    /// Decoder layers.
    pub layers: u64,
}

/// A dimension's symbol in a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbol {
    /// B: sequences per micro-batch.
    Batch,
    /// S: tokens per sequence.
    Seq,
    /// d: the residual stream's width.
    Hidden,
    /// kv: key/value heads x head size.
    Kv,
    /// f: the MLP's width.
    Intermediate,
    /// V: the vocabulary.
    Vocab,
    /// H: attention heads.
    Heads,
    /// Hkv: key/value heads.
    KvHeads,
    /// hd: the head size.
    HeadDim,
    /// P: learned positions.
    Positions,
}

impl Symbol {
    /// The symbol as the templates write it.
    pub fn parse(text: &str) -> Option<Symbol> {
        Some(match text {
            "B" => Symbol::Batch,
            "S" => Symbol::Seq,
            "d" => Symbol::Hidden,
            "kv" => Symbol::Kv,
            "f" => Symbol::Intermediate,
            "V" => Symbol::Vocab,
            "H" => Symbol::Heads,
            "Hkv" => Symbol::KvHeads,
            "hd" => Symbol::HeadDim,
            "P" => Symbol::Positions,
            _ => return None,
        })
    }
}

impl Dims {
    fn get(&self, s: Symbol) -> u64 {
        match s {
            Symbol::Batch => self.batch,
            Symbol::Seq => self.seq,
            Symbol::Hidden => self.hidden,
            Symbol::Kv => self.kv,
            Symbol::Intermediate => self.intermediate,
            Symbol::Vocab => self.vocab,
            Symbol::Heads => self.heads,
            Symbol::KvHeads => self.kv_heads,
            Symbol::HeadDim => self.head_dim,
            Symbol::Positions => self.positions,
        }
    }
}

/// A size: a sum of products, or a product times a ratio.
#[derive(Debug, Clone, PartialEq)]
pub enum Size {
    /// Each term a list of factors (symbols or integers).
    Sum(Vec<Vec<Factor>>),
    /// A product times a ratio, rounded.
    Scaled(Vec<Factor>, f64),
}

/// A factor of a product.
#[derive(Debug, Clone, PartialEq)]
pub enum Factor {
    /// A dimension.
    Dim(Symbol),
    /// An integer.
    Int(u64),
}

impl Size {
    fn product(factors: &[Factor], dims: &Dims) -> u64 {
        factors
            .iter()
            .map(|f| match f {
                Factor::Int(n) => *n,
                Factor::Dim(s) => dims.get(*s),
            })
            .product()
    }

    /// Bytes for these dimensions.
    pub fn bytes(&self, dims: &Dims) -> u64 {
        match self {
            Size::Sum(terms) => terms.iter().map(|t| Size::product(t, dims)).sum(),
            Size::Scaled(t, r) => (Size::product(t, dims) as f64 * r).round() as u64,
        }
    }
}

/// Which iteration of a loop a free names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Iteration {
    /// Not a loop.
    None,
    /// The N-th.
    Abs(i64),
    /// The N-th from the last layer.
    End(i64),
    /// The current iteration plus N.
    Rel(i64),
    /// Layers - 1 - the current iteration, plus N.
    Mirror(i64),
}

/// The allocation a free gives back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The phase: None for the build, else its kind (`F`, `B`, `O`) and step offset.
    pub phase: Option<(char, i64)>,
    /// Which item of the phase.
    pub item: usize,
    /// Which iteration where the item is a loop.
    pub iteration: Iteration,
    /// Which allocation of the item (of one iteration's body).
    pub offset: usize,
}

/// One event of a phase or of a loop's body.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Ask for this many bytes.
    Alloc(Size),
    /// Give back: the target in the loop's first, middle and last iterations (the same
    /// outside loops).
    Free([Target; 3]),
}

/// An item of a phase.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// One event.
    Event(Event),
    /// A body repeated layers + `shift` times.
    Loop {
        /// 0 or -1.
        shift: i64,
        /// The events of one iteration.
        body: Vec<Event>,
    },
}

/// A phase: its name (`build`, `F0`, `B0`, `O0`, `F1`, ...) and items.
#[derive(Debug, Clone, PartialEq)]
pub struct Phase {
    /// `build` or kind and step.
    pub name: String,
    /// Its items.
    pub items: Vec<Item>,
}

/// A whole template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// Its name: `FAMILY-PRECISION[-ckpt]`.
    pub name: String,
    /// The phases in order.
    pub phases: Vec<Phase>,
}

/// A line the parser could not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("template {name}, line {line}: {why}")]
pub struct TemplateError {
    /// The template.
    pub name: String,
    /// 1-based.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

fn parse_factors(text: &str) -> Result<Vec<Factor>, String> {
    text.split('*')
        .map(|p| match (p.parse::<u64>(), Symbol::parse(p)) {
            (Ok(n), _) => Ok(Factor::Int(n)),
            (_, Some(s)) => Ok(Factor::Dim(s)),
            _ => Err(format!("unknown dimension {p:?}")),
        })
        .collect()
}

fn parse_size(text: &str) -> Result<Size, String> {
    if let Some((product, ratio)) = text.split_once('~') {
        let r: f64 = ratio.parse().map_err(|_| format!("bad ratio {ratio:?}"))?;
        return Ok(Size::Scaled(parse_factors(product)?, r));
    }
    text.split('+')
        .map(parse_factors)
        .collect::<Result<_, _>>()
        .map(Size::Sum)
}

fn parse_iteration(text: &str) -> Result<Iteration, String> {
    if text == "-" {
        return Ok(Iteration::None);
    }
    let split = text
        .find(|c: char| c == '-' || c.is_ascii_digit())
        .ok_or_else(|| format!("bad iteration {text:?}"))?;
    let (kind, n) = text.split_at(split);
    let n: i64 = n.parse().map_err(|_| format!("bad iteration {text:?}"))?;
    Ok(match kind {
        "abs" => Iteration::Abs(n),
        "end" => Iteration::End(n),
        "rel" => Iteration::Rel(n),
        "mir" => Iteration::Mirror(n),
        _ => return Err(format!("bad iteration {text:?}")),
    })
}

fn parse_target(words: &[&str]) -> Result<Target, String> {
    let [phase, item, iteration, offset] = words else {
        return Err("a free names phase, item, iteration and offset".into());
    };
    let phase = if *phase == "build" {
        None
    } else {
        let mut chars = phase.chars();
        let kind = chars.next().filter(|c| "FBO".contains(*c));
        let delta = chars.as_str().parse::<i64>().ok();
        match (kind, delta) {
            (Some(k), Some(d)) => Some((k, d)),
            _ => return Err(format!("bad phase {phase:?}")),
        }
    };
    Ok(Target {
        phase,
        item: item.parse().map_err(|_| format!("bad item {item:?}"))?,
        iteration: parse_iteration(iteration)?,
        offset: offset
            .parse()
            .map_err(|_| format!("bad offset {offset:?}"))?,
    })
}

fn parse_free(words: &[&str]) -> Result<[Target; 3], String> {
    let mid = parse_target(words.get(..4).ok_or("a free names four things")?)?;
    let (mut first, mut last) = (mid, mid);
    let mut rest = &words[4..];
    while let [which, a, b, c, d, tail @ ..] = rest {
        let t = parse_target(&[a, b, c, d])?;
        match *which {
            "first" => first = t,
            "last" => last = t,
            _ => return Err(format!("expected first or last, not {which:?}")),
        }
        rest = tail;
    }
    if !rest.is_empty() {
        return Err("trailing words after a free".into());
    }
    Ok([first, mid, last])
}

impl Template {
    /// Read a template's text.
    pub fn parse(name: &str, text: &str) -> Result<Template, TemplateError> {
        let mut phases: Vec<Phase> = Vec::new();
        let mut body: Option<(i64, Vec<Event>)> = None;
        for (i, line) in text.lines().enumerate() {
            let err = |why: String| TemplateError {
                name: name.to_string(),
                line: i + 1,
                why,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let event = match words.as_slice() {
                [] => continue,
                [w, ..] if w.starts_with('#') || *w == "template" => continue,
                ["phase", p] => {
                    phases.push(Phase {
                        name: p.to_string(),
                        items: Vec::new(),
                    });
                    continue;
                }
                ["loop", n] => {
                    let shift = match *n {
                        "L" => 0,
                        "L-1" => -1,
                        _ => return Err(err(format!("bad loop count {n:?}"))),
                    };
                    body = Some((shift, Vec::new()));
                    continue;
                }
                ["end"] => {
                    let (shift, b) = body
                        .take()
                        .ok_or_else(|| err("end outside a loop".into()))?;
                    let phase = phases.last_mut().ok_or_else(|| err("no phase".into()))?;
                    phase.items.push(Item::Loop { shift, body: b });
                    continue;
                }
                ["a", size] => Event::Alloc(parse_size(size).map_err(err)?),
                ["f", rest @ ..] => Event::Free(parse_free(rest).map_err(err)?),
                _ => return Err(err(format!("cannot read {line:?}"))),
            };
            match body.as_mut() {
                Some((_, b)) => b.push(event),
                None => phases
                    .last_mut()
                    .ok_or_else(|| err("an event before the first phase".into()))?
                    .items
                    .push(Item::Event(event)),
            }
        }
        Ok(Template {
            name: name.to_string(),
            phases,
        })
    }

    /// The built-in template of this name, if there is one.
    pub fn builtin(name: &str) -> Option<Result<Template, TemplateError>> {
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Template::parse(n, text))
    }
}

macro_rules! templates {
    ($($name:literal),* $(,)?) => {
        /// The templates of src/hf/templates/, by name.
        pub const BUILTIN: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("templates/", $name, ".tpl"))),)*
        ];
    };
}

templates!(
    "gpt2-f32",
    "gpt2-f32-ckpt",
    "gpt2-amp-bf16",
    "gpt2-amp-bf16-ckpt",
    "gpt2-bf16",
    "gpt2-bf16-ckpt",
    "qwen2-tied-f32",
    "qwen2-tied-f32-ckpt",
    "qwen2-tied-amp-bf16",
    "qwen2-tied-amp-bf16-ckpt",
    "qwen2-tied-bf16",
    "qwen2-tied-bf16-ckpt",
    "llama-tied-f32",
    "llama-tied-f32-ckpt",
    "llama-tied-amp-bf16",
    "llama-tied-amp-bf16-ckpt",
    "llama-tied-bf16",
    "llama-tied-bf16-ckpt",
    "llama-untied-f32",
    "llama-untied-f32-ckpt",
    "llama-untied-amp-bf16",
    "llama-untied-amp-bf16-ckpt",
    "llama-untied-bf16",
    "llama-untied-bf16-ckpt",
    "mistral-untied-f32",
    "mistral-untied-f32-ckpt",
    "mistral-untied-amp-bf16",
    "mistral-untied-amp-bf16-ckpt",
    "mistral-untied-bf16",
    "mistral-untied-bf16-ckpt",
    "qwen2-untied-f32",
    "qwen2-untied-f32-ckpt",
    "qwen2-untied-amp-bf16",
    "qwen2-untied-amp-bf16-ckpt",
    "qwen2-untied-bf16",
    "qwen2-untied-bf16-ckpt",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_template_parses_and_has_a_build_and_steps() {
        for (name, _) in BUILTIN {
            let t = Template::builtin(name).unwrap().unwrap();
            assert_eq!(t.phases[0].name, "build", "{name}");
            assert!(t.phases.len() >= 4 && t.phases.len() % 3 == 1, "{name}");
            assert!(
                t.phases
                    .iter()
                    .any(|p| p.items.iter().any(|i| matches!(i, Item::Loop { .. }))),
                "{name} has no loop over the layers"
            );
        }
    }

    #[test]
    fn sizes_and_frees_read_as_written() {
        let dims = Dims {
            batch: 2,
            seq: 3,
            hidden: 5,
            kv: 7,
            intermediate: 11,
            vocab: 13,
            heads: 1,
            kv_heads: 1,
            head_dim: 5,
            positions: 17,
            layers: 4,
        };
        assert_eq!(
            parse_size("B*S*d*4+B*8").unwrap().bytes(&dims),
            2 * 3 * 5 * 4 + 16
        );
        assert_eq!(parse_size("512").unwrap().bytes(&dims), 512);
        assert_eq!(parse_size("V*d*2~1.5").unwrap().bytes(&dims), 195);
        assert!(parse_size("B*Q").is_err());
        let f = parse_free(&["B0", "3", "mir-1", "2", "first", "F-1", "40", "-", "0"]).unwrap();
        assert_eq!(f[0].phase, Some(('F', -1)));
        assert_eq!(f[0].iteration, Iteration::None);
        assert_eq!(f[1].iteration, Iteration::Mirror(-1));
        assert_eq!(f[1], f[2]);
        let bad = Template::parse("x", "phase build\nloop L+2\n").unwrap_err();
        assert_eq!(bad.line, 2);
    }
}
