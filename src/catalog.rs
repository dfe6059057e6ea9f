//! The kernel catalog: every entry point of the PTX module, where it sits on the ladder, how to
//! launch it, and which problems it accepts. The list itself comes from `kernels-gpu`, so a kernel
//! added there appears here, in the CLI and in the tests without further edits.

use crate::entries;
use crate::error::{Error, Result};
use crate::problem::Problem;
pub use rgemm_spec::{Swizzle, TensorMaps, TileCopy, TileRules};
pub use rgemm_spec::{Dtype, KernelSpec, Layout, Rung, Tile};

/// Hopper's limits, checked before launch so that a bad configuration is a clear error.
pub const MAX_THREADS_PER_BLOCK: u32 = 1024;
pub const MAX_SMEM_PER_BLOCK: u32 = 227 * 1024;
pub const MAX_GRID_Y: u64 = 65_535;
pub const MAX_GRID_Z: u64 = 65_535;
pub const MAX_GRID_X: u64 = i32::MAX as u64;

/// Why a kernel configuration could never run correctly on Hopper, if it could not: the limits of
/// the hardware, and the kernel's own tile rules ([`TileRules::check`], the same `const fn` its
/// compile-time assert calls), so that any shape (a proposed one, a fuzzed one) can be judged
/// without compiling it.
pub fn shape_error(s: &KernelSpec) -> Option<String> {
    let t = &s.tile;
    if s.threads == 0 || s.threads > MAX_THREADS_PER_BLOCK || s.threads % 32 != 0 {
        return Some(format!("{} threads per block (whole warps, at most {MAX_THREADS_PER_BLOCK})", s.threads));
    }
    if s.smem_bytes > MAX_SMEM_PER_BLOCK {
        return Some(format!("{} bytes of shared memory per block (at most {MAX_SMEM_PER_BLOCK})", s.smem_bytes));
    }
    if [t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn, t.stages].contains(&0) {
        return Some("a zero tile dimension".into());
    }
    let reason = s.tile_rules?.check(t, s.threads).err()?;
    Some(format!(
        "{reason}: {}x{}x{} block tile, {}x{} warp tiles, {}x{} thread tiles, {} threads",
        t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn, s.threads
    ))
}

/// One launchable kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    pub spec: &'static KernelSpec,
}

/// Grid, block and dynamic shared memory of one launch: what [`Kernel::geometry`] computes once
/// per problem and [`crate::Gpu::launch`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub smem_bytes: u32,
}

impl Launch {
    /// Blocks of the grid as [`Kernel::geometry`] computes it: one per tile of C, of every product
    /// of a batch (a persistent kernel's tiles, before [`on_device`](Self::on_device)).
    pub fn tiles(&self) -> u64 {
        self.grid.0 as u64 * self.grid.1 as u64 * self.grid.2 as u64
    }

    /// The launch a persistent kernel actually uses: at most one block per SM (`sms` of them),
    /// as many as [`persistent_blocks`] says, in a one-dimensional grid; other kernels' launches
    /// are returned unchanged.
    pub fn on_device(self, kernel: &Kernel, sms: u32) -> Launch {
        if !kernel.spec.persistent {
            return self;
        }
        Launch { grid: (persistent_blocks(kernel.spec, self.tiles(), sms), 1, 1), ..self }
    }
}

/// Blocks of a persistent kernel's launch over `tiles` tiles (of every product of a batch) on
/// `sms` SMs: the fewest that take the tiles in as many rounds as one block per SM would, so
/// that every block has the same number of tiles (or one fewer) — 512 tiles on 132 SMs are four
/// rounds either way, and 128 blocks of four tiles leave four SMs idle throughout instead of
/// sixteen in the last round, which under the power limit lets the others clock a little higher
/// (run 146 of `docs/perf/2026-11-27-h100.md`). A kernel that cuts tiles by K keeps one block
/// per SM: stream-K's idle SMs take slices of the last round's tiles. The GPU launch
/// ([`Launch::on_device`]) and the emulator's (`emulate::EMULATED_SMS` SMs) both follow it.
pub fn persistent_blocks(spec: &KernelSpec, tiles: u64, sms: u32) -> u32 {
    let sms = sms.max(1) as u64;
    if spec.stream_k.is_some() {
        return sms as u32;
    }
    let rounds = tiles.div_ceil(sms).max(1);
    tiles.div_ceil(rounds).max(1) as u32
}

