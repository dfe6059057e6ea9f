//! `wgmma.mma_async` on the emulator: a warpgroup collective (128 threads). A and B are read from
//! shared memory through matrix descriptors in the canonical layouts of the PTX ISA, the product is
//! computed in f64 (exact for 16-bit and FP8 inputs) and each thread receives its accumulator fragment:
//! thread `32w + 4g + t` holds, for every 8 columns `j` of D, rows `16w + g` and `16w + g + 8`,
//! columns `8j + 2t` and `8j + 2t + 1`.
//!
//! The product is computed when issued: the emulator runs the asynchronous instruction
//! synchronously, so fences, commits and waits have nothing left to order.

use std::panic::Location;

use super::context::{fail, lane};
use super::memory::{self, Kind, Space};
use super::mma::half_to_f32;
use super::tma::swizzled;
use super::warp::{Scope, collective_at};
use crate::spec::{Dtype, WgmmaElem};

pub use crate::device::descriptor::{Swizzle, matrix_descriptor};

/// A decoded descriptor: where element (mn, k) of an operand lies.
struct DecodedDescriptor {
    start: u32,
    lbo: u32,
    sbo: u32,
    /// Bytes of a swizzle row (32, 64 or 128), 0 without swizzle.
    span: u32,
    /// K is the contiguous dimension (transpose flag 0).
    k_major: bool,
}

impl DecodedDescriptor {
    fn new(desc: u64, k_major: bool) -> DecodedDescriptor {
        let field = |shift: u32| (((desc >> shift) & 0x3fff) << 4) as u32;
        let span = match desc >> 62 {
            1 => 128,
            2 => 64,
            3 => 32,
            _ => 0,
        };
        DecodedDescriptor { start: field(0), lbo: field(16), sbo: field(32), span, k_major }
    }

    /// Shared address of 16-bit element (mn, k), from the canonical layouts (in elements, T = 8
    /// per 16 bytes, W = span / 16):
    /// - K-major, none: ((8,m),(T,2)) : ((T,SBO),(1,LBO)); swizzled: ((8,m),(T,2)) : ((W·T,SBO),(1,T))
    /// - MN-major, none: ((T,1,m),(8,k)) : ((1,T,SBO),(T,LBO)); swizzled: ((T,W,m),(8,k)) : ((1,T,LBO),(W·T,SBO))
    ///
    /// then the swizzle of the address bits.
    fn addr(&self, mn: u32, k: u32) -> u32 {
        let w = self.span / 16;
        let offset = match (self.k_major, self.span) {
            (true, 0) => (mn % 8) * 16 + (mn / 8) * self.sbo + (k % 8) * 2 + (k / 8) * self.lbo,
            (true, _) => (mn % 8) * self.span + (mn / 8) * self.sbo + k * 2,
            (false, 0) => (mn % 8) * 2 + (mn / 8) * self.sbo + (k % 8) * 16 + (k / 8) * self.lbo,
            (false, _) => (mn % (8 * w)) * 2 + (mn / (8 * w)) * self.lbo + (k % 8) * self.span + (k / 8) * self.sbo,
        };
        swizzled(self.start + offset, self.span)
    }

    /// Shared address of element (mn, k), `bytes` wide, of a K-major operand (the only layout
    /// tf32 and FP8 have): the 16-bit byte layout with T = 16 / `bytes` elements per 16 bytes.
    /// - none: ((8,m),(T,2)) : ((T,SBO),(1,LBO)); swizzled: ((8,m),(T,2)) : ((W·T,SBO),(1,T))
    fn addr_k_major(&self, mn: u32, k: u32, bytes: u32) -> u32 {
        let t = 16 / bytes;
        let offset = match self.span {
            0 => (mn % 8) * 16 + (mn / 8) * self.sbo + (k % t) * bytes + (k / t) * self.lbo,
            _ => (mn % 8) * self.span + (mn / 8) * self.sbo + k * bytes,
        };
        swizzled(self.start + offset, self.span)
    }
}

