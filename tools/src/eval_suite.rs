//! The evaluation suite: shapes the tuner never sees, for judging whether the automatic choice
//! generalises (`rgemm bench --suite eval`).
//!
//! **The idea.** Every case of the tuning suite ([`crate::suite::real_suite`]) has a measured row
//! in the dispatch table (`dispatch/*.tsv`), tuned on that very shape, so a benchmark of that
//! suite is in-sample: it says how well the tuner remembers, not how well the choice does on the
//! shape a user brings. This suite is the held-out set: realistic shapes from the same world
//! (linear layers of real models at decode and prefill token counts, attention products, many
//! small products, deep K, dot-product-like and tiny-K products, random shapes in every layout,
//! aligned and not), none of which is in any table.
//!
//! **Why disjoint.** A case that is also a table row is answered by its own measurement: it
//! would flatter the choice and hide the rule between measured shapes, which is what this suite
//! judges. So no case may have the (M, N, K, layout, batch) of a tuning case or of any row of any
//! table in `dispatch/`, and `tests/eval_suite.rs` fails when one does. The suite does not read
//! the tables to dodge them: it is a fixed list, the same whatever the tables say, so that runs
//! of it at different commits compare the same shapes, and a tune that adds one of its shapes to
//! a table (`rgemm tune --cases ...`) fails that test instead of quietly moving the suite.
//! `rgemm tune --suite eval` is refused ([`Suite::tunable_cases`]).
//!
//! **How the cases are drawn.** Each [`Class`] draws its [`Class::count`] cases from its own
//! stream of a splitmix64 generator ([`Rng`]) seeded from [`SEED`] and the class, so that a change
//! to one class leaves the others' cases as they were. Sizes spread over orders of magnitude are
//! drawn log-uniformly ([`Rng::log_uniform`], with logarithms and powers computed by IEEE
//! arithmetic alone, so the draw is the same on every platform). A draw that repeats an earlier
//! case, or whose work M·N·K·batch exceeds [`MAX_WORK`] or whose operands A, B and C in f32
//! exceed [`MAX_BYTES`], is drawn again (for batched products the batch is halved first), so the
//! whole suite runs in minutes. The classes:
//!
//! - [`Class::Decode`] and [`Class::Prefill`]: a linear layer `y = x·Wᵀ` (`nt`, W stored N×K) of a
//!   model in [`MODELS`] (fused QKV, K/V alone where the model shares KV heads, the attention
//!   output, the MLP's up (and fused gate+up) and down, the vocabulary head), with M tokens: 1 to
//!   16 for a decode step, 128 to 8192 for a prompt (log-uniform within the octaves 128–256, ...,
//!   4096–8192 in turn); a ViT's tokens are a whole number of 197-token images. GPT-2's layers are
//!   `nn`: its `Conv1D` stores W as K×N.
//! - [`Class::Attention`]: QKᵀ (`nt`: M = queries, N = keys, K = head dim) and PV (`nn`: M =
//!   queries, N = head dim, K = keys), batched over sequences × heads: a prompt's (queries = keys)
//!   or a decode step's (the queries of one KV head's group over its context, batched over
//!   sequences × KV heads).
//! - [`Class::SmallBatched`]: 32 to 128 in each size (half of them cubes), batches of 256 to 4096.
//! - [`Class::DeepK`]: M and N 16 to 1024, K 16384 and up; [`Class::Dot`]: M·N ≤ 16, K ≥ 65536;
//!   [`Class::TinyK`]: M and N 512 to 16384, K 1 to 16.
//! - [`Class::RandomAligned`]: M, N and K log-uniform from 8 to 16384, multiples of 8, a quarter
//!   of them batched (2 to 64); [`Class::RandomUnaligned`]: from 1 to 16384, A's or B's stored rows
//!   not a multiple of 8 elements.
//!
//! Classes other than decode, prefill and attention go through the four layouts in turn, and
//! deep-K, dot and small batched products are half aligned, half not.
//!
//! [`summarize`] turns a run's results (the ratio to the best cuBLAS per case, with the case's
//! class recorded in the report) into a geometric mean and a minimum per class and overall, and
//! [`markdown`] writes them as a table.

