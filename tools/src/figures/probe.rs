//! Layouts read off the device module by running it: the tensor-core instructions' register
//! layouts are not transcribed into the figures but observed on the emulator, which implements
//! each instruction's semantics (`kernels-gpu/src/device/emulator/`). A value planted in shared
//! memory or in a matrix tells, when it comes back in a register, where that register's element
//! lives.

use std::sync::Mutex;

use kernels_gpu::device::emulator::{self, EmulatedLaunch};
use kernels_gpu::device::*;
use kernels_gpu::swizzle::SwizzledTile;
use kernels_gpu::{Bf16, spec::Swizzle};

/// (row, column) of one 16-bit or 32-bit element.
pub type RowCol = (u32, u32);

/// Where each lane's registers of `mma.sync.m16n8k16` lie, as observed.
pub struct MmaLayout {
    /// `a[lane][register][half]`: element of the 16×16 A tile (loaded by `ldmatrix.x4`).
    pub a: [[[RowCol; 2]; 4]; 32],
    /// `b[lane][register][half]`: element (k, n) of the 16×8 B tile (`ldmatrix.x4.trans`, first
    /// two registers).
    pub b: [[[RowCol; 2]; 2]; 32],
    /// `c[lane][register]`: element of the 16×8 accumulator tile.
    pub c: [[RowCol; 4]; 32],
    /// `rows[lane]`: (row, first column) of the 16-byte row whose address lane gives `ldmatrix.x4`.
    pub rows: [RowCol; 32],
}

fn bf16(v: f32) -> u16 {
    (v.to_bits() >> 16) as u16
}

/// The row address each lane gives `ldmatrix.x4` in rung 12 (and in `tests/emulator.rs`):
/// lanes 0–15 the rows of the left 8 columns, lanes 16–31 those of the right 8.
pub fn ldmatrix_row(lane: u32) -> RowCol {
    (lane % 16, lane / 16 * 8)
}

/// Runs one warp: writes the 16×16 tiles A and B (16-bit words, row-major, 32-byte rows) into
/// shared memory, loads the A fragment with `ldmatrix.x4`, two B fragments with
/// `ldmatrix.x4.trans`, and, when `multiply`, one `mma.sync` on them. Returns per lane the A and
/// B registers and the accumulators.
fn warp_run(a: &[u16; 256], b: &[u16; 256], multiply: bool) -> Vec<([u32; 4], [u32; 4], [f32; 4])> {
    let out = Mutex::new(vec![([0u32; 4], [0u32; 4], [0f32; 4]); 32]);
    let launch = EmulatedLaunch { kernel: "figure_mma_probe", grid: (1, 1, 1), threads: 32, smem_bytes: 1024, regions: &[] };
    emulator::launch(&launch, &|| {
        let smem = dynamic_shared::<u16>();
        let lane = lane_idx();
        for i in 0..8 {
            let e = (lane * 8 + i) as usize;
            // SAFETY: 512 halves of the 1024-byte block's shared memory, each written by one lane.
            unsafe {
                store(smem.add(e), a[e]);
                store(smem.add(256 + e), b[e]);
            }
        }
        sync_threads();
        let (r, c) = ldmatrix_row(lane);
        let base = shared_address(smem);
        // SAFETY: every address is a 16-byte row inside the tiles written above.
        let (af, bf) = unsafe { (ldmatrix_x4(base + (r * 16 + c) * 2), ldmatrix_x4_trans(base + 512 + (r * 16 + c) * 2)) };
        let mut d = [0f32; 4];
        if multiply {
            mma_m16n8k16_bf16(&mut d, af, [bf[0], bf[1]]);
        }
        out.lock().unwrap()[lane as usize] = (af, bf, d);
    })
    .expect("the mma probe runs on the emulator");
    out.into_inner().unwrap()
}

/// Observes the `mma.sync` layouts: A and B hold their own coordinates (16-bit words
/// `row·16 + column`) for the fragments; for the accumulators, `A·B` with a single non-zero
/// column of A and row of B gives `D = row` in one run and `D = column` in another.
pub fn mma_layout() -> MmaLayout {
    let coords: [u16; 256] = std::array::from_fn(|i| i as u16);
    let frags = warp_run(&coords, &coords, false);
    let split = |w: u32| [(w & 0xffff) as u16, (w >> 16) as u16];
    let at = |v: u16| ((v / 16) as u32, (v % 16) as u32);
    let mut layout = MmaLayout { a: [[[(0, 0); 2]; 4]; 32], b: [[[(0, 0); 2]; 2]; 32], c: [[(0, 0); 4]; 32], rows: [(0, 0); 32] };
    for (lane, (af, bf, _)) in frags.iter().enumerate() {
        for r in 0..4 {
            layout.a[lane][r] = split(af[r]).map(at);
        }
        for r in 0..2 {
            layout.b[lane][r] = split(bf[r]).map(at);
        }
        layout.rows[lane] = ldmatrix_row(lane as u32);
    }
    let one_column = |f: &dyn Fn(u32) -> f32| -> [u16; 256] { std::array::from_fn(|i| if i % 16 == 0 { bf16(f(i as u32 / 16)) } else { 0 }) };
    let one_row = |f: &dyn Fn(u32) -> f32| -> [u16; 256] { std::array::from_fn(|i| if i < 16 { bf16(f(i as u32)) } else { 0 }) };
    let rows = warp_run(&one_column(&|r| r as f32), &one_row(&|_| 1.0), true);
    let cols = warp_run(&one_column(&|_| 1.0), &one_row(&|n| n as f32), true);
    for lane in 0..32 {
        for r in 0..4 {
            layout.c[lane][r] = (rows[lane].2[r] as u32, cols[lane].2[r] as u32);
        }
    }
    layout
}