/// `D(64×N) = A(64×K)·B(K×N) + (accumulate ? D : 0)` for the calling warpgroup, one K-step of 32
/// bytes: K = 16 for the 16-bit types, 32 for FP8.
///
/// 16-bit products and their sums are exact in f64, and the sum with the old `D` is rounded to
/// f32. FP8 sums are kept with fewer bits ([`fp8_step`]), a model under which a long chain of
/// steps drifts as it does on an H200 (rung 16): a kernel that leaves long FP8 sums in the
/// tensor cores loses accuracy here too.
fn wgmma<const R: usize>(dtype: Dtype, d: &mut [f32; R], desc_a: u64, desc_b: u64, accumulate: bool, trans: (u32, u32), at: &'static Location<'static>) {
    // Each thread holds N/2 accumulators.
    let n = 2 * R;
    let block = lane().block();
    let first = lane().tid / 128 * 128;
    let fp8 = matches!(dtype, Dtype::E4m3);
    if fp8 && trans != (0, 0) {
        fail(format!("FP8 wgmma has no transposed operands (trans {trans:?}), at {at}"));
    }
    let (bytes, k_step) = if fp8 { (1u32, 32usize) } else { (2, 16) };
    *d = collective_at(at, Scope::Warpgroup, (*d, desc_a, desc_b, accumulate), |lanes: &[([f32; R], u64, u64, bool)]| {
        if lanes.len() != 128 {
            fail(format!("wgmma needs a whole warpgroup of 128 threads; this one has {}, at {at}", lanes.len()));
        }
        if let Some(u) = lanes.iter().position(|l| (l.1, l.2, l.3) != (desc_a, desc_b, accumulate)) {
            fail(format!("wgmma operands differ across the warpgroup: thread {} gives other descriptors or scale-d, at {at}", first as usize + u));
        }
        let (a, b) = (DecodedDescriptor::new(desc_a, trans.0 == 0), DecodedDescriptor::new(desc_b, trans.1 == 0));
        let read = |addr: u32| -> f64 {
            memory::check_by(first, block.smem as usize + addr as usize, bytes as usize, bytes as usize, Kind::Read, Space::Shared, "wgmma operand", at);
            // SAFETY: `addr` was decoded from the descriptor and checked against the block's
            // shared arena.
            unsafe {
                if fp8 {
                    e4m3_to_f64(block.smem.add(addr as usize).read())
                } else {
                    half_to_f32(dtype, (block.smem.add(addr as usize) as *const u16).read()) as f64
                }
            }
        };
        let addr = |desc: &DecodedDescriptor, mn: u32, k: u32| if fp8 { desc.addr_k_major(mn, k, 1) } else { desc.addr(mn, k) };
        let am: Vec<Vec<f64>> = (0..64).map(|m| (0..k_step).map(|k| read(addr(&a, m, k as u32))).collect()).collect();
        let bm: Vec<Vec<f64>> = (0..n as u32).map(|col| (0..k_step).map(|k| read(addr(&b, col, k as u32))).collect()).collect();
        (0..128usize)
            .map(|l| {
                let (w, g, t) = (l / 32, l % 32 / 4, l % 4);
                let mut out = lanes[l].0;
                for (i, v) in out.iter_mut().enumerate() {
                    let (j, e) = (i / 4, i % 4);
                    let (row, col) = (16 * w + g + 8 * (e / 2), 8 * j + 2 * t + e % 2);
                    let old = if accumulate { *v as f64 } else { 0.0 };
                    *v = if fp8 {
                        fp8_step(old, (0..k_step).map(|k| am[row][k] * bm[col][k]))
                    } else {
                        let dot: f64 = (0..k_step).map(|k| am[row][k] * bm[col][k]).sum();
                        (dot + old) as f32
                    };
                }
                out
            })
            .collect()
    });
}

/// Significant bits the emulator keeps of an FP8 `wgmma`'s sum (`fp8_step`): 14, the
/// precision reported for Hopper's FP8 accumulation (an f32 keeps 24).
pub const FP8_SUM_BITS: u32 = 14;

/// One FP8 `wgmma` step of one accumulator: the old value and the step's 32 exact products are
/// aligned to the largest of them and each cut toward zero to [`FP8_SUM_BITS`] significant bits
/// of that largest, then summed, and the sum cut the same way. Every term smaller than the
/// running sum loses its low bits: on one-sign data the error grows with the chain. On the
/// product of `tests/fp8.rs`'s GPU test (128 × 256 × 4096, one sign, no flush) this model and an
/// H200 gave the same relative error (6.60·10⁻², 7% low) and the same worst element (`docs/perf`
/// run 188).
fn fp8_step(old: f64, products: impl Iterator<Item = f64> + Clone) -> f32 {
    let top = products.clone().fold(old.abs(), |m, p| m.max(p.abs()));
    if top == 0.0 || !top.is_finite() {
        return (products.sum::<f64>() + old) as f32;
    }
    // The weight of the last bit kept of the largest term.
    let grid = 2f64.powi(top.log2().floor() as i32 + 1 - FP8_SUM_BITS as i32);
    let cut = |x: f64| (x / grid).trunc() * grid;
    let sum: f64 = products.map(cut).sum::<f64>() + cut(old);
    toward_zero_bits(sum, FP8_SUM_BITS)
}

