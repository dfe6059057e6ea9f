//! What happens to a sum on its way out of the kernel: the **fused epilogue**
//!
//! ```text
//! pre = alpha·acc + beta·C_old + bias        (bias indexed by column or by row, or none)
//! aux = pre                                   (optional: what a training backward pass needs)
//! D   = act(pre)                              written in the output type
//! ```
//!
//! applied in registers before the store, so the product is written once. C (and the bias and
//! the auxiliary output) are of the output type: f32, bf16 or f16, whatever A and B are; the
//! arithmetic stays f32 until the final rounding.
//!
//! The kernels receive the epilogue as one `u32` ([`FusedEpilogue::pack`]) plus the bias and
//! auxiliary pointers, so every GEMM entry keeps one parameter list; kernels that apply it say
//! so in their spec ([`crate::KernelSpec::fused_epilogue`], a [`Fusion`]); the host sends the
//! others only [`FusedEpilogue::NONE`].

use crate::Dtype;

/// How much of a [`FusedEpilogue`] a kernel applies itself ([`crate::KernelSpec::fused_epilogue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fusion {
    /// Only [`FusedEpilogue::NONE`].
    None,
    /// Every fused epilogue.
    Full,
}

impl Fusion {
    /// Whether a kernel of this kind applies `epilogue` itself.
    #[inline]
    pub fn applies(self, epilogue: FusedEpilogue) -> bool {
        match self {
            Fusion::None => epilogue.is_none(),
            Fusion::Full => true,
        }
    }
}

/// The activation applied last.
///
/// ```rust
/// use rgemm_spec::Activation;
///
/// assert_eq!(Activation::ALL.len(), 5);
/// assert_eq!(Activation::GeluTanh.name(), "gelu-tanh");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `x`.
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// GELU in the tanh form: `x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (PyTorch's
    /// `approximate="tanh"`, cuBLASLt's `GELU`).
    GeluTanh,
    /// GELU in the erf form: `x/2·(1 + erf(x/√2))` (PyTorch's default).
    GeluErf,
    /// SiLU (swish): `x/(1 + e^(-x))`.
    Silu,
}

impl Activation {
    /// Every activation, in code order.
    pub const ALL: [Activation; 5] = [Activation::Identity, Activation::Relu, Activation::GeluTanh, Activation::GeluErf, Activation::Silu];

    /// The name the CLI and reports use.
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Activation::Identity => "identity",
            Activation::Relu => "relu",
            Activation::GeluTanh => "gelu-tanh",
            Activation::GeluErf => "gelu-erf",
            Activation::Silu => "silu",
        }
    }

    #[inline]
    const fn code(self) -> u32 {
        match self {
            Activation::Identity => 0,
            Activation::Relu => 1,
            Activation::GeluTanh => 2,
            Activation::GeluErf => 3,
            Activation::Silu => 4,
        }
    }

    #[inline]
    const fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::Identity),
            1 => Some(Activation::Relu),
            2 => Some(Activation::GeluTanh),
            3 => Some(Activation::GeluErf),
            4 => Some(Activation::Silu),
            _ => None,
        }
    }
}

/// Which index of C the bias vector follows.
///
/// ```rust
/// use rgemm_spec::{Bias, FusedEpilogue};
///
/// // A linear layer's bias has one value per output feature: per column of C (N values).
/// let layer = FusedEpilogue { bias: Bias::PerColumn, ..FusedEpilogue::NONE };
/// assert!(!layer.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bias {
    /// No bias.
    None,
    /// `bias[col]`, N values: one per output feature of a linear layer `y = x·Wᵀ + b`.
    PerColumn,
    /// `bias[row]`, M values.
    PerRow,
}

impl Bias {
    #[inline]
    const fn code(self) -> u32 {
        match self {
            Bias::None => 0,
            Bias::PerColumn => 1,
            Bias::PerRow => 2,
        }
    }

    #[inline]
    const fn from_code(code: u32) -> Option<Bias> {
        match code {
            0 => Some(Bias::None),
            1 => Some(Bias::PerColumn),
            2 => Some(Bias::PerRow),
            _ => None,
        }
    }
}

