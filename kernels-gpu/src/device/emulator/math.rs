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

/// `ex2.approx.ftz.f32`: `2^x` (the host's correctly rounded one stands in for the GPU's
/// approximation, which is within 2 ulp of it); subnormal results flushed to zero.
pub fn ex2_approx(x: f32) -> f32 {
    let d = x.exp2();
    if d != 0.0 && d.abs() < f32::MIN_POSITIVE { 0.0 } else { d }
}

/// `rcp.approx.ftz.f32`: `1/x` (the correctly rounded quotient stands in for the GPU's, within
/// 1 ulp of it).
pub fn rcp_approx(x: f32) -> f32 {
    1.0 / x
}

/// `cvt.rn.bf16.f32`: the top 16 bits of `x` rounded to nearest, ties to even (a carry into the
/// exponent is the next binade, or ∞); NaN becomes the canonical NaN `0x7fff`.
pub fn cvt_rn_bf16_f32(x: f32) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let bits = x.to_bits();
    ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) as u16
}

/// `cvt.rn.f16.f32`: the nearest binary16, ties to even. Normal results keep 10 of the 23
/// mantissa bits and round on the 13 dropped; results below 2⁻¹⁴ are multiples of 2⁻²⁴ (the
/// subnormals), rounded as integers; beyond 65504 (from 65520 on) ±∞; NaN becomes `0x7fff`.
pub fn cvt_rn_f16_f32(x: f32) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let a = bits & 0x7fff_ffff;
    let exp = (a >> 23) as i32 - 127;
    if exp > 15 {
        return sign | 0x7c00;
    }
    if exp < -14 {
        // A subnormal (or zero): the value in units of 2⁻²⁴, rounded half to even (exact in f64).
        let q = f32::from_bits(a) as f64 * 16_777_216.0;
        let (floor, frac) = (q.floor(), q - q.floor());
        let r = if frac > 0.5 || (frac == 0.5 && floor % 2.0 == 1.0) { floor + 1.0 } else { floor };
        return sign | r as u16; // 1024 is the smallest normal's bits, as it should be
    }
    let mant = a & 0x7f_ffff;
    let mut h = (((exp + 15) as u32) << 10) | (mant >> 13);
    let dropped = mant & 0x1fff;
    if dropped > 0x1000 || (dropped == 0x1000 && h & 1 == 1) {
        h += 1; // a carry out of the mantissa raises the exponent, up to ∞ (0x7c00)
    }
    sign | h as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_matches_the_half_crate_on_edge_values() {
        // Against an independent f32 → f16/bf16 rounding (round to nearest, ties to even).
        let mut values = vec![0.0f32, -0.0, 1.0, -1.0, 65504.0, 65519.0, 65520.0, 1e-8, 5.96e-8, 2.98e-8, 2.9802322e-8, 6.1035156e-5, 6.1e-5, f32::MAX, f32::MIN_POSITIVE, f32::INFINITY, -f32::INFINITY, 3.3895314e38];
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            values.push(f32::from_bits(s as u32));
        }
        for x in values {
            let (h, b) = (cvt_rn_f16_f32(x), cvt_rn_bf16_f32(x));
            if x.is_nan() {
                assert!(half::f16::from_bits(h).is_nan() && half::bf16::from_bits(b).is_nan());
            } else {
                assert_eq!(h, half::f16::from_f32(x).to_bits(), "f16 of {x:e} ({:#x})", x.to_bits());
                assert_eq!(b, half::bf16::from_f32(x).to_bits(), "bf16 of {x:e} ({:#x})", x.to_bits());
            }
        }
    }
}
