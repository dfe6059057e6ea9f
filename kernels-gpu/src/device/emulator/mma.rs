//! `mma.sync.m16n8k16` on the emulator: a warp collective that gathers the A (16×16), B (16×8)
//! and C (16×8) fragments from the 32 lanes (layout in `device/mma.rs`), multiplies in f64 (every
//! product of two 16-bit floats is exact there) and hands each lane its part of D in f32.

use std::panic::Location;

use super::warp::{Scope, collective_at};
use crate::spec::{Bf16, Dtype, F16, HalfElem, Widen};

/// A 16-bit operand of the tensor cores with bits `h`, as f32 (exact), by the element type's own
/// widening ([`Widen`]): the one conversion the emulated `mma` and `wgmma` read operands with.
pub fn half_to_f32(dtype: Dtype, h: u16) -> f32 {
    if dtype == Dtype::F16 { F16(h).widen() } else { Bf16(h).widen() }
}

fn mma(dtype: Dtype, d: &mut [f32; 4], a: [u32; 4], b: [u32; 2], at: &'static Location<'static>) {
    let value = |bits: u32, high: bool| {
        let h = if high { (bits >> 16) as u16 } else { bits as u16 };
        half_to_f32(dtype, h)
    };
    *d = collective_at(at, Scope::Warp, (*d, a, b), |lanes: &[([f32; 4], [u32; 4], [u32; 2])]| {
        let (mut am, mut bm, mut cm) = ([[0f32; 16]; 16], [[0f32; 8]; 16], [[0f32; 8]; 16]);
        for (l, (c, a, b)) in lanes.iter().enumerate() {
            let (g, t) = (l / 4, l % 4);
            for (reg, (row, col)) in [(g, 2 * t), (g + 8, 2 * t), (g, 2 * t + 8), (g + 8, 2 * t + 8)].into_iter().enumerate() {
                am[row][col] = value(a[reg], false);
                am[row][col + 1] = value(a[reg], true);
            }
            for (reg, k) in [2 * t, 2 * t + 8].into_iter().enumerate() {
                bm[k][g] = value(b[reg], false);
                bm[k + 1][g] = value(b[reg], true);
            }
            (cm[g][2 * t], cm[g][2 * t + 1], cm[g + 8][2 * t], cm[g + 8][2 * t + 1]) = (c[0], c[1], c[2], c[3]);
        }
        let dot = |row: usize, col: usize| -> f32 {
            ((0..16).map(|k| am[row][k] as f64 * bm[k][col] as f64).sum::<f64>() + cm[row][col] as f64) as f32
        };
        (0..lanes.len())
            .map(|l| {
                let (g, t) = (l / 4, l % 4);
                [dot(g, 2 * t), dot(g, 2 * t + 1), dot(g + 8, 2 * t), dot(g + 8, 2 * t + 1)]
            })
            .collect()
    });
}

#[track_caller]
pub fn mma_m16n8k16_bf16(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    mma(Dtype::Bf16, d, a, b, Location::caller());
}

#[track_caller]
pub fn mma_m16n8k16_f16(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    mma(Dtype::F16, d, a, b, Location::caller());
}

/// `d += a · b` for the element type `E`.
#[track_caller]
pub fn mma_m16n8k16<E: HalfElem>(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    mma(E::DTYPE, d, a, b, Location::caller());
}
