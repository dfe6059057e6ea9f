//! Arithmetic.

/// Fused multiply-add `a·b + c` with one rounding.
///
/// ```ptx
/// fma.rn.f32 %f, %a, %b, %c;
/// ```
/// Through LLVM's intrinsic rather than `asm!`, so the optimiser may still schedule and fold it.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::intrinsics::fmaf32(a, b, c)
}

/// `x` rounded to the nearest tf32 value (10 mantissa bits), ties away from zero, as an `f32`
/// whose low 13 bits are zero: the "high part" of a 3×TF32 split.
///
/// ```ptx
/// cvt.rna.tf32.f32 %r, %f;
/// ```
#[inline(always)]
pub fn cvt_rna_tf32(x: f32) -> f32 {
    let bits: u32;
    // SAFETY: a register-to-register conversion with no memory access.
    unsafe { core::arch::asm!("cvt.rna.tf32.f32 {d}, {x};", d = out(reg32) bits, x = in(reg32) x, options(pure, nomem, nostack)) };
    f32::from_bits(bits)
}

/// The IEEE binary16 value with bits `h`, widened to f32 (exactly: every f16 value is an f32
/// value, subnormals, infinities and NaN included). One instruction, where widening by hand takes
/// a dozen and a branch.
///
/// ```ptx
/// cvt.f32.f16 %f, %h;
/// ```
#[inline(always)]
pub fn cvt_f32_f16(h: u16) -> f32 {
    let x: f32;
    // SAFETY: a register-to-register conversion with no memory access.
    unsafe { core::arch::asm!("cvt.f32.f16 {x}, {h};", x = out(reg32) x, h = in(reg16) h, options(pure, nomem, nostack)) };
    x
}

/// `2^x`, approximately (at most 2 ulp from the exact value; subnormal results flushed to zero):
/// the fast exponential of the fused activations.
///
/// ```ptx
/// ex2.approx.ftz.f32 %d, %x;
/// ```
#[inline(always)]
pub fn ex2_approx(x: f32) -> f32 {
    let d: f32;
    // SAFETY: a register-to-register operation with no memory access.
    unsafe { core::arch::asm!("ex2.approx.ftz.f32 {d}, {x};", d = out(reg32) d, x = in(reg32) x, options(pure, nomem, nostack)) };
    d
}

/// `1/x`, approximately (at most 1 ulp from the exact value; `1/±∞ = ±0`, `1/±0 = ±∞`).
///
/// ```ptx
/// rcp.approx.ftz.f32 %d, %x;
/// ```
#[inline(always)]
pub fn rcp_approx(x: f32) -> f32 {
    let d: f32;
    // SAFETY: a register-to-register operation with no memory access.
    unsafe { core::arch::asm!("rcp.approx.ftz.f32 {d}, {x};", d = out(reg32) d, x = in(reg32) x, options(pure, nomem, nostack)) };
    d
}

/// `x` rounded to the nearest bf16 (ties to even), as its bits; NaN stays NaN.
///
/// ```ptx
/// cvt.rn.bf16.f32 %h, %x;
/// ```
#[inline(always)]
pub fn cvt_rn_bf16_f32(x: f32) -> u16 {
    let h: u16;
    // SAFETY: a register-to-register conversion with no memory access.
    unsafe { core::arch::asm!("cvt.rn.bf16.f32 {h}, {x};", h = out(reg16) h, x = in(reg32) x, options(pure, nomem, nostack)) };
    h
}

/// `x` rounded to the nearest IEEE binary16 (ties to even; beyond the largest finite value, ±∞),
/// as its bits; NaN stays NaN.
///
/// ```ptx
/// cvt.rn.f16.f32 %h, %x;
/// ```
#[inline(always)]
pub fn cvt_rn_f16_f32(x: f32) -> u16 {
    let h: u16;
    // SAFETY: a register-to-register conversion with no memory access.
    unsafe { core::arch::asm!("cvt.rn.f16.f32 {h}, {x};", h = out(reg16) h, x = in(reg32) x, options(pure, nomem, nostack)) };
    h
}
