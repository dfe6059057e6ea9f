//! `ldmatrix` on the emulator: a warp collective. Lanes `8i .. 8i+7` give the row addresses of
//! 8×8 matrix `i` (16-byte rows of 16-bit elements); lane `l` receives, per matrix, row `l / 4`
//! columns `2·(l % 4)`, `+1` (or with `.trans` rows `2·(l % 4)`, `+1` of column `l / 4`), the
//! lower-numbered element in the low half.

use std::panic::Location;

use super::context::lane;
use super::memory::{self, Kind, Space};
use super::warp::{Scope, collective_at};

fn ldmatrix<const N: usize>(addr: u32, trans: bool, at: &'static Location<'static>) -> [u32; N] {
    let block = lane().block();
    let first = lane().tid / 32 * 32;
    collective_at(at, Scope::Warp, addr, |addrs: &[u32]| {
        // Every row address in use is checked as a 16-byte shared read of the lane that gave it.
        for (u, &a) in addrs.iter().enumerate().take(8 * N) {
            let what = if trans { "ldmatrix.trans row" } else { "ldmatrix row" };
            memory::check_by(first + u as u32, block.smem as usize + a as usize, 16, 16, Kind::Read, Space::Shared, what, at);
        }
        let half = |row_lane: usize, byte: u32| -> u32 {
            let p = block.smem as usize + (addrs[row_lane] + byte) as usize;
            // SAFETY: `p` is a row address inside the block's shared arena, checked above.
            unsafe { (p as *const u16).read() as u32 }
        };
        (0..addrs.len())
            .map(|l| {
                std::array::from_fn(|i| {
                    let (g, t) = ((l / 4) as u32, l % 4);
                    if trans {
                        half(8 * i + 2 * t, 2 * g) | half(8 * i + 2 * t + 1, 2 * g) << 16
                    } else {
                        half(8 * i + g as usize, 4 * t as u32) | half(8 * i + g as usize, 4 * t as u32 + 2) << 16
                    }
                })
            })
            .collect()
    })
}

#[track_caller]
pub unsafe fn ldmatrix_x1(addr: u32) -> u32 {
    ldmatrix::<1>(addr, false, Location::caller())[0]
}

#[track_caller]
pub unsafe fn ldmatrix_x2(addr: u32) -> [u32; 2] {
    ldmatrix(addr, false, Location::caller())
}

#[track_caller]
pub unsafe fn ldmatrix_x4(addr: u32) -> [u32; 4] {
    ldmatrix(addr, false, Location::caller())
}

#[track_caller]
pub unsafe fn ldmatrix_x1_trans(addr: u32) -> u32 {
    ldmatrix::<1>(addr, true, Location::caller())[0]
}

#[track_caller]
pub unsafe fn ldmatrix_x2_trans(addr: u32) -> [u32; 2] {
    ldmatrix(addr, true, Location::caller())
}

#[track_caller]
pub unsafe fn ldmatrix_x4_trans(addr: u32) -> [u32; 4] {
    ldmatrix(addr, true, Location::caller())
}