/// Shapes of the wgmma probe: rung 13's tiles, a `64 × 64` A tile (K-major, one 128-byte row per
/// m) and a `64 × N` B tile (N-major, 64-wide column panels), both 128-byte swizzled.
pub const WGMMA_N: usize = 256;

/// `acc[thread][register]` = (row, column) of the 64×256 accumulator tile of
/// `wgmma.mma_async.m64n256k16`, observed like the `mma.sync` one: `D = row`, then `D = column`,
/// with operands placed by `swizzle.rs`'s tiles and described by rung 13's descriptors.
pub fn wgmma_accumulators() -> Vec<[RowCol; 128]> {
    wgmma_accumulators_with_sbo(1024)
}

/// [`wgmma_accumulators`] with A's stride byte offset set to `sbo_a` instead of rung 13's 1024:
/// what the tensor cores compute when the descriptor is wrong (rung 13's "Try it").
pub fn wgmma_accumulators_with_sbo(sbo_a: u32) -> Vec<[RowCol; 128]> {
    let run = |a_of_m: &(dyn Fn(u32) -> f32 + Sync), b_of_n: &(dyn Fn(u32) -> f32 + Sync)| -> Vec<[f32; 128]> {
        let a_tile = SwizzledTile::new(0, 64, 64);
        let a_bytes = SwizzledTile::bytes(64, 64);
        let b_tile = SwizzledTile::new(a_bytes, 64, WGMMA_N);
        let smem_bytes = (a_bytes + SwizzledTile::bytes(64, WGMMA_N)) as u32;
        let out = Mutex::new(vec![[0f32; 128]; 128]);
        let launch = EmulatedLaunch { kernel: "figure_wgmma_probe", grid: (1, 1, 1), threads: 128, smem_bytes, regions: &[] };
        emulator::launch(&launch, &|| {
            let smem = dynamic_shared::<u8>();
            let t = thread_idx();
            // Zero everything, then thread t < 64 writes A(t, 0) and every thread writes B(0, n)
            // for its two columns n.
            let mut i = t as usize;
            while i < smem_bytes as usize / 2 {
                // SAFETY: inside the block's shared memory; each half written by one thread.
                unsafe { store((smem as *mut u16).add(i), 0u16) };
                i += 128;
            }
            sync_threads();
            if t < 64 {
                let at = a_tile.chunk(t, 0) as usize;
                // SAFETY: the first half of row t's first chunk of the A tile.
                unsafe { store(smem.add(at) as *mut u16, bf16(a_of_m(t))) };
            }
            for n in [2 * t, 2 * t + 1] {
                let at = b_tile.chunk(0, n / 8 * 8) as usize + (n % 8) as usize * 2;
                // SAFETY: element (0, n) of the B tile.
                unsafe { store(smem.add(at) as *mut u16, bf16(b_of_n(n))) };
            }
            fence_proxy_async_shared();
            sync_threads();
            let base = shared_address(smem);
            let desc_a = matrix_descriptor(base + a_tile.offset(), 16, sbo_a, Swizzle::B128);
            let desc_b = matrix_descriptor(base + b_tile.offset(), b_tile.panel_bytes(), 1024, Swizzle::B128);
            let mut acc = [0f32; 128];
            wgmma_fence();
            // SAFETY: both descriptors describe the tiles written above, swizzle-aligned.
            unsafe { wgmma_m64::<Bf16, 0, 1>(&mut acc, WGMMA_N, desc_a, desc_b, false) };
            wgmma_commit_group();
            wgmma_wait_group::<0>();
            out.lock().unwrap()[t as usize] = acc;
        })
        .expect("the wgmma probe runs on the emulator");
        out.into_inner().unwrap()
    };
    let rows = run(&|m| m as f32, &|_| 1.0);
    let cols = run(&|_| 1.0, &|n| n as f32);
    (0..128).map(|t| std::array::from_fn(|r| (rows[t][r] as u32, cols[t][r] as u32))).collect()
}
