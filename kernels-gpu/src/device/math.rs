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
