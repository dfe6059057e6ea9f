//! Arithmetic with the GPU's rounding.

/// `fma.rn.f32`: `a·b + c` rounded once, exactly as the GPU computes it.
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// `cvt.rna.tf32.f32`: the nearest value with 10 mantissa bits, ties away from zero, as an `f32`
/// whose low 13 bits are zero. Adding half of the dropped range (bit 12) to the magnitude and
/// truncating rounds ties away from zero, since the sign is a separate bit; a carry out of the
/// mantissa raises the exponent (up to infinity), as the hardware's rounding does. NaN stays NaN.
pub fn cvt_rna_tf32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    f32::from_bits((x.to_bits() + 0x1000) & !0x1fff)
}
