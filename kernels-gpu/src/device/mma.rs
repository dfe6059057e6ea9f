//! `mma.sync`: one warp multiplies small tiles on the tensor cores, operands and accumulators in
//! registers (sm_80+; on Hopper the older, warp-level path next to `wgmma`).
//!
//! `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32` computes
//! `D(16×8) = A(16×16) · B(16×8) + C(16×8)` with 16-bit inputs and `f32` accumulation. With
//! `g = lane / 4` (the "group") and `t = lane % 4` (the thread in the group), each lane holds:
//!
//! | fragment | register | elements (row, column) |
//! | --- | --- | --- |
//! | A, four `.b32` of two 16-bit values | `a0` | (g, 2t), (g, 2t+1) |
//! | | `a1` | (g+8, 2t), (g+8, 2t+1) |
//! | | `a2` | (g, 2t+8), (g, 2t+9) |
//! | | `a3` | (g+8, 2t+8), (g+8, 2t+9) |
//! | B, two `.b32` (`.col`: pairs run along k) | `b0` | (2t, g), (2t+1, g) |
//! | | `b1` | (2t+8, g), (2t+9, g) |
//! | C and D, four `f32` | `d0`, `d1` | (g, 2t), (g, 2t+1) |
//! | | `d2`, `d3` | (g+8, 2t), (g+8, 2t+1) |
//!
//! The lower-numbered element sits in the low half of each `.b32`. `ldmatrix.x4` produces the
//! A fragment and `ldmatrix.x4.trans` two B fragments (see [`super::ldmatrix`]).

use crate::spec::{Dtype, HalfElem};
use core::arch::asm;

/// `d += a · b` on one 16×8×16 tile, bf16 inputs.
///
/// ```ptx
/// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
///     {%f_d0, %f_d1, %f_d2, %f_d3}, {%r_a0, %r_a1, %r_a2, %r_a3}, {%r_b0, %r_b1},
///     {%f_d0, %f_d1, %f_d2, %f_d3};
/// ```
/// All 32 lanes of the warp must execute it together.
#[inline(always)]
// ANCHOR: mma_bf16
pub fn mma_m16n8k16_bf16(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    // SAFETY: register operands only: reads `a`, `b`, `d` and writes `d`; no memory.
    unsafe {
        asm!(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};",
            inout(reg32) d[0], inout(reg32) d[1], inout(reg32) d[2], inout(reg32) d[3],
            in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3],
            in(reg32) b[0], in(reg32) b[1],
            options(pure, nomem, nostack),
        )
    }
}
// ANCHOR_END: mma_bf16

/// `d += a · b` on one 16×8×16 tile, f16 inputs.
///
/// ```ptx
/// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
///     {%f_d0, %f_d1, %f_d2, %f_d3}, {%r_a0, %r_a1, %r_a2, %r_a3}, {%r_b0, %r_b1},
///     {%f_d0, %f_d1, %f_d2, %f_d3};
/// ```
/// All 32 lanes of the warp must execute it together.
#[inline(always)]
pub fn mma_m16n8k16_f16(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    // SAFETY: register operands only: reads `a`, `b`, `d` and writes `d`; no memory.
    unsafe {
        asm!(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};",
            inout(reg32) d[0], inout(reg32) d[1], inout(reg32) d[2], inout(reg32) d[3],
            in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3],
            in(reg32) b[0], in(reg32) b[1],
            options(pure, nomem, nostack),
        )
    }
}

/// `d += a · b` on one 16×8×16 tile of `E` (bf16 or f16): the instruction for the element type,
/// chosen at compile time.
#[inline(always)]
pub fn mma_m16n8k16<E: HalfElem>(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    match E::DTYPE {
        Dtype::F16 => mma_m16n8k16_f16(d, a, b),
        _ => mma_m16n8k16_bf16(d, a, b),
    }
}