/// Entry points of the PTX module that are not GEMMs of the catalog: the split-K reduction
/// (kernels-gpu/src/split_k.rs), launched by the library after a split product, the copies to
/// 16-byte rows (kernels-gpu/src/align_rows.rs) and the splits of A for the kernels that read it
/// split ahead (kernels-gpu/src/split_ahead.rs). (The lessons' entries are named `lesson_*`.)
pub const HELPER_ENTRIES: &[(&str, u32)] = {
    use rgemm_spec::helpers::{COPY_THREADS, REDUCE_THREADS, SPLIT_THREADS};
    // (entry, threads per block: its launch bound, [`crate::ptx::with_launch_bounds`])
    &[
        ("reduce_splits", REDUCE_THREADS),
        ("copy_rows_b16", COPY_THREADS),
        ("copy_rows_b32", COPY_THREADS),
        ("split_tf32_rows", SPLIT_THREADS),
        ("split_tf32_transposed", SPLIT_THREADS),
    ]
};

/// Threads per block of helper entry `name`, if it is one ([`HELPER_ENTRIES`]).
pub fn helper_threads(name: &str) -> Option<u32> {
    HELPER_ENTRIES.iter().find(|(h, _)| *h == name).map(|&(_, threads)| threads)
}

/// Every kernel, in ladder order.
pub fn all() -> impl Iterator<Item = Kernel> {
    entries::ENTRIES.iter().map(|spec| Kernel { spec })
}

/// The kernel called `name`, or an error that suggests the closest names.
pub fn find(name: &str) -> Result<Kernel> {
    all().find(|k| k.spec.name == name).ok_or_else(|| Error::UnknownKernel {
        name: name.to_string(),
        suggestions: suggest(name),
    })
}

/// Up to three kernel names close to `name`: the ones containing it, else the nearest by edit
/// distance.
pub fn suggest(name: &str) -> Vec<String> {
    let needle = zero_pad_rung(&name.to_lowercase());
    let containing: Vec<String> = all()
        .map(|k| k.spec.name)
        .filter(|n| !needle.is_empty() && n.contains(&needle))
        .take(3)
        .map(String::from)
        .collect();
    if !containing.is_empty() {
        return containing;
    }
    // Distance to the whole name or to its rung's slug, so "navie" finds the naive kernels.
    let distance = |k: &Kernel| edit_distance(&needle, k.spec.name).min(edit_distance(&needle, k.spec.rung.slug));
    let mut scored: Vec<(usize, &str)> = all().map(|k| (distance(&k), k.spec.name)).collect();
    scored.sort();
    let limit = needle.len().max(4) * 2 / 3;
    scored.into_iter().filter(|(d, _)| *d <= limit).take(3).map(|(_, n)| n.to_string()).collect()
}

