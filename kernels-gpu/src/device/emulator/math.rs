//! Arithmetic with the GPU's rounding.

/// `fma.rn.f32`: `a·b + c` rounded once, exactly as the GPU computes it.
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}