use std::collections::HashSet;
use std::fmt::Write as _;

use rgemm::problem::{Layout, LeadingDims, Op};

use crate::report::{Outcome, Report};
use crate::suite::Case;
use crate::tool_error::{ToolError, ToolResult};

/// The seed every class's stream is derived from (issue 45). Changing it draws another suite.
pub const SEED: u64 = 0x0045_2026_1128_e7a1;

/// The most work a case may have: M·N·K·batch multiply-adds.
pub const MAX_WORK: u64 = 1 << 37;

/// The most memory a case's operands may take: A, B and C of the whole batch in f32. A bench's
/// time goes mostly to the host, not the GPU: each case's random operands are drawn twice (for
/// the check and for the timing) and its check recomputes rows of C in f64, all in proportion to
/// the operands' bytes; this bound (which leaves out the largest models' MLP and vocabulary
/// weights, not their attention layers) keeps the whole suite to minutes.
pub const MAX_BYTES: u64 = 1 << 29;

/// What kind of shape a case is; the report gives each class its geometric mean and minimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A linear layer of a real model at a decode step: M = 1 to 16 tokens.
    Decode,
    /// A linear layer of a real model on a prompt: M = 128 to 8192 tokens.
    Prefill,
    /// Attention's batched products, QKᵀ and PV, at prompt and decode shapes.
    Attention,
    /// Many small products: sizes 32 to 128, batches of 256 to 4096.
    SmallBatched,
    /// A narrow or small output over a deep K (≥ 16384).
    DeepK,
    /// Dot-product-like: M·N ≤ 16, K ≥ 65536.
    Dot,
    /// A large output over a tiny K (1 to 16).
    TinyK,
    /// Log-uniform random sizes, multiples of 8, in every layout.
    RandomAligned,
    /// Log-uniform random sizes whose A or B rows are not whole 16-byte units, in every layout.
    RandomUnaligned,
}

impl Class {
    /// Every class, in the order the suite and its reports list them.
    pub const ALL: [Class; 9] = [
        Class::Decode,
        Class::Prefill,
        Class::Attention,
        Class::SmallBatched,
        Class::DeepK,
        Class::Dot,
        Class::TinyK,
        Class::RandomAligned,
        Class::RandomUnaligned,
    ];

