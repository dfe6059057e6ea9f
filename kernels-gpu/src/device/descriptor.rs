//! The shared-memory matrix descriptor of `wgmma`: plain bit packing, no instruction, so one
//! definition serves both backends (the GPU and the emulator, which decodes it).

pub use crate::spec::Swizzle;

/// The swizzle field of a matrix descriptor (bits 62–63). With 128-byte swizzling, the 16-byte
/// chunk `c` of 128-byte row `r` of each 1024-byte block is stored at chunk `c ^ (r % 8)`.
const fn swizzle_bits(swizzle: Swizzle) -> u64 {
    match swizzle {
        Swizzle::None => 0,
        Swizzle::B128 => 1,
        Swizzle::B64 => 2,
        Swizzle::B32 => 3,
    }
}

/// A `wgmma` shared-memory matrix descriptor.
///
/// | bits | field |
/// | --- | --- |
/// | 0–13 | start address `(addr & 0x3FFFF) >> 4` |
/// | 16–29 | leading dimension byte offset `>> 4` |
/// | 32–45 | stride dimension byte offset `>> 4` |
/// | 49–51 | base offset: 0 when the swizzle pattern starts at a 1024-byte boundary |
/// | 62–63 | swizzle mode |
///
/// `addr` is a shared address ([`shared_address`](super::shared_address)); the tile must start
/// 16-byte aligned, and for the swizzled modes the pattern (1024 bytes for 128-byte swizzling) must
/// start at an aligned address, since the hardware applies the XOR to address bits: moving the
/// start address inside an aligned pattern (to step along K) is allowed.
#[inline(always)]
// ANCHOR: descriptor
pub const fn matrix_descriptor(addr: u32, leading_bytes: u32, stride_bytes: u32, swizzle: Swizzle) -> u64 {
    const fn enc(x: u32) -> u64 {
        ((x & 0x3FFFF) >> 4) as u64
    }
    enc(addr) | (enc(leading_bytes) << 16) | (enc(stride_bytes) << 32) | (swizzle_bits(swizzle) << 62)
}
// ANCHOR_END: descriptor
