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

/// `cvt.f32.f16`: the IEEE binary16 value with bits `h` as f32 (exact). Sign, exponent rebiased
/// from 15 to 127, mantissa moved up 13 bits; subnormals scaled by 2⁻²⁴ (exact in f32),
/// infinities and NaN kept.
pub fn cvt_f32_f16(h: u16) -> f32 {
    let h = h as u32;
    let sign = (h & 0x8000) << 16;
    let (exp, mant) = ((h >> 10) & 0x1f, h & 0x3ff);
    let magnitude = match exp {
        0 => (mant as f32 * (1.0 / 16_777_216.0)).to_bits(),
        0x1f => 0x7f80_0000 | (mant << 13),
        _ => ((exp + 112) << 23) | (mant << 13),
    };
    f32::from_bits(sign | magnitude)
}