    /// The name reports and results.json use (`decode`, `small-batched`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Class::Decode => "decode",
            Class::Prefill => "prefill",
            Class::Attention => "attention",
            Class::SmallBatched => "small-batched",
            Class::DeepK => "deep-k",
            Class::Dot => "dot",
            Class::TinyK => "tiny-k",
            Class::RandomAligned => "random-aligned",
            Class::RandomUnaligned => "random-unaligned",
        }
    }

    /// The class called `name` ([`Class::name`]).
    pub fn named(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// How many cases the suite draws of this class.
    pub const fn count(self) -> usize {
        match self {
            Class::Decode => 32,
            Class::Prefill => 32,
            Class::Attention => 24,
            Class::SmallBatched => 16,
            Class::DeepK => 16,
            Class::Dot => 12,
            Class::TinyK => 8,
            Class::RandomAligned => 16,
            Class::RandomUnaligned => 16,
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One case of the evaluation suite: the problem, its class, and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalCase {
    /// The shape, layout and batch.
    pub case: Case,
    /// What kind of shape it is.
    pub class: Class,
    /// Where it comes from, e.g. `Llama-2 13B down_proj, 7 tokens`.
    pub what: String,
}

/// A model's configuration: what its linear layers and attention products are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    /// The model's name.
    pub name: &'static str,
    /// Width of the residual stream.
    pub hidden: u64,
    /// Width of the MLP's hidden layer (per expert for a mixture of experts).
    pub intermediate: u64,
    /// Query heads.
    pub heads: u64,
    /// Key/value heads (fewer than `heads` where queries share them).
    pub kv_heads: u64,
    /// Width of one head.
    pub head_dim: u64,
    /// Vocabulary of the output head (0: the suite draws no output head, e.g. an encoder).
    pub vocab: u64,
    /// A gated MLP (SwiGLU): gate and up projections, fused as one of twice the width.
    pub gated: bool,
    /// Generates text: decode steps and a vocabulary head.
    pub decoder: bool,
    /// Only the MLP's layers (a mixture of experts' expert).
    pub experts_only: bool,
    /// Tokens per input where inputs have a fixed length (a ViT's image: 196 patches and the
    /// class token); 0 where token counts are free.
    pub tokens_per_input: u64,
    /// Layout of its linear layers: `nt` (W stored N×K), `nn` for GPT-2's `Conv1D` (W stored K×N).
    pub layout: Layout,
}

const fn model(name: &'static str, hidden: u64, intermediate: u64, heads: u64, kv_heads: u64, head_dim: u64, vocab: u64, gated: bool) -> Model {
    Model { name, hidden, intermediate, heads, kv_heads, head_dim, vocab, gated, decoder: true, experts_only: false, tokens_per_input: 0, layout: Layout::NT }
}

const fn gpt2(name: &'static str, hidden: u64, heads: u64) -> Model {
    Model { layout: Layout::NN, ..model(name, hidden, 4 * hidden, heads, heads, 64, 50257, false) }
}

const fn encoder(name: &'static str, hidden: u64, heads: u64, tokens_per_input: u64) -> Model {
    Model { decoder: false, tokens_per_input, ..model(name, hidden, 4 * hidden, heads, heads, 64, 0, false) }
}

/// The models whose layers the suite draws from (their published configurations).
pub const MODELS: &[Model] = &[
    model("Llama-2 7B", 4096, 11008, 32, 32, 128, 32000, true),
    model("Llama-2 13B", 5120, 13824, 40, 40, 128, 32000, true),
    model("Llama-2 70B", 8192, 28672, 64, 8, 128, 32000, true),
    model("Llama-3 8B", 4096, 14336, 32, 8, 128, 128256, true),
    model("Llama-3 70B", 8192, 28672, 64, 8, 128, 128256, true),
    model("Mistral 7B", 4096, 14336, 32, 8, 128, 32000, true),
    Model { experts_only: true, ..model("Mixtral 8x7B expert", 4096, 14336, 32, 8, 128, 32000, true) },
    model("Qwen2 7B", 3584, 18944, 28, 4, 128, 152064, true),
    model("Qwen2 72B", 8192, 29568, 64, 8, 128, 152064, true),
    model("Phi-3 mini", 3072, 8192, 32, 32, 96, 32064, true),
    model("Phi-3 medium", 5120, 17920, 40, 10, 128, 32064, true),
    gpt2("GPT-2 small", 768, 12),
    gpt2("GPT-2 medium", 1024, 16),
    gpt2("GPT-2 large", 1280, 20),
    gpt2("GPT-2 xl", 1600, 25),
    encoder("BERT base", 768, 12, 0),
    encoder("BERT large", 1024, 16, 0),
    encoder("ViT-B/16", 768, 12, 197),
    encoder("ViT-L/16", 1024, 16, 197),
];

impl Model {
    /// Its linear layers as (name, N, K): the output width and the input width.
    pub fn layers(&self) -> Vec<(&'static str, u64, u64)> {
        let q = self.heads * self.head_dim;
        let kv = self.kv_heads * self.head_dim;
        let mut layers = Vec::new();
        if !self.experts_only {
            layers.push(("qkv_proj", q + 2 * kv, self.hidden));
            if self.kv_heads < self.heads {
                layers.push(("k_proj", kv, self.hidden));
            }
            layers.push(("o_proj", self.hidden, q));
        }
        if self.gated {
            layers.push(("gate_up_proj", 2 * self.intermediate, self.hidden));
        }
        layers.push(("up_proj", self.intermediate, self.hidden));
        layers.push(("down_proj", self.hidden, self.intermediate));
        if self.decoder && self.vocab > 0 && !self.experts_only {
            layers.push(("lm_head", self.vocab, self.hidden));
        }
        layers
    }
}

/// A splitmix64 generator: small, fast, and the same sequence on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose first output depends on every bit of `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1), 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A whole number from `lo` to `hi`, both included, uniformly.
    pub fn uniform(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + (self.next_u64() % (hi - lo + 1))
    }

    /// A whole number from `lo` (≥ 1) to `hi`, both included, log-uniformly: each octave as
    /// likely as the next.
    pub fn log_uniform(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(1 <= lo && lo <= hi, "empty range {lo}..={hi}");
        let (a, b) = (log2(lo as f64), log2((hi + 1) as f64));
        let x = exp2(a + self.unit() * (b - a)) as u64;
        x.clamp(lo, hi)
    }

    /// One of `items`, uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.uniform(0, items.len() as u64 - 1) as usize]
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// log₂ of `x > 0` by IEEE addition, multiplication and division alone (no platform `ln`), so
/// that draws are the same everywhere.
fn log2(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    // x = 2^exponent · m, m in [1, 2); ln m = 2·atanh(z), z = (m − 1)/(m + 1) in [0, 1/3).
    let m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    let z = (m - 1.0) / (m + 1.0);
    let (z2, mut term, mut sum) = (z * z, z, 0.0);
    for i in 0..40 {
        sum += term / (2 * i + 1) as f64;
        term *= z2;
    }
    exponent as f64 + 2.0 * sum / std::f64::consts::LN_2
}

/// 2^x for `0 ≤ x < 1000`, by the same arithmetic as [`log2`].
fn exp2(x: f64) -> f64 {
    let whole = x.floor();
    let y = (x - whole) * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for i in 1..40 {
        term *= y / i as f64;
        sum += term;
    }
    sum * f64::from_bits(((whole as i64 + 1023) as u64) << 52)
}

/// M·N·K·batch: the case's multiply-adds (exact for every size a problem takes).
pub fn work(case: &Case) -> u128 {
    let (m, n, k) = case.shape;
    m as u128 * n as u128 * k as u128 * case.batch as u128
}

/// Bytes of A, B and C of the whole batch in f32.
pub fn f32_bytes(case: &Case) -> u128 {
    let (m, n, k) = (case.shape.0 as u128, case.shape.1 as u128, case.shape.2 as u128);
    4 * case.batch as u128 * (m * k + k * n + m * n)
}

/// Whether A's and B's stored rows are whole multiples of 8 elements (16 bytes in bf16 and f16,
/// 32 in f32): A's rows hold K elements (M where A is transposed), B's N (K where B is).
pub fn rows_aligned(case: &Case) -> bool {
    let (m, n, k) = case.shape;
    let a = if case.layout.a == Op::T { m } else { k };
    let b = if case.layout.b == Op::T { k } else { n };
    a % 8 == 0 && b % 8 == 0
}

/// Within [`MAX_WORK`] and [`MAX_BYTES`].
pub fn within_limits(case: &Case) -> bool {
    work(case) <= MAX_WORK as u128 && f32_bytes(case) <= MAX_BYTES as u128
}

/// `1 token`, `7 tokens`.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `x` rounded to a multiple of 8, at least 8.
fn round8(x: u64) -> u64 {
    ((x + 4) / 8 * 8).max(8)
}

/// The evaluation suite: [`Class::count`] cases of each class, drawn from [`SEED`]; the same
/// list on every call and every platform.
pub fn eval_suite() -> Vec<EvalCase> {
    drawn(SEED, &HashSet::new())
}

/// The seed of the fitting suite ([`fit_suite`]).
pub const FIT_SEED: u64 = 0x0045_2026_1129_f17e;

/// The fitting suite: cases drawn as the evaluation suite's are (the same classes, counts and
/// limits) from another seed, [`FIT_SEED`], with every case of the evaluation suite drawn again.
/// The cost model's constants are fitted to timings of these cases (`rgemm tune --suite fit`),
/// so that what the evaluation suite says of the choice is said of shapes the fit never saw;
/// `tests/eval_suite.rs` keeps the two disjoint.
pub fn fit_suite() -> Vec<EvalCase> {
    let held_out = eval_suite().iter().map(|e| key(&e.case)).collect();
    drawn(FIT_SEED, &held_out)
}

/// What makes two cases the same problem for the tuner: (M, N, K, layout, batch).
pub type Key = (u64, u64, u64, Layout, u64);

/// `case`'s [`Key`].
pub fn key(case: &Case) -> Key {
    (case.shape.0, case.shape.1, case.shape.2, case.layout, case.batch)
}

/// [`Class::count`] cases of each class from `seed`, none of them in `avoid`.
fn drawn(seed: u64, avoid: &HashSet<Key>) -> Vec<EvalCase> {
    let mut out: Vec<EvalCase> = Vec::new();
    let mut seen: HashSet<Key> = HashSet::new();
    for (index, class) in Class::ALL.into_iter().enumerate() {
        let mut rng = Rng::new(seed ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut drawn = 0;
        let mut attempts = 0;
        while drawn < class.count() {
            attempts += 1;
            assert!(attempts < 100_000, "the {class} class cannot draw {} distinct cases within the limits", class.count());
            let Some((case, what)) = draw(class, drawn, &mut rng) else { continue };
            if !within_limits(&case) || case.problem(LeadingDims::default()).is_err() || avoid.contains(&key(&case)) || !seen.insert(key(&case)) {
                continue;
            }
            out.push(EvalCase { case, class, what });
            drawn += 1;
        }
    }
    out
}

/// One draw of `class` (`None`: draw again); `i` is the number of the class's cases so far,
/// which picks the layout where a class goes through all four.
fn draw(class: Class, i: usize, rng: &mut Rng) -> Option<(Case, String)> {
    let layout = Layout::ALL[i % 4];
    let case = |shape, layout, batch| Case { shape, layout, batch };
    match class {
        Class::Decode | Class::Prefill => {
            let decoders: Vec<Model> = MODELS.iter().copied().filter(|m| m.decoder || class == Class::Prefill).collect();
            let model = rng.pick(&decoders);
            let (layer, n, k) = rng.pick(&model.layers());
            // A prompt's tokens from the octaves 128-255, ..., 4096-8192 in turn (so every
            // octave has its share), drawn apart from the layer: a draw beyond the limits is
            // drawn again, so a prompt of the largest layers is shorter than one of the smallest.
            let octave = 128 << (i % 6);
            let m = match class {
                Class::Decode => rng.uniform(1, 16),
                _ if model.tokens_per_input > 0 => (rng.log_uniform(octave, 2 * octave) / model.tokens_per_input).max(1) * model.tokens_per_input,
                _ => rng.log_uniform(octave, 2 * octave),
            };
            Some((case((m, n, k), model.layout, 1), format!("{} {layer}, {}", model.name, plural(m, "token", "tokens"))))
        }
        Class::Attention => {
            let model = rng.pick(MODELS.iter().copied().filter(|m| !m.experts_only).collect::<Vec<_>>().as_slice());
            let d = model.head_dim;
            let decode = model.decoder && rng.chance(1.0 / 3.0);
            let (queries, keys, heads, kind) = if decode {
                (model.heads / model.kv_heads, rng.log_uniform(128, 8192), model.kv_heads, "decode step")
            } else {
                let s = match (model.tokens_per_input, model.decoder) {
                    (t, _) if t > 0 => t,
                    (_, true) => rng.log_uniform(128, 8192),
                    (_, false) => rng.log_uniform(32, 512),
                };
                (s, s, model.heads, "prompt")
            };
            let qk = i % 2 == 0;
            let shape = if qk { (queries, keys, d) } else { (queries, d, keys) };
            let layout = if qk { Layout::NT } else { Layout::NN };
            let mut sequences = rng.log_uniform(1, 64);
            while sequences > 1 && !within_limits(&case(shape, layout, sequences * heads)) {
                sequences /= 2;
            }
            let what = format!(
                "{} {}, {kind}, {} × {heads} heads, {}, {}",
                model.name,
                if qk { "QKᵀ" } else { "PV" },
                plural(sequences, "sequence", "sequences"),
                plural(queries, "query", "queries"),
                plural(keys, "key", "keys")
            );
            Some((case(shape, layout, sequences * heads), what))
        }
        Class::SmallBatched => {
            let aligned = i % 8 < 4;
            let size = |rng: &mut Rng| if aligned { round8(rng.log_uniform(32, 128)) } else { rng.log_uniform(32, 128) };
            let shape = if rng.chance(0.5) {
                let s = size(rng);
                (s, s, s)
            } else {
                (size(rng), size(rng), size(rng))
            };
            let mut batch = rng.log_uniform(256, 4096);
            while batch > 256 && !within_limits(&case(shape, layout, batch)) {
                batch = (batch / 2).max(256);
            }
            Some((case(shape, layout, batch), "many small products".into()))
        }
        Class::DeepK => {
            let (m, n) = (rng.log_uniform(16, 1024), rng.log_uniform(16, 1024));
            let most = (MAX_WORK / (m * n)).min(MAX_BYTES / 4 / (m + n)).min(1 << 22);
            if most < 16384 {
                return None;
            }
            let k = rng.log_uniform(16384, most);
            let shape = if i % 8 < 4 { (round8(m), round8(n), round8(k).min(most / 8 * 8)) } else { (m, n, k) };
            Some((case(shape, layout, 1), "narrow output, deep K".into()))
        }
        Class::Dot => {
            let m = rng.log_uniform(1, 16);
            let n = rng.log_uniform(1, 16 / m);
            let k = rng.log_uniform(65536, 1 << 24);
            let k = if i % 8 < 4 { k / 8 * 8 } else { k };
            Some((case((m, n, k), layout, 1), "dot-product-like".into()))
        }
        Class::TinyK => {
            let shape = (rng.log_uniform(512, 16384), rng.log_uniform(512, 16384), rng.uniform(1, 16));
            Some((case(shape, layout, 1), "large output, tiny K".into()))
        }
        Class::RandomAligned => {
            let mut dim = || round8(rng.log_uniform(8, 16384));
            let shape = (dim(), dim(), dim());
            let batch = if rng.chance(0.25) { rng.log_uniform(2, 64) } else { 1 };
            Some((case(shape, layout, batch), "random, aligned".into()))
        }
        Class::RandomUnaligned => {
            let mut dim = || rng.log_uniform(1, 16384);
            let shape = (dim(), dim(), dim());
            let c = case(shape, layout, 1);
            (!rows_aligned(&c)).then(|| (c, "random, unaligned".into()))
        }
    }
}

/// A named suite of `rgemm bench --suite` and `rgemm tune --suite`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// The tuning suite ([`crate::suite::real_suite`]): every case has its row in the table.
    Real,
    /// The evaluation suite ([`eval_suite`]): no case is in any table; never tuned on.
    Eval,
    /// The fitting suite ([`fit_suite`]): drawn as the evaluation suite is, disjoint from it;
    /// the cost model's constants are fitted to its timings.
    Fit,
}

impl Suite {
    /// Every suite, by name.
    pub const ALL: [Suite; 3] = [Suite::Real, Suite::Eval, Suite::Fit];

    /// `real`, `eval` or `fit`.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::Real => "real",
            Suite::Eval => "eval",
            Suite::Fit => "fit",
        }
    }

    /// The suite's cases, in order.
    pub fn cases(self) -> Vec<Case> {
        match self {
            Suite::Real => crate::suite::real_suite(),
            Suite::Eval => eval_suite().into_iter().map(|c| c.case).collect(),
            Suite::Fit => fit_suite().into_iter().map(|c| c.case).collect(),
        }
    }

    /// The class name of each case of [`Suite::cases`], in the same order (empty for a suite
    /// without classes); a benchmark records them in its report.
    pub fn classes(self) -> Vec<String> {
        match self {
            Suite::Real => Vec::new(),
            Suite::Eval => eval_suite().into_iter().map(|c| c.class.name().to_string()).collect(),
            Suite::Fit => fit_suite().into_iter().map(|c| c.class.name().to_string()).collect(),
        }
    }

    /// The cases a tune of the dispatcher may run: the tuning suite's and the fitting suite's;
    /// the evaluation suite is refused, since tuning on it would make it in-sample.
    pub fn tunable_cases(self) -> ToolResult<Vec<Case>> {
        match self {
            Suite::Real | Suite::Fit => Ok(self.cases()),
            Suite::Eval => Err(ToolError::InvalidArgument(
                "the evaluation suite is never tuned on: its shapes must stay out of the dispatch table and the cost model's fit so that `rgemm bench --suite eval` judges the choice on shapes it has not seen; tune with --suite real, --suite fit or --cases".into(),
            )),
        }
    }
}

