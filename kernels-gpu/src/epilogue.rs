//! The fused epilogue: what a sum goes through between the accumulator and memory.
//!
//! ```text
//! pre = alpha·acc + beta·C_old + bias[col or row]
//! aux = pre                       (when asked: the pre-activation, for a backward pass)
//! C   = act(pre)                  rounded to C's type (f32, bf16 or f16)
//! ```
//!
//! The idea: a GEMM is usually followed by a bias, an activation and a cast. Done as separate
//! kernels each reads and writes all of C again; done here they cost a few instructions per
//! element on values already in registers, and the narrow store halves the bytes of C.
//!
//! [`FusedOutput`] is [`Output`](crate::view::Output) with the epilogue: the same window and
//! bounds checks, the element type read from the epilogue word at run time (every kernel keeps
//! one parameter list). The kernels that use it (the GEMV, the general kernels, split-K's sum,
//! rung 14's TMA-store kernels) declare it in their spec (`Fusion::Full`); the host sends any
//! other kernel only the empty epilogue (word 0), and a plan on such a kernel writes its product
//! to the workspace for split-K's sum to finish (`split_k.rs`). Rung 14 applies it to values read
//! back from its C staging buffers, not to its 128 accumulators in registers: the epilogue's code
//! among them took the consumer past its register budget (ptxas: 255 registers and spills).
//!
//! Invariants: C, the bias and the auxiliary output have the output type; the bias is indexed
//! by the column (or the row) of C, so a window moves the bias pointer with it; with beta = 0
//! the old C is never read. Cost: the plain epilogue's, plus one bias load per element (an L1
//! hit after the first row of a tile) and the activation: one `ex2.approx` and one
//! `rcp.approx` for GELU and SiLU, a few more multiply-adds for the erf form.

use crate::device::{cvt_f32_f16, cvt_rn_bf16_f32, cvt_rn_f16_f32, ex2_approx, load, rcp_approx, st_global_v2, st_global_v4, store};
use rgemm_spec::{Activation, Bias, Dtype, FusedEpilogue};

/// C (or a window of it) with a fused epilogue: see the module docs.
#[derive(Clone, Copy)]
pub struct FusedOutput {
    /// C at this window's origin.
    ptr: *mut u8,
    /// The auxiliary output at this window's origin (null unless `epilogue.aux`).
    aux: *mut u8,
    /// The bias at this window's origin's column (or row); null without a bias.
    bias: *const u8,
    pub rows: u32,
    pub cols: u32,
    /// Elements (of the output type) between the starts of two rows of C and of the auxiliary output.
    pub ld: u32,
    pub alpha: f32,
    pub beta: f32,
    pub epilogue: FusedEpilogue,
}