/// The f64 value of an e4m3 byte (exact): 1 sign, 4 exponent bits (bias 7), 3 mantissa bits;
/// `S.1111.111` is NaN.
pub fn e4m3_to_f64(bits: u8) -> f64 {
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, m) = ((bits >> 3) & 0xf, bits & 0x7);
    if e == 0xf && m == 0x7 {
        return f64::NAN;
    }
    let magnitude = if e == 0 { m as f64 * 2f64.powi(-9) } else { (8 + m) as f64 * 2f64.powi(e as i32 - 10) };
    sign * magnitude
}

/// `x` rounded to f32, then toward zero to `bits` significant bits.
fn toward_zero_bits(x: f64, bits: u32) -> f32 {
    let r = toward_zero(x);
    if !r.is_finite() {
        return r;
    }
    f32::from_bits(r.to_bits() & !((1u32 << (24 - bits)) - 1))
}

macro_rules! wgmma_fn {
    ($($name:ident, $dtype:expr, $r:literal;)+) => {$(
        #[track_caller]
        pub unsafe fn $name<const TRANS_A: u32, const TRANS_B: u32>(d: &mut [f32; $r], desc_a: u64, desc_b: u64, accumulate: bool) {
            wgmma($dtype, d, desc_a, desc_b, accumulate, (TRANS_A, TRANS_B), Location::caller());
        }
    )+};
}

wgmma_fn! {
    wgmma_m64n64k16_bf16, Dtype::Bf16, 32;
    wgmma_m64n64k16_f16, Dtype::F16, 32;
    wgmma_m64n128k16_bf16, Dtype::Bf16, 64;
    wgmma_m64n128k16_f16, Dtype::F16, 64;
    wgmma_m64n192k16_bf16, Dtype::Bf16, 96;
    wgmma_m64n192k16_f16, Dtype::F16, 96;
    wgmma_m64n256k16_bf16, Dtype::Bf16, 128;
    wgmma_m64n256k16_f16, Dtype::F16, 128;
}

/// What the tensor cores see of a tf32 operand: the fp32 bit pattern with its low 13 bits
/// ignored (truncation toward zero to 10 mantissa bits).
fn tf32_input(bits: u32) -> f64 {
    f32::from_bits(bits & !0x1fff) as f64
}

/// `D(64×N) = A(64×8)·B(8×N) + (accumulate ? D : 0)` for tf32 inputs, A from the warpgroup's
/// registers: thread `32w + 4g + t` holds A(16w + g, t), A(16w + g + 8, t), A(16w + g, t + 4),
/// A(16w + g + 8, t + 4) (the `mma.m16n8k8` tf32 layout, one per warp); B K-major in shared memory.
/// Products of truncated inputs are exact in f64 (and so is their sum of eight, unless their
/// exponents lie more than 30 binades apart); the sum with the old `D` is rounded to f32 toward
/// zero, as the tensor cores' accumulation does: on an H100 the error of one accumulator chain
/// grew linearly with its length, in proportion to the chain's additions, not to their square
/// root (see rung 15). A kernel that accumulates long chains in the tensor cores fails on the
/// emulator too.
fn wgmma_tf32_rs<const R: usize>(d: &mut [f32; R], a: [u32; 4], desc_b: u64, accumulate: bool, at: &'static Location<'static>) {
    let n = 2 * R;
    let block = lane().block();
    let first = lane().tid / 128 * 128;
    *d = collective_at(at, Scope::Warpgroup, (*d, a, desc_b, accumulate), |lanes: &[([f32; R], [u32; 4], u64, bool)]| {
        if lanes.len() != 128 {
            fail(format!("wgmma needs a whole warpgroup of 128 threads; this one has {}, at {at}", lanes.len()));
        }
        if let Some(u) = lanes.iter().position(|l| (l.2, l.3) != (desc_b, accumulate)) {
            fail(format!("wgmma operands differ across the warpgroup: thread {} gives another descriptor or scale-d, at {at}", first as usize + u));
        }
        let b = DecodedDescriptor::new(desc_b, true);
        let read = |addr: u32| -> f64 {
            memory::check_by(first, block.smem as usize + addr as usize, 4, 4, Kind::Read, Space::Shared, "wgmma operand", at);
            // SAFETY: checked just above: four readable bytes of this block's shared memory.
            tf32_input(unsafe { (block.smem.add(addr as usize) as *const u32).read() })
        };
        let mut am = [[0.0f64; 8]; 64];
        for (l, lane) in lanes.iter().enumerate() {
            let (w, g, t) = (l / 32, l % 32 / 4, l % 4);
            for (i, &bits) in lane.1.iter().enumerate() {
                am[16 * w + g + 8 * (i % 2)][t + 4 * (i / 2)] = tf32_input(bits);
            }
        }
        let bm: Vec<[f64; 8]> = (0..n as u32).map(|col| std::array::from_fn(|k| read(b.addr_k_major(col, k as u32, 4)))).collect();
        (0..128usize)
            .map(|l| {
                let (w, g, t) = (l / 32, l % 32 / 4, l % 4);
                let mut out = lanes[l].0;
                for (i, v) in out.iter_mut().enumerate() {
                    let (j, e) = (i / 4, i % 4);
                    let (row, col) = (16 * w + g + 8 * (e / 2), 8 * j + 2 * t + e % 2);
                    let dot: f64 = (0..8).map(|k| am[row][k] * bm[col][k]).sum();
                    *v = toward_zero(dot + if accumulate { *v as f64 } else { 0.0 });
                }
                out
            })
            .collect()
    });
}