impl std::str::FromStr for Suite {
    type Err = String;

    fn from_str(name: &str) -> Result<Suite, String> {
        Suite::ALL.into_iter().find(|s| s.name() == name.trim()).ok_or_else(|| {
            let names: Vec<&str> = Suite::ALL.iter().map(|s| s.name()).collect();
            format!("no suite named '{name}'; the suites are {}", names.join(", "))
        })
    }
}

impl std::fmt::Display for Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One case's result: its class and its speed relative to the best cuBLAS.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The case's class.
    pub class: Class,
    /// The case as the reports name it (`7x4096x11008:nt`).
    pub case: String,
    /// cuBLAS's time over the kernel's (1.0: as fast); `None` where the case has no validated
    /// timing (skipped, failed, or cuBLAS not timed).
    pub ratio: Option<f64>,
}

/// The results of a report's classed cases (those a benchmark of the evaluation suite
/// recorded a class for): per case, the fastest run that passed its check against the best
/// cuBLAS. Sizes without a class (other runs) are left out.
pub fn measured(report: &Report) -> Vec<Measured> {
    report
        .sizes
        .iter()
        .filter_map(|size| {
            let class = Class::named(size.class.as_deref()?)?;
            let ratio = size.runs.iter().filter(|r| r.outcome == Outcome::Pass).filter_map(|r| size.fraction_of_cublas(r)).max_by(f64::total_cmp);
            Some(Measured { class, case: size.name(), ratio })
        })
        .collect()
}

