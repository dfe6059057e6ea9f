//! The FP8 element type of A and B: [`E4m3`], OCP FP8 E4M3 (`float8_e4m3fn`).
//!
//! One byte: 1 sign bit, 4 exponent bits (bias 7), 3 mantissa bits. Normal values run from 2⁻⁶ to
//! 448, subnormals down to 2⁻⁹; there are no infinities, and `S.1111.111` is NaN. With 4
//! significant bits a value is within 2⁻⁴ (relative) of the real number it stands for, so FP8 data
//! is scaled into range first: `rgemm` takes one scale per operand ([`crate::api::Gemm::scales`])
//! and computes `C = alpha·sa·sb·A·B`.

use cudarc::driver::{DeviceRepr, ValidAsZeroBits};

/// An e4m3 value as its byte.
///
/// ```rust
/// use rgemm::E4m3;
///
/// assert_eq!(E4m3::from_f32(1.0).to_f32(), 1.0);
/// assert_eq!(E4m3::from_f32(0.3).to_f32(), 0.3125); // 4 significant bits, to nearest
/// assert_eq!(E4m3::from_f32(1000.0).to_f32(), 448.0); // saturates at the largest finite value
/// assert!(E4m3::from_f32(f32::NAN).to_f32().is_nan());
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct E4m3(pub u8);

// SAFETY: a plain byte, as the kernels read it.
unsafe impl DeviceRepr for E4m3 {}
// SAFETY: the zero byte is +0.0.
unsafe impl ValidAsZeroBits for E4m3 {}

impl E4m3 {
    /// The largest finite value, 448.
    pub const MAX: E4m3 = E4m3(0x7e);
    /// The quiet NaN `0.1111.111`.
    pub const NAN: E4m3 = E4m3(0x7f);

    /// `x` rounded to the nearest e4m3 (ties to even); beyond ±448 it saturates to ±448, as
    /// quantisation with a scale expects; NaN stays NaN.
    ///
    /// ```rust
    /// use rgemm::E4m3;
    ///
    /// // 1.0625 lies halfway between 1 and 1.125: the tie goes to the even code, 1.
    /// assert_eq!(E4m3::from_f32(1.0625), E4m3::from_f32(1.0));
    /// assert_eq!(E4m3::from_f32(-500.0), E4m3(0x80 | E4m3::MAX.0));
    /// ```
    pub fn from_f32(x: f32) -> E4m3 {
        if x.is_nan() {
            return E4m3::NAN;
        }
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        let a = x.abs() as f64;
        if a >= 448.0 {
            return E4m3(sign | E4m3::MAX.0);
        }
        // Below 2⁻⁶ the steps are 2⁻⁹ apart (subnormals); a rounded 8 is the smallest normal,
        // whose code is 8 as well.
        if a < 2f64.powi(-6) {
            return E4m3(sign | (a * 512.0).round_ties_even() as u8);
        }
        // a = q·2^(e-3) with q in [8, 16): 3 mantissa bits below the leading one.
        let mut e = a.log2().floor() as i32;
        if a < 2f64.powi(e) {
            e -= 1;
        }
        let mut q = (a / 2f64.powi(e - 3)).round_ties_even() as u32;
        if q == 16 {
            (e, q) = (e + 1, 8);
        }
        let code = (((e + 7) as u32) << 3) | (q - 8);
        // 464 and up round past 448 (the code after it is NaN): saturate.
        E4m3(sign | code.min(E4m3::MAX.0 as u32) as u8)
    }

    /// The value, exactly.
    ///
    /// ```rust
    /// use rgemm::E4m3;
    ///
    /// assert_eq!(E4m3(0x38).to_f32(), 1.0); // 0.0111.000: exponent 7 - 7, mantissa 0
    /// assert_eq!(E4m3(0x01).to_f32(), 2f32.powi(-9)); // the smallest subnormal
    /// ```
    pub fn to_f32(self) -> f32 {
        let (e, m) = ((self.0 >> 3) & 0xf, self.0 & 0x7);
        if e == 0xf && m == 0x7 {
            return f32::NAN;
        }
        let magnitude = if e == 0 { m as f32 * 2f32.powi(-9) } else { (8 + m) as f32 * 2f32.powi(e as i32 - 10) };
        if self.0 & 0x80 != 0 { -magnitude } else { magnitude }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte round-trips through f32, and rounding lands on the nearest code (ties to the
    /// even code) across the whole range.
    #[test]
    fn conversion_is_exact_and_nearest() {
        let finite: Vec<(u8, f32)> = (0u8..=255).map(|b| (b, E4m3(b).to_f32())).filter(|(_, v)| !v.is_nan()).collect();
        assert_eq!(finite.len(), 254);
        for &(b, v) in &finite {
            // -0 and +0 are two codes of one value.
            if v != 0.0 {
                assert_eq!(E4m3::from_f32(v).0, b, "{v}");
            }
        }
        let mut positive: Vec<f32> = finite.iter().map(|p| p.1).filter(|v| *v >= 0.0).collect();
        positive.sort_by(f32::total_cmp);
        positive.dedup();
        for w in positive.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let mid = (lo + hi) / 2.0;
            assert_eq!(E4m3::from_f32(lo + (mid - lo) * 0.5).to_f32(), lo);
            assert_eq!(E4m3::from_f32(mid + (hi - mid) * 0.5).to_f32(), hi);
            let even = if E4m3::from_f32(lo).0 % 2 == 0 { lo } else { hi };
            assert_eq!(E4m3::from_f32(mid).to_f32(), even, "tie between {lo} and {hi}");
        }
        assert_eq!(E4m3::from_f32(-500.0).to_f32(), -448.0);
        assert_eq!(E4m3::from_f32(f32::INFINITY).to_f32(), 448.0);
    }
}