impl FusedOutput {
    /// C at `ptr` (`rows × cols`, rows `ld` elements apart), the epilogue `word`
    /// ([`FusedEpilogue::pack`]; a word the host never sends is read as the empty epilogue).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(ptr: *mut u8, rows: u32, cols: u32, ld: u32, alpha: f32, beta: f32, word: u32, bias: *const u8, aux: *mut u8) -> FusedOutput {
        let epilogue = match FusedEpilogue::unpack(word) {
            Some(e) => e,
            None => FusedEpilogue::NONE,
        };
        FusedOutput { ptr, aux, bias, rows, cols, ld, alpha, beta, epilogue }
    }

    /// Bytes of one element of C.
    #[inline(always)]
    pub fn elem_bytes(&self) -> usize {
        self.epilogue.output.bytes() as usize
    }

    /// The window whose origin is (row, col) of this one.
    #[inline(always)]
    pub fn window(self, row: u32, col: u32) -> FusedOutput {
        let size = self.elem_bytes();
        let offset = (row as usize * self.ld as usize + col as usize) * size;
        let along = match self.epilogue.bias {
            Bias::PerColumn => col,
            Bias::PerRow => row,
            Bias::None => 0,
        };
        FusedOutput {
            ptr: self.ptr.wrapping_add(offset),
            aux: self.aux.wrapping_add(offset),
            bias: self.bias.wrapping_add(along as usize * size),
            rows: self.rows.saturating_sub(row),
            cols: self.cols.saturating_sub(col),
            ..self
        }
    }

    #[inline(always)]
    pub fn contains(&self, row: u32, col: u32) -> bool {
        row < self.rows && col < self.cols
    }

    /// Byte offset of (row, col) from the window's origin.
    #[inline(always)]
    fn offset(&self, row: u32, col: u32) -> usize {
        (row as usize * self.ld as usize + col as usize) * self.elem_bytes()
    }

    /// Element `i` of an array of the output type, widened (exactly) to f32.
    ///
    /// # Safety
    /// `p` plus `i` elements lies inside an allocation of the output type.
    #[inline(always)]
    unsafe fn read(&self, p: *const u8, i: usize) -> f32 {
        // SAFETY: the caller's guarantee.
        unsafe {
            match self.epilogue.output {
                // C is never FP8 (`FusedEpilogue::unpack` refuses it): no arm of its own, since a
                // trap on a consumer's path makes ptxas serialise its wgmmas.
                Dtype::F32 | Dtype::E4m3 => load((p as *const f32).add(i)),
                Dtype::Bf16 => f32::from_bits((load((p as *const u16).add(i)) as u32) << 16),
                Dtype::F16 => cvt_f32_f16(load((p as *const u16).add(i))),
            }
        }
    }

    /// Writes `v` rounded to the output type at byte `offset` of `base`.
    ///
    /// # Safety
    /// The element lies inside C (or the auxiliary output) and is aligned for its type.
    #[inline(always)]
    unsafe fn write(&self, base: *mut u8, offset: usize, v: f32) {
        let bits = rounded_bits(self.epilogue.output, v);
        // SAFETY: the caller's guarantee.
        unsafe {
            match self.epilogue.output {
                // Never FP8 (see `read`).
                Dtype::F32 | Dtype::E4m3 => store(base.add(offset) as *mut u32, bits),
                Dtype::Bf16 | Dtype::F16 => store(base.add(offset) as *mut u16, bits as u16),
            }
        }
    }

    /// `alpha·acc + beta·C_old + bias` at (row, col), which must lie inside C.
    ///
    /// # Safety
    /// (row, col) lies inside C; the bias holds the window's columns (or rows).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    unsafe fn pre(&self, row: u32, col: u32, acc: f32) -> f32 {
        // As in BLAS: with beta = 0 the old C may hold anything (NaN included) and is not read.
        // SAFETY: the caller's guarantee.
        let mut v = if self.beta == 0.0 { self.alpha * acc } else { self.alpha * acc + self.beta * unsafe { self.read(self.ptr, row as usize * self.ld as usize + col as usize) } };
        // SAFETY: the caller's guarantee: the bias covers this column (or row).
        unsafe {
            match self.epilogue.bias {
                Bias::None => {}
                Bias::PerColumn => v += self.read(self.bias, col as usize),
                Bias::PerRow => v += self.read(self.bias, row as usize),
            }
        }
        v
    }

    /// The bias over this window's columns, for a kernel that adds it to each value as it goes
    /// ([`ColumnBias::at`]); with no bias or one over the rows, a bias of zeros that reads nothing.
    #[inline(always)]
    pub fn column_bias(&self) -> ColumnBias {
        let cols = if matches!(self.epilogue.bias, Bias::PerColumn) { self.cols } else { 0 };
        ColumnBias { ptr: self.bias, cols }
    }

    /// Writes the epilogue of `acc` to (row, col) if that element exists.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn store(&self, row: u32, col: u32, acc: f32) {
        if self.contains(row, col) {
            let at = self.offset(row, col);
            // SAFETY: (row, col) lies inside C (checked above); the auxiliary output is shaped as C.
            unsafe {
                let pre = self.pre(row, col, acc);
                if self.epilogue.aux {
                    self.write(self.aux, at, pre);
                }
                self.write(self.ptr, at, activate(self.epilogue.activation, pre));
            }
        }
    }

    /// Whether [`FusedOutput::store4`] may write four neighbouring sums as one vector: the plain
    /// epilogue ([`FusedOutput::is_plain`], any output type), and rows of C that start on the
    /// bytes of four elements (16 for f32, 8 for bf16 and f16) from this window's origin on.
    /// Decided once per tile.
    #[inline(always)]
    pub fn stores_quads(&self) -> bool {
        self.is_plain() && self.ld % 4 == 0 && self.ptr as usize % (4 * self.elem_bytes()) == 0
    }

    /// Whether the epilogue is the plain one: `C = alpha·acc` in C's type (beta = 0, nothing
    /// added, applied or kept), which [`FusedOutput::store_plain`] writes. Decided once per tile.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        let e = self.epilogue;
        self.beta == 0.0 && matches!(e.bias, Bias::None) && matches!(e.activation, Activation::Identity) && !e.aux
    }

    /// [`FusedOutput::store`] under the plain epilogue ([`FusedOutput::is_plain`], which the
    /// caller has checked): `alpha·acc` rounded to C's type at (row, col) if that element
    /// exists, without the fused epilogue's decisions per element. The same bits as `store`.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn store_plain(&self, row: u32, col: u32, acc: f32) {
        if self.contains(row, col) {
            // SAFETY: (row, col) lies inside C (checked above).
            unsafe { self.write(self.ptr, self.offset(row, col), self.alpha * acc) };
        }
    }

    /// Writes the plain epilogue of the sums `acc` at (row, col..col + 4), those that exist: one
    /// vector store where `col` is a multiple of 4 and all four lie inside C, else
    /// [`FusedOutput::store_plain`] element by element. Both write the same bits.
    ///
    /// # Safety
    /// [`FusedOutput::stores_quads`] holds (checked once per tile by the caller, not per call):
    /// the vector store needs the alignment it checks.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn store4(&self, row: u32, col: u32, acc: [f32; 4]) {
        if row < self.rows && col % 4 == 0 && self.cols >= 4 && col <= self.cols - 4 {
            let out = self.epilogue.output;
            let bits = acc.map(|a| rounded_bits(out, self.alpha * a));
            let at = self.ptr.wrapping_add(self.offset(row, col)) as *mut f32;
            // SAFETY: the four elements lie inside C (checked above), starting on a multiple of
            // four elements in a row that starts on the bytes of four (`stores_quads`: the
            // caller's guarantee).
            unsafe {
                match out {
                    Dtype::Bf16 | Dtype::F16 => st_global_v2(at, [f32::from_bits(bits[0] | bits[1] << 16), f32::from_bits(bits[2] | bits[3] << 16)]),
                    // Never FP8 (see `read`).
                    Dtype::F32 | Dtype::E4m3 => st_global_v4(at, bits.map(f32::from_bits)),
                }
            }
        } else {
            self.store_plain(row, col, acc[0]);
            self.store_plain(row, col + 1, acc[1]);
            self.store_plain(row, col + 2, acc[2]);
            self.store_plain(row, col + 3, acc[3]);
        }
    }
}