/// One line of a [`summarize`]: a class's cases, or all of them.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassSummary {
    /// The class; `None` for the line over every case.
    pub class: Option<Class>,
    /// Its cases.
    pub cases: usize,
    /// Those with a ratio.
    pub measured: usize,
    /// The geometric mean of the ratios (`None` where none was measured).
    pub geomean: Option<f64>,
    /// The lowest ratio and its case.
    pub min: Option<(f64, String)>,
}

fn summary(class: Option<Class>, rows: &[&Measured]) -> ClassSummary {
    let ratios: Vec<(f64, &str)> = rows.iter().filter_map(|r| Some((r.ratio?, r.case.as_str()))).filter(|(r, _)| r.is_finite() && *r > 0.0).collect();
    let geomean = (!ratios.is_empty()).then(|| (ratios.iter().map(|(r, _)| r.ln()).sum::<f64>() / ratios.len() as f64).exp());
    let min = ratios.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map(|(r, c)| (*r, c.to_string()));
    ClassSummary { class, cases: rows.len(), measured: ratios.len(), geomean, min }
}

/// A line per class that has cases (in [`Class::ALL`] order), then one over every case.
pub fn summarize(rows: &[Measured]) -> Vec<ClassSummary> {
    let mut out: Vec<ClassSummary> = Class::ALL
        .into_iter()
        .filter_map(|class| {
            let of: Vec<&Measured> = rows.iter().filter(|r| r.class == class).collect();
            (!of.is_empty()).then(|| summary(Some(class), &of))
        })
        .collect();
    out.push(summary(None, &rows.iter().collect::<Vec<_>>()));
    out
}