/// `sgemm_9…` → `sgemm_09…`: rung numbers in names have two digits.
fn zero_pad_rung(name: &str) -> String {
    let Some((prefix, rest)) = name.split_once('_') else { return name.to_string() };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if prefix.ends_with("gemm") && digits == 1 && rest[1..].chars().next().is_none_or(|c| c == '_') {
        format!("{prefix}_0{rest}")
    } else {
        name.to_string()
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Kernel {
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// Whether the kernel needs A, B and C (every matrix of a batch) to start on 16-byte
    /// boundaries: every rung does (vector and asynchronous copies check the leading dimension
    /// at run time, and take the start as aligned); the general kernel reads element by element.
    pub fn needs_aligned_matrices(&self) -> bool {
        !self.spec.any_alignment
    }

    /// Whether the kernel reads A as the caller gives it. A kernel that splits A ahead
    /// (`KernelSpec::split_ahead`) reads the split's workspace, whose rows and matrices are always
    /// aligned: A's alignment (its start, `lda` and batch stride) is then the split's concern,
    /// which reads element by element and takes any.
    pub fn reads_a_as_given(&self) -> bool {
        !self.spec.split_ahead
    }

    /// Whether the kernel stores C through the copy engine (a tensor map of C): C's rows, matrices
    /// and first matrix must then start on 16-byte boundaries; other kernels store C with their
    /// threads, which check each address.
    pub fn stores_c_by_copy_engine(&self) -> bool {
        self.spec.tensor_maps.is_some_and(|m| m.c_box.is_some())
    }

    /// Why this kernel's configuration could never launch on Hopper, if it could not.
    pub fn config_error(&self) -> Option<String> {
        shape_error(self.spec)
    }

    /// The sizes this kernel takes beyond M, N, K ≥ 1, in words (what [`Kernel::geometry`]
    /// checks): its layout, and for kernels that move A, B or C with the copy engine, 16-byte
    /// aligned rows and matrices.
    pub fn size_rule(&self) -> String {
        let layout = self.spec.layout.name();
        let Some(maps) = self.spec.tensor_maps else { return format!("{layout}, any M, N, K") };
        let per_row = 16 / self.spec.dtype.bytes();
        let c = if maps.c_box.is_some() { format!(", ldc of {}", 16 / Dtype::F32.bytes()) } else { String::new() };
        format!("{layout}, lda, ldb multiples of {per_row}{c}")
    }

    /// The launch for `problem`, or why this kernel cannot run it.
    pub fn geometry(&self, problem: &Problem) -> Result<Launch> {
        let unsupported = |reason: String| Error::Unsupported { kernel: self.name().into(), reason };
        if let Some(reason) = self.config_error() {
            return Err(unsupported(reason));
        }
        if problem.layout != self.spec.layout {
            return Err(unsupported(format!(
                "it reads A and B in layout {}, the problem's is {}",
                self.spec.layout.name(),
                problem.layout.name()
            )));
        }
        if !self.spec.persistent && !self.spec.batch_loop && problem.batch as u64 > MAX_GRID_Z {
            return Err(unsupported(format!("a batch of {} needs one grid plane per product (the grid allows {MAX_GRID_Z})", problem.batch)));
        }
        let t = &self.spec.tile;
        let grid_x = (problem.n as u64).div_ceil(t.bn as u64);
        // A clustered kernel's grid is a whole number of clusters; the extra blocks compute tiles
        // wholly outside C (zeros in, nothing stored).
        let grid_y = (problem.m as u64).div_ceil(t.bm as u64).next_multiple_of(self.spec.cluster_m.max(1) as u64);
        if grid_y > MAX_GRID_Y {
            return Err(unsupported(format!(
                "M = {} needs {grid_y} block rows of {} (the grid allows {MAX_GRID_Y})",
                problem.m, t.bm
            )));
        }
        if grid_x > MAX_GRID_X {
            return Err(unsupported(format!("N = {} needs {grid_x} block columns", problem.n)));
        }
        let a_as_given = self.reads_a_as_given();
        if let Some(maps) = self.spec.tensor_maps {
            let dtype = self.spec.dtype;
            let batched = problem.batch > 1;
            let misaligned = a_as_given.then(|| crate::tma::alignment_error(dtype, "A", "lda", problem.lda as u64)).flatten()
                .or_else(|| crate::tma::alignment_error(dtype, "B", "ldb", problem.ldb as u64))
                .or_else(|| maps.c_box.and_then(|_| crate::tma::alignment_error(Dtype::F32, "C", "ldc", problem.ldc as u64)))
                .or_else(|| (batched && a_as_given).then(|| crate::tma::alignment_error(dtype, "A", "stride_a", problem.stride_a)).flatten())
                .or_else(|| batched.then(|| crate::tma::alignment_error(dtype, "B", "stride_b", problem.stride_b)).flatten())
                .or_else(|| (batched && maps.c_box.is_some()).then(|| crate::tma::alignment_error(Dtype::F32, "C", "stride_c", problem.stride_c)).flatten());
            if let Some(reason) = misaligned {
                return Err(unsupported(reason));
            }
        }
        // C's matrices may lie anywhere: its vector stores check each address (`Output::holds2`),
        // and the copy engine's stores of C are checked above.
        if self.needs_aligned_matrices() && problem.batch > 1 {
            let bytes = self.spec.dtype.bytes() as u64;
            let misaligned = [("A", problem.stride_a, bytes), ("B", problem.stride_b, bytes)]
                .into_iter()
                .filter(|&(name, _, _)| name != "A" || a_as_given)
                .find(|&(_, stride, elem)| (stride * elem) % 16 != 0);
            if let Some((name, stride, elem)) = misaligned {
                return Err(unsupported(format!(
                    "its vector accesses need every matrix of the batch 16-byte aligned: the stride of {name} ({stride}) must be a multiple of {}",
                    16 / elem
                )));
            }
        }
        // A persistent kernel walks the tiles of every product itself: its plane count says how
        // many products there are, for [`Launch::on_device`] to size the grid by.
        let planes = if self.spec.persistent { problem.batch } else { problem.batch.min(MAX_GRID_Z as u32) };
        Ok(Launch {
            grid: (grid_x as u32, grid_y as u32, planes),
            block: (self.spec.threads, 1, 1),
            smem_bytes: self.spec.smem_bytes,
        })
    }
}

/// The best configuration of each rung, fastest rung first: what `best` and `rgemm bench` use.
///
/// The order comes from a tuning run at M = N = K = 4096 (the f16 entries rank like bf16); rung
/// 14's entry is its copy-engine-store persistent kernel, faster than `_persistent_pairs` at 4096³
/// and 8192³ over five processes timed in turn (run 22 of 2026-11-26). The runs and their numbers
/// are in `docs/perf/` and the book's chapter `book/src/numbers.md`. Rung 15 (3×TF32, fp32 accuracy on
/// the tensor cores) ranks first for f32 from its own run of the next day, with the split that
/// rounds nothing (`_raw`) since 2026-11-25 (its chapter and `docs/perf/`); it needs K and N
/// multiples of 4, else `best` falls back to rung 11 (with double fragments, `_df`, faster than
/// `_wa` in every process of run 153 of 2026-11-27). Its entries
/// for the other layouts (`_nt`, `_tn`, `_tt`) are not listed: [`auto_candidates`] tries them
/// right after this list (rung 15 is the highest fp32 rung), ahead of the general kernel.
/// `rgemm tune` prints a replacement for this table from a fresh
/// run.
///
/// A rung with no entry here (a configuration merged after the last tuning run) is represented by
/// its first configuration in the catalog, and `best` tries such rungs after every listed one,
/// highest rung first.
pub const BEST: &[&str] = &[
    "bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast",
    "hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast",
    "bgemm_13_wgmma_128x256x64_s4",
    "hgemm_13_wgmma_128x256x64_s4",
    "bgemm_12_mma_sync_128x128x64_w64x64_s3_fp",
    "hgemm_12_mma_sync_128x128x64_w64x64_s3_fp",
    "sgemm_15_tf32x3_128x128x32_s4_raw",
    "sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_df",
    "sgemm_10_cp_async_128x128x8_w64x32_t8x8_s4_at",
    "sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior",
    "sgemm_08_double_buffer_128x128x8_t8x8_s2",
    "sgemm_07_transposed_a_64x128x8_t8x8",
    "sgemm_06_vectorized_64x64x16_t4x4",
    "sgemm_05_blocktile_2d_64x64x16_t4x4",
    "sgemm_04_blocktile_1d_64x64x16_t16x1",
    "sgemm_03_smem_tiling_32x32x32",
    "sgemm_02_coalesced_32x32x1",
    "sgemm_01_naive_32x32x1",
];

/// The aliases `best` (fp32), `best-bf16` and `best-f16`, and the element type each stands for.
pub const BEST_ALIASES: &[(&str, Dtype)] = &[("best", Dtype::F32), ("best-bf16", Dtype::Bf16), ("best-f16", Dtype::F16)];

/// The element type a `best` alias stands for, or `None` when `name` is not an alias.
pub fn best_alias(name: &str) -> Option<Dtype> {
    BEST_ALIASES.iter().find(|(alias, _)| *alias == name).map(|&(_, dtype)| dtype)
}

/// The rung numbers that have kernels of `dtype`, in ladder order (the general kernel, number 0,
/// is not a rung).
pub fn rungs(dtype: Dtype) -> Vec<u8> {
    let mut numbers: Vec<u8> = all().filter(|k| k.spec.dtype == dtype && k.spec.rung.number > 0).map(|k| k.spec.rung.number).collect();
    numbers.dedup();
    numbers
}

/// Every configuration of rung `number` for `dtype`, in catalog order.
pub fn configurations(number: u8, dtype: Dtype) -> Vec<Kernel> {
    all().filter(|k| k.spec.rung.number == number && k.spec.dtype == dtype).collect()
}

/// The configuration of rung `number` that represents it: its [`BEST`] entry, else its first
/// configuration in the catalog; `None` when the rung has no kernel of `dtype`.
pub fn best_of_rung(number: u8, dtype: Dtype) -> Option<Kernel> {
    let listed = BEST.iter().filter_map(|name| find(name).ok()).find(|k| k.spec.rung.number == number && k.spec.dtype == dtype);
    listed.or_else(|| configurations(number, dtype).into_iter().next())
}

/// Each rung of `dtype` at its best configuration, in ladder order (what `rgemm bench` runs).
pub fn ladder(dtype: Dtype) -> Vec<Kernel> {
    rungs(dtype).into_iter().filter_map(|number| best_of_rung(number, dtype)).collect()
}

/// The kernels `best` tries for `dtype`, in order: the [`BEST`] entries of that type as listed,
/// then the representative of each rung without an entry, highest rung first.
pub fn best_candidates(dtype: Dtype) -> Vec<Kernel> {
    let mut out: Vec<Kernel> = BEST.iter().filter_map(|name| find(name).ok()).filter(|k| k.spec.dtype == dtype).collect();
    for number in rungs(dtype).into_iter().rev() {
        if !out.iter().any(|k| k.spec.rung.number == number) {
            out.extend(best_of_rung(number, dtype));
        }
    }
    out
}

/// Every kernel of `dtype` in the order the automatic choice tries them: [`best_candidates`],
/// then the remaining configurations (layout variants among them), highest rung first, the
/// general kernel (which takes every problem) last.
pub fn auto_candidates(dtype: Dtype) -> Vec<Kernel> {
    let mut out = best_candidates(dtype);
    let mut rest: Vec<Kernel> = all().filter(|k| k.spec.dtype == dtype && !out.contains(k)).collect();
    rest.sort_by_key(|k| std::cmp::Reverse(k.spec.rung.number));
    out.extend(rest);
    out
}

/// Rungs below this one teach (naive loops to shared-memory tiles) and are never the fastest
/// kernel of a shape: the tuner ([`crate::api::candidate_plans`]) leaves them out.
pub const FIRST_DISPATCH_RUNG: u8 = 9;

/// The kernels the tuner times for the dispatch table: every kernel of `dtype` from
/// [`FIRST_DISPATCH_RUNG`] up, and the general and decode kernels (number 0), in
/// [`auto_candidates`] order.
pub fn dispatch_candidates(dtype: Dtype) -> Vec<Kernel> {
    auto_candidates(dtype).into_iter().filter(|k| k.spec.rung.number == 0 || k.spec.rung.number >= FIRST_DISPATCH_RUNG).collect()
}

/// Rows of x up to which the automatic choice runs a decode GEMV (`kernels-gpu/src/gemv.rs`) on
/// a linear layer (`nt`) of `dtype`: the weight is read once and each element is used at most
/// this many times, so the product is bound by memory. A GEMV warp reads its row of W once for
/// all the block's rows of x but does their multiply-adds one after another, so its time grows
/// with M, while a 64-row tile kernel's stays that of reading W: for bf16 and f16 the 64 × 64
/// tile with a deep ring is the faster from 3 rows on (the dispatch table's rows at M = 4 and
/// 16); fp32 keeps the GEMV up to 4 rows, where its table has no row between 1 and 16.
pub const fn decode_rows(dtype: Dtype) -> u32 {
    match dtype {
        Dtype::F32 => 4,
        Dtype::Bf16 | Dtype::F16 => 2,
    }
}

/// For a decode step (a linear layer, `nt`, of at most [`decode_rows`] rows): the decode GEMVs
/// whose block holds all of M, fewest rows first (empty for any other problem).
fn decode_candidates(dtype: Dtype, problem: &Problem) -> Vec<Kernel> {
    if problem.m > decode_rows(dtype) {
        return Vec::new();
    }
    gemvs_holding(dtype, problem)
}

/// The slug of the decode GEMVs' rung (`kernels-gpu/src/gemv.rs`).
const GEMV_SLUG: &str = "gemv";

/// Whether `kernel` is a decode GEMV (`kernels-gpu/src/gemv.rs`).
pub fn is_gemv(kernel: Kernel) -> bool {
    kernel.spec.rung.slug == GEMV_SLUG
}

/// The decode GEMVs of `dtype` whose block holds all of `problem`'s rows, fewest rows first, for
/// a linear layer (`nt`; empty for any other layout).
fn gemvs_holding(dtype: Dtype, problem: &Problem) -> Vec<Kernel> {
    if problem.layout != Layout::NT {
        return Vec::new();
    }
    let mut gemvs: Vec<Kernel> = all().filter(|k| k.spec.dtype == dtype && is_gemv(*k) && k.spec.tile.bm >= problem.m).collect();
    gemvs.sort_by_key(|k| k.spec.tile.bm);
    gemvs
}

/// The decode GEMV to run where a dispatch-table row names one: the first GEMV whose block holds
/// all of M and takes the problem (a row measured at one row of x may be nearest to three or
/// four). `None` when no GEMV holds M rows.
pub fn gemv_for(dtype: Dtype, problem: &Problem) -> Option<Kernel> {
    gemvs_holding(dtype, problem).into_iter().find(|k| k.geometry(problem).is_ok())
}

/// What the width rule charges a round of 192-wide tiles per column of C, in percent of a round
/// of 256-wide ones: the narrower tile copies more bytes per element of C and spreads its costs
/// per tile over fewer columns (1.5% to 13% slower per column and round in runs 79 and 83 of
/// 2026-11-26 in `docs/perf/`, the more the smaller the product).
pub const NARROW_ROUND_PERCENT: u64 = 105;

/// What the width rule charges a last round that the stream-K twin cuts into slices, in percent
/// of a whole round (67% to 84% in the same runs, with two to five slices).
pub const CUT_ROUND_PERCENT: u64 = 80;

/// Rung 14's persistent TMA-store tile in its other width (`_128x192x64_s4_persistent_tmast` ↔
/// `_128x256x64_s4_persistent_tmast`, same element type and layout) when that width takes
/// `problem` in less time by rounds: the columns of C the busiest SM computes per block row (the
/// tiles' rows and K are the same), `⌈tiles / sms⌉ × BN`, with a last round that the kernel's
/// stream-K twin would cut counted as [`CUT_ROUND_PERCENT`] of a round and the narrower tile's
/// rounds at [`NARROW_ROUND_PERCENT`]. Ties go to the wider tile. The dispatch table's rows say
/// which width was fastest at a measured size; between rows this keeps a size the nearest row's
/// width divides badly (1760³ near the 1536³ row: two rounds of 192-wide tiles or one of 256)
/// from taking it. `None` when `kernel` is neither or the other width is not in the catalog.
pub fn width_twin(kernel: Kernel, problem: &Problem, sms: u32) -> Option<Kernel> {
    const WIDTHS: [&str; 2] = ["_128x192x64_s4_persistent_tmast", "_128x256x64_s4_persistent_tmast"];
    let name = kernel.name();
    let (from, to) = if name.contains(WIDTHS[0]) { (WIDTHS[0], WIDTHS[1]) } else if name.contains(WIDTHS[1]) { (WIDTHS[1], WIDTHS[0]) } else { return None };
    let other = find(&name.replacen(from, to, 1)).ok()?;
    let widest = kernel.spec.tile.bn.max(other.spec.tile.bn);
    let cost = |k: Kernel| {
        let (tiles, sms) = (k.geometry(problem).ok()?.tiles(), sms.max(1) as u64);
        let rounds_percent = match stream_k_twin(k, problem, sms as u32) {
            Some(_) => tiles / sms * 100 + CUT_ROUND_PERCENT,
            None => tiles.div_ceil(sms) * 100,
        };
        let per_column = if k.spec.tile.bn < widest { NARROW_ROUND_PERCENT } else { 100 };
        Some(rounds_percent * k.spec.tile.bn as u64 * per_column)
    };
    let (mine, theirs) = (cost(kernel)?, cost(other)?);
    (theirs < mine || (theirs == mine && other.spec.tile.bn > kernel.spec.tile.bn)).then_some(other)
}

/// The stream-K twin of a persistent kernel (the same kernel named `_streamk` for `_persistent`,
/// kernels-gpu/src/stream_k.rs) when it would cut the last round of `problem`'s tiles on `sms`
/// SMs; `None` when there is no twin or it would leave every tile whole. Where it cuts, the twin
/// was faster (run 43 of 2026-11-26 in `docs/perf/`); where it does not, the persistent kernel
/// is, by a little: the automatic choice asks this after the dispatch table has chosen.
pub fn stream_k_twin(kernel: Kernel, problem: &Problem, sms: u32) -> Option<Kernel> {
    if !kernel.spec.persistent || kernel.spec.stream_k.is_some() {
        return None;
    }
    let twin = find(&kernel.name().replacen("_persistent", "_streamk", 1)).ok()?;
    let tiles = u32::try_from(twin.geometry(problem).ok()?.tiles()).ok()?;
    let k_tiles = problem.k.div_ceil(twin.spec.tile.bk);
    let plan = rgemm_spec::stream_k::StreamKSchedule::new(tiles, k_tiles, sms);
    (plan != rgemm_spec::stream_k::StreamKSchedule::whole_tiles(tiles, k_tiles, sms)).then_some(twin)
}

/// For a decode step (`nt`, at most [`decode_rows`] rows): [`gemv_for`], the first GEMV whose
/// block holds all of M and takes the problem. The automatic choice runs it ahead of the dispatch
/// table, whose nearest measured row may be a one-row GEMV's: the GEMV of a block of M rows reads
/// the weight once, one of fewer rows once per block row.
pub fn decode_kernel(dtype: Dtype, problem: &Problem) -> Option<Kernel> {
    if problem.m > decode_rows(dtype) {
        return None;
    }
    gemv_for(dtype, problem)
}

/// The kernels the automatic choice (and `best`) tries for `problem`, in order: for a linear
/// layer of at most [`decode_rows`] rows the decode kernels whose block takes all its rows,
/// fewest rows first; then [`auto_candidates`].
pub fn candidates_for(dtype: Dtype, problem: &Problem) -> Vec<Kernel> {
    let mut out = decode_candidates(dtype, problem);
    out.extend(auto_candidates(dtype));
    out
}

/// The first of `candidates` that can run `problem`; if none can, why the first one cannot.
pub fn first_supporting(candidates: &[Kernel], problem: &Problem, what: &str) -> Result<Kernel> {
    let mut first_reason = None;
    for kernel in candidates {
        match kernel.geometry(problem) {
            Ok(_) => return Ok(*kernel),
            Err(Error::Unsupported { reason, .. }) => {
                first_reason.get_or_insert(format!("{}: {reason}", kernel.name()));
            }
            Err(e) => return Err(e),
        }
    }
    Err(Error::Unsupported {
        kernel: what.to_string(),
        reason: first_reason.map_or_else(|| "the catalog has no kernel of this type".to_string(), |r| format!("no candidate supports it ({r})")),
    })
}

/// Why each kernel tried before `chosen` in `candidates` was passed over for `problem`: (name,
/// the catalog's reason), in the order they were tried.
pub fn passed_over(candidates: &[Kernel], chosen: Kernel, problem: &Problem) -> Vec<(&'static str, String)> {
    candidates
        .iter()
        .take_while(|k| **k != chosen)
        .filter_map(|k| match k.geometry(problem) {
            Err(Error::Unsupported { reason, .. }) => Some((k.name(), reason)),
            _ => None,
        })
        .collect()
}

/// A kernel by name, where the `best` aliases resolve to the fastest kernel of their type that
/// supports `problem` (falling back down [`best_candidates`]).
pub fn resolve(name: &str, problem: &Problem) -> Result<Kernel> {
    match best_alias(name) {
        Some(dtype) => first_supporting(&candidates_for(dtype, problem), problem, name),
        None => find(name),
    }
}

/// Element types by name, as the command line and reports spell them.
pub const DTYPES: &[Dtype] = &[Dtype::F32, Dtype::Bf16, Dtype::F16];

/// The element type called `name` (`f32`, `bf16`, `f16`).
pub fn dtype_named(name: &str) -> Option<Dtype> {
    DTYPES.iter().copied().find(|d| d.name() == name)
}