/// A bias over the columns of a window of C ([`FusedOutput::column_bias`]): what a kernel keeps
/// beside its accumulators to add it per value, two words instead of the whole output.
#[derive(Clone, Copy)]
pub struct ColumnBias {
    /// The bias at the window's first column.
    ptr: *const u8,
    /// Columns of the window inside C (0: no bias).
    cols: u32,
}

impl ColumnBias {
    /// No bias: zeros, nothing read.
    pub const NONE: ColumnBias = ColumnBias { ptr: core::ptr::null(), cols: 0 };

    /// The bias of column `col` of the window, of type `dtype` (C's); -0 past C's last column
    /// (where nothing is read) and everywhere without a bias: adding -0 leaves every value as it
    /// is, -0 included, so the compiler drops the addition where no bias is known.
    #[inline(always)]
    pub fn at(&self, col: u32, dtype: Dtype) -> f32 {
        if col >= self.cols {
            return -0.0;
        }
        // SAFETY: `col` lies inside C (checked above).
        unsafe { self.inside(col, dtype) }
    }

    /// Whether the window holds at least `cols` columns of C, so that each of them may be read
    /// with [`ColumnBias::inside`], without a check per column.
    #[inline(always)]
    pub fn spans(&self, cols: u32) -> bool {
        self.cols >= cols
    }