/// [`summarize`]'s lines as a markdown table: cases (measured of all where some were not),
/// geometric mean and minimum as percentages of the best cuBLAS, and the slowest case.
pub fn markdown(summary: &[ClassSummary]) -> String {
    let mut out = String::from("| class | cases | geomean | min | slowest case |\n| --- | ---: | ---: | ---: | --- |\n");
    let percent = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", 100.0 * v));
    for line in summary {
        let name = line.class.map_or_else(|| "**all**".to_string(), |c| c.name().to_string());
        let cases = if line.measured == line.cases { line.cases.to_string() } else { format!("{} of {}", line.measured, line.cases) };
        let slowest = line.min.as_ref().map_or_else(|| "-".to_string(), |(_, case)| format!("`{case}`"));
        let _ = writeln!(out, "| {name} | {cases} | {} | {} | {slowest} |", percent(line.geomean), percent(line.min.as_ref().map(|m| m.0)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(class: Class, case: &str, ratio: Option<f64>) -> Measured {
        Measured { class, case: case.into(), ratio }
    }

    #[test]
    fn summary_per_class_and_overall() {
        let rows = [
            row(Class::Decode, "1x4096x5120:nt", Some(2.0)),
            row(Class::Decode, "7x4096x5120:nt", Some(0.5)),
            row(Class::Dot, "1x1x100000", Some(0.25)),
            row(Class::Dot, "2x2x100000", None),
        ];
        let s = summarize(&rows);
        assert_eq!(s.len(), 3, "decode, dot, all");
        assert_eq!(s[0].class, Some(Class::Decode));
        assert!((s[0].geomean.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(s[0].min, Some((0.5, "7x4096x5120:nt".to_string())));
        assert_eq!((s[1].cases, s[1].measured), (2, 1));
        assert_eq!(s[2].class, None);
        assert_eq!((s[2].cases, s[2].measured), (4, 3));
        // (2 · 0.5 · 0.25)^(1/3) = 0.25^(1/3)
        assert!((s[2].geomean.unwrap() - 0.25f64.powf(1.0 / 3.0)).abs() < 1e-12);
        assert_eq!(s[2].min.as_ref().unwrap().1, "1x1x100000");
        let table = markdown(&s);
        assert!(table.contains("| decode | 2 | 100.0% | 50.0% | `7x4096x5120:nt` |"), "{table}");
        assert!(table.contains("| dot | 1 of 2 | 25.0% | 25.0% | `1x1x100000` |"), "{table}");
        assert!(table.contains("| **all** | 3 of 4 | 63.0% | 25.0% | `1x1x100000` |"), "{table}");
        assert_eq!(table.lines().count(), 2 + 3);
    }

    #[test]
    fn nothing_measured() {
        let s = summarize(&[]);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].cases, s[0].geomean.is_none(), s[0].min.is_none()), (0, true, true));
        assert!(markdown(&s).contains("| **all** | 0 | - | - | - |"));
    }

    #[test]
    fn deterministic_logarithms() {
        for x in [1u64, 2, 3, 7, 128, 1000, 8193, 1 << 24] {
            let ours = log2(x as f64);
            assert!((ours - (x as f64).log2()).abs() < 1e-12, "log2({x}) = {ours}");
            assert!((exp2(ours) / x as f64 - 1.0).abs() < 1e-12);
        }
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            let v = rng.log_uniform(3, 17);
            assert!((3..=17).contains(&v));
        }
    }

    #[test]
    fn suite_names() {
        assert_eq!("eval".parse::<Suite>(), Ok(Suite::Eval));
        assert_eq!("real".parse::<Suite>(), Ok(Suite::Real));
        assert_eq!("fit".parse::<Suite>(), Ok(Suite::Fit));
        let e = "tuned".parse::<Suite>().unwrap_err();
        assert_eq!(e, "no suite named 'tuned'; the suites are real, eval, fit");
        assert!(Suite::Eval.tunable_cases().unwrap_err().to_string().starts_with("the evaluation suite is never tuned on"));
        assert_eq!(Suite::Real.tunable_cases().unwrap(), crate::suite::real_suite());
        assert!(Suite::Real.classes().is_empty());
        assert_eq!(Suite::Eval.classes().len(), Suite::Eval.cases().len());
    }
}