/// The output type and what is applied before the store (module docs).
///
/// ```rust
/// use rgemm_spec::{Activation, Bias, Dtype, FusedEpilogue};
///
/// // y = gelu(x·Wᵀ + b) in bf16: what a transformer's MLP asks of its first product.
/// let mlp = FusedEpilogue { output: Dtype::Bf16, bias: Bias::PerColumn, activation: Activation::GeluTanh, aux: false };
/// // One word carries it to the kernels, and back.
/// assert_eq!(FusedEpilogue::unpack(mlp.pack()), Some(mlp));
/// assert_eq!(FusedEpilogue::unpack(0xffff_ffff), None);
/// // GELU takes a pass of its own over the staged tile; a bias and ReLU are applied per value.
/// assert!(!mlp.applies_per_value());
/// assert!(FusedEpilogue { activation: Activation::Relu, ..mlp }.applies_per_value());
/// assert!(FusedEpilogue::NONE.is_none() && FusedEpilogue::NONE.pack() == 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FusedEpilogue {
    /// The element type of C, of the bias and of the auxiliary output.
    pub output: Dtype,
    /// The bias added before the activation ([`Bias::None`]: none).
    pub bias: Bias,
    /// The activation applied last ([`Activation::Identity`]: none).
    pub activation: Activation,
    /// Whether `pre` (before the activation) is also written, to a matrix shaped as C.
    pub aux: bool,
}

impl FusedEpilogue {
    /// f32 out, nothing added or applied: `C = alpha·acc + beta·C`.
    pub const NONE: FusedEpilogue = FusedEpilogue { output: Dtype::F32, bias: Bias::None, activation: Activation::Identity, aux: false };

    /// Whether this is [`FusedEpilogue::NONE`], which every kernel applies.
    #[inline]
    pub const fn is_none(self) -> bool {
        matches!(self.output, Dtype::F32) && matches!(self.bias, Bias::None) && matches!(self.activation, Activation::Identity) && !self.aux
    }

    /// Whether the epilogue costs a few instructions per value (a bias over the columns, ReLU
    /// at most, no auxiliary output): what a kernel can apply to each value on its way to a
    /// staging buffer of C, without a pass of its own.
    #[inline]
    pub const fn applies_per_value(self) -> bool {
        matches!(self.bias, Bias::None | Bias::PerColumn) && matches!(self.activation, Activation::Identity | Activation::Relu) && !self.aux
    }

    /// The kernel parameter: output type, bias, activation and aux in one word. An output type C
    /// cannot have ([`Dtype::is_output`]) packs to a word [`unpack`](Self::unpack) refuses.
    #[inline]
    pub const fn pack(self) -> u32 {
        let output = match self.output {
            Dtype::F32 => 0,
            Dtype::Bf16 => 1,
            Dtype::F16 => 2,
            Dtype::E4m3 => 0xf,
        };
        output | self.bias.code() << 4 | self.activation.code() << 8 | (self.aux as u32) << 12
    }

    /// The epilogue a packed word names; `None` for a word [`pack`](Self::pack) never makes.
    #[inline]
    pub const fn unpack(word: u32) -> Option<FusedEpilogue> {
        let output = match word & 0xf {
            0 => Dtype::F32,
            1 => Dtype::Bf16,
            2 => Dtype::F16,
            _ => return None,
        };
        let (Some(bias), Some(activation)) = (Bias::from_code(word >> 4 & 0xf), Activation::from_code(word >> 8 & 0xf)) else {
            return None;
        };
        if word >> 13 != 0 {
            return None;
        }
        Some(FusedEpilogue { output, bias, activation, aux: word >> 12 & 1 == 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_epilogue_survives_packing_and_other_words_do_not_unpack() {
        let mut seen = 0;
        for output in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
            for bias in [Bias::None, Bias::PerColumn, Bias::PerRow] {
                for activation in Activation::ALL {
                    for aux in [false, true] {
                        let e = FusedEpilogue { output, bias, activation, aux };
                        assert_eq!(FusedEpilogue::unpack(e.pack()), Some(e));
                        seen += 1;
                    }
                }
            }
        }
        assert_eq!(seen, 90);
        assert_eq!(FusedEpilogue::NONE.pack(), 0);
        for bad in [3, 3 << 4, 5 << 8, 1 << 13, u32::MAX] {
            assert_eq!(FusedEpilogue::unpack(bad), None, "{bad:#x}");
        }
    }
}