    /// The bias of column `col` of the window, of type `dtype` (C's), unchecked.
    ///
    /// # Safety
    /// `col` lies inside C (below the window's columns: [`ColumnBias::spans`]).
    #[inline(always)]
    pub unsafe fn inside(&self, col: u32, dtype: Dtype) -> f32 {
        // SAFETY: the caller's guarantee; the bias holds every column of C (the window's
        // invariant).
        unsafe {
            match dtype {
                // C (and its bias) is never FP8 (see `FusedOutput::read`).
                Dtype::F32 | Dtype::E4m3 => load((self.ptr as *const f32).add(col as usize)),
                Dtype::Bf16 => f32::from_bits((load((self.ptr as *const u16).add(col as usize)) as u32) << 16),
                Dtype::F16 => cvt_f32_f16(load((self.ptr as *const u16).add(col as usize))),
            }
        }
    }
}

/// `v` rounded to nearest (even) in `output`, as the bits a store of that type writes (f32: the
/// bits themselves; 16-bit types: in the low half). The one rounding rule of every C a kernel
/// writes in another type than f32.
#[inline(always)]
pub fn rounded_bits(output: Dtype, v: f32) -> u32 {
    match output {
        // C is never FP8 (see `FusedOutput::read`).
        Dtype::F32 | Dtype::E4m3 => v.to_bits(),
        Dtype::Bf16 => cvt_rn_bf16_f32(v) as u32,
        Dtype::F16 => cvt_rn_f16_f32(v) as u32,
    }
}

/// `act(x)`; NaN stays NaN.
#[inline(always)]
pub fn activate(act: Activation, x: f32) -> f32 {
    match act {
        Activation::Identity => x,
        // `x < 0` is false for NaN, which passes through.
        Activation::Relu => {
            if x < 0.0 { 0.0 } else { x }
        }
        Activation::GeluTanh => gelu_tanh(x),
        Activation::GeluErf => gelu_erf(x),
        Activation::Silu => silu(x),
    }
}

/// `e^x` from the hardware's `2^x`.
#[inline(always)]
fn exp(x: f32) -> f32 {
    ex2_approx(x * core::f32::consts::LOG2_E)
}

/// `x·σ(t) = x / (1 + e^(−t))`: both GELU-tanh and SiLU have this form. For t → −∞ the
/// exponential overflows to ∞ and the quotient goes to 0 with the right sign; for t → ∞ it is x.
#[inline(always)]
fn times_sigmoid(x: f32, t: f32) -> f32 {
    x * rcp_approx(1.0 + exp(-t))
}

/// GELU, tanh form: `x/2·(1 + tanh(u)) = x·σ(2u)` with `u = √(2/π)·(x + 0.044715·x³)`.
#[inline(always)]
pub fn gelu_tanh(x: f32) -> f32 {
    const SQRT_2_OVER_PI: f32 = 0.797_884_6;
    let u = SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x);
    times_sigmoid(x, 2.0 * u)
}

/// SiLU: `x·σ(x)`.
#[inline(always)]
pub fn silu(x: f32) -> f32 {
    times_sigmoid(x, x)
}

/// GELU, erf form: `x/2·(1 + erf(x/√2))`.
#[inline(always)]
pub fn gelu_erf(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * core::f32::consts::FRAC_1_SQRT_2))
}

/// `erf(z)` within 1.5·10⁻⁷ (Abramowitz and Stegun 7.1.26: a degree-5 polynomial in
/// `t = 1/(1 + p·|z|)` times `e^(−z²)`), odd in z.
#[inline(always)]
pub fn erf(z: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    const A: [f32; 5] = [0.254_829_6, -0.284_496_74, 1.421_413_8, -1.453_152_1, 1.061_405_4];
    let a = z.abs();
    let t = rcp_approx(1.0 + P * a);
    let poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))));
    let e = 1.0 - poly * exp(-a * a);
    if z < 0.0 { -e } else if z >= 0.0 { e } else { z }
}