/// `x` rounded to f32 toward zero.
fn toward_zero(x: f64) -> f32 {
    let r = x as f32;
    if r.is_finite() && r != 0.0 && (r as f64).abs() > x.abs() { f32::from_bits(r.to_bits() - 1) } else { r }
}

#[track_caller]
pub unsafe fn wgmma_m64n128k8_tf32_rs(d: &mut [f32; 64], a: [u32; 4], desc_b: u64, accumulate: bool) {
    wgmma_tf32_rs(d, a, desc_b, accumulate, Location::caller());
}

#[track_caller]
pub unsafe fn wgmma_m64n256k8_tf32_rs(d: &mut [f32; 128], a: [u32; 4], desc_b: u64, accumulate: bool) {
    wgmma_tf32_rs(d, a, desc_b, accumulate, Location::caller());
}

/// The `N`-wide tf32 wgmma with A from registers, on the first `N / 2` accumulators of `d`.
#[track_caller]
pub unsafe fn wgmma_m64k8_tf32_rs<const N: usize>(d: &mut [f32; 128], a: [u32; 4], desc_b: u64, accumulate: bool) {
    let at = Location::caller();
    match N {
        128 => wgmma_tf32_rs::<64>((&mut d[..64]).try_into().unwrap(), a, desc_b, accumulate, at),
        256 => wgmma_tf32_rs(d, a, desc_b, accumulate, at),
        _ => fail(format!("tf32 wgmma with N = {N}: only 128 and 256 are instantiated, at {at}")),
    }
}

/// `wgmma.fence`: orders register accesses before wgmma; nothing is in flight on the emulator.
pub fn wgmma_fence() {}

/// `wgmma.commit_group`: the emulator's wgmmas are complete when issued.
pub fn wgmma_commit_group() {}

/// `wgmma.wait_group N`: nothing to wait for (see [`wgmma_commit_group`]).
pub fn wgmma_wait_group<const N: u32>() {}

/// `fence.proxy.async.shared::cta` before wgmma reads shared memory: no separate proxy here.
pub fn fence_proxy_async_shared() {}

/// The `n`-wide wgmma of one 32-byte K-step for element type `E`, on the first `n / 2`
/// accumulators of `d`.
#[track_caller]
pub unsafe fn wgmma_m64<E: WgmmaElem, const TRANS_A: u32, const TRANS_B: u32>(d: &mut [f32; 128], n: usize, desc_a: u64, desc_b: u64, accumulate: bool) {
    let at = Location::caller();
    let trans = (TRANS_A, TRANS_B);
    match n {
        64 => wgmma::<32>(E::DTYPE, (&mut d[..32]).try_into().unwrap(), desc_a, desc_b, accumulate, trans, at),
        128 => wgmma::<64>(E::DTYPE, (&mut d[..64]).try_into().unwrap(), desc_a, desc_b, accumulate, trans, at),
        192 => wgmma::<96>(E::DTYPE, (&mut d[..96]).try_into().unwrap(), desc_a, desc_b, accumulate, trans, at),
        256 => wgmma(E::DTYPE, d, desc_a, desc_b, accumulate, trans, at),
        _ => fail(format!("wgmma with N = {n}: only 64, 128, 192 and 256 are instantiated, at {at}")),
    }
}

/// Keeps the compiler from moving accumulator accesses across wgmma on the GPU; nothing to do here.
pub fn fence_operands<const N: usize>(_d: &mut [f32; 128]) {}

/// [`fence_operands`] with the width as a value; nothing to do here.
pub fn fence_accumulators(_d: &mut [f32; 128], _n: usize) {}

pub fn fence_operands_16(_d: &mut [f32; 16]) {}

pub fn fence_operands_32(_d: &mut [f32; 32]) {}

pub fn fence_operands_64(_d: &mut [f32; 64]) {}

pub fn fence_operands_128(_d: &mut [f32; 128]) {}
