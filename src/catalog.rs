//! The kernel catalog: every entry point of the PTX module, where it sits on the ladder, how to
//! launch it, and which problems it accepts. The list itself comes from `kernels-gpu`, so a kernel
//! added there appears here, in the CLI and in the tests without further edits.
//!
//! A [`Kernel`] is a `'static` spec ([`KernelSpec`]): its name, element type, layout, tile and
//! schedule. [`all`] lists them, [`find`] takes one by name and [`find_key`] by key (a kernel's
//! twin in another layout or type); [`Kernel::geometry`] says whether a kernel runs a problem,
//! and with which [`Launch`]. Nothing here needs a GPU; every lookup is a scan of a static list.
//! [`Plan`](crate::api::Plan) uses all of this for you; the catalog is for naming a kernel
//! ([`KernelChoice::Named`](crate::api::KernelChoice::Named)) and for launching one by hand.
//!
//! ```rust
//! use rgemm::catalog::{self, Dtype, Layout};
//!
//! // The bf16 kernels that read a linear layer's weight as stored (B N×K).
//! let nt: Vec<_> = catalog::all().filter(|k| k.spec.dtype == Dtype::Bf16 && k.spec.layout == Layout::NT).collect();
//! assert!(nt.iter().any(|k| k.name() == "bgemm_00_general_16x16x16_nt"));
//! ```

use crate::entries;
use crate::error::{Error, Result};
use crate::problem::Problem;
// The types of `KernelSpec`'s copy-engine and tile-rule fields. For rgemm's own use (its plans,
// CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
pub use rgemm_spec::{Swizzle, TensorMaps, TileCopy, TileRules};
pub use rgemm_spec::{Dtype, KernelKey, KernelSpec, Layout, Rung, Tile};

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Hopper's limits, checked before launch so that a bad configuration is a clear error: at most
/// this many threads in a block.
pub const MAX_THREADS_PER_BLOCK: u32 = 1024;
// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Bytes of shared memory one block may use (227 KiB: the SM's 228 KiB less 1 KiB the system
/// keeps per block).
pub const MAX_SMEM_PER_BLOCK: u32 = 227 * 1024;
// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Blocks along the grid's y (block rows of C: M / BM).
pub const MAX_GRID_Y: u64 = 65_535;
// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Blocks along the grid's z (products of a batch, one plane each).
pub const MAX_GRID_Z: u64 = 65_535;
// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Blocks along the grid's x (block columns of C: N / BN): 2³¹ − 1.
pub const MAX_GRID_X: u64 = i32::MAX as u64;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
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

/// One launchable kernel: an entry of the PTX module and everything needed to launch it.
///
/// Kernels come from the catalog ([`all`], [`find`], [`find_key`], [`fallback`]); two are equal
/// when they are the same entry. A kernel is a `'static` reference: copying one costs nothing.
///
/// ```rust
/// use rgemm::{Problem, catalog};
///
/// let kernel = catalog::find("sgemm_03_smem_tiling_32x32x32")?;
/// assert_eq!((kernel.spec.tile.bm, kernel.spec.tile.bn, kernel.spec.threads), (32, 32, 1024));
/// // Whether it runs a problem: it takes row-major A and B (`nn`) only.
/// assert!(kernel.geometry(&Problem::new(256, 256, 256, 1.0, 0.0)?).is_ok());
/// let nt = rgemm::api::Gemm::new(256, 256, 256).layout(rgemm::Layout::NT).problem()?;
/// assert!(matches!(kernel.geometry(&nt), Err(rgemm::Error::Unsupported { .. })));
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// The kernel's configuration as `kernels-gpu` declares it: name, element type, layout,
    /// tile, threads, shared memory, tensor maps, schedule. [`KernelSpec::key`] is what tells it
    /// from its twins.
    pub spec: &'static KernelSpec,
}

/// Grid, block and dynamic shared memory of one launch: what [`Kernel::geometry`] computes once
/// per problem, and what a launch by hand passes to the driver (see [`crate::Gpu::entry`]).
///
/// ```rust
/// use rgemm::{api::Gemm, catalog};
///
/// // 32×32 tiles of C, 1024 threads each: a batch of 5 products of 100×70 is 3 × 4 × 5 blocks.
/// let kernel = catalog::find("sgemm_03_smem_tiling_32x32x32")?;
/// let launch = kernel.geometry(&Gemm::new(100, 70, 64).packed_batch(5).problem()?)?;
/// assert_eq!(launch.grid, (3, 4, 5)); // N / 32 and M / 32 rounded up, one plane per product
/// assert_eq!(launch.block, (1024, 1, 1));
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Blocks along x, y and z: block columns of C (N / BN, rounded up), block rows (M / BM,
    /// rounded up to whole clusters) and products of the batch. A persistent kernel's launch
    /// counts tiles here; it actually launches at most one block per SM, which a plan works out.
    pub grid: (u32, u32, u32),
    /// Threads along x, y and z of a block: the kernel's `threads`, 1, 1.
    pub block: (u32, u32, u32),
    /// Bytes of dynamic shared memory per block, at most Hopper's 227 KiB.
    pub smem_bytes: u32,
}

impl Launch {
    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Blocks of the grid as [`Kernel::geometry`] computes it: one per tile of C, of every product
    /// of a batch (a persistent kernel's tiles, before [`on_device`](Self::on_device)).
    pub fn tiles(&self) -> u64 {
        self.grid.0 as u64 * self.grid.1 as u64 * self.grid.2 as u64
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
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

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Blocks of a persistent kernel's launch over `tiles` tiles (of every product of a batch) on
/// `sms` SMs: the fewest that take the tiles in as many rounds as one block per SM would, so
/// that every block has the same number of tiles (or one fewer) — 512 tiles on 132 SMs are four
/// rounds either way, and 128 blocks of four tiles leave four SMs idle throughout instead of
/// sixteen in the last round, which under the power limit lets the others clock a little higher
/// (measured: the book's appendix "How we got here", rung 14). A kernel that cuts tiles by K keeps one block
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

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Entry points of the PTX module that are not GEMMs of the catalog: the split-K reduction
/// (kernels-gpu/src/split_k.rs), launched by the library after a split product, the copies to
/// 16-byte rows (kernels-gpu/src/align_rows.rs) and the splits of A for the kernels that read it
/// split ahead (kernels-gpu/src/split_ahead.rs). (The lessons' entries are named `lesson_*`.)
pub const HELPER_ENTRIES: &[(&str, u32)] = {
    use rgemm_spec::helpers::{COPY_THREADS, REDUCE_THREADS, SPLIT_THREADS};
    // (entry, threads per block: its launch bound, [`crate::ptx::with_launch_bounds`])
    &[
        ("reduce_splits", REDUCE_THREADS),
        ("copy_rows_b8", COPY_THREADS),
        ("copy_rows_b16", COPY_THREADS),
        ("copy_rows_b32", COPY_THREADS),
        ("split_tf32_rows", SPLIT_THREADS),
        ("split_tf32_transposed", SPLIT_THREADS),
    ]
};

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Threads per block of helper entry `name`, if it is one ([`HELPER_ENTRIES`]).
pub fn helper_threads(name: &str) -> Option<u32> {
    HELPER_ENTRIES.iter().find(|(h, _)| *h == name).map(|&(_, threads)| threads)
}

/// Every kernel, in ladder order.
///
/// ```rust
/// use rgemm::catalog::{self, Dtype};
///
/// let f16 = catalog::all().filter(|k| k.spec.dtype == Dtype::F16).count();
/// assert!(f16 > 0);
/// // Names start with the element type: s (f32), b (bf16), h (f16), e4m3 (FP8).
/// assert!(catalog::all().all(|k| ["sgemm_", "bgemm_", "hgemm_", "e4m3gemm_"].iter().any(|p| k.name().starts_with(p))));
/// ```
pub fn all() -> impl Iterator<Item = Kernel> {
    entries::ENTRIES.iter().map(|spec| Kernel { spec })
}

/// The kernel whose key is `key` ([`KernelSpec::key`]), if the catalog has it: how a kernel's
/// twin (another layout, type, width or schedule) is found.
///
/// ```rust
/// use rgemm::catalog::{self, Layout};
///
/// let kernel = catalog::find("bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast")?;
/// // The same kernel reading B stored N×K (a linear layer's weight).
/// let nt = catalog::find_key(kernel.spec.key().with_layout(Layout::NT)).expect("rung 14 has every layout");
/// assert_eq!(nt.name(), "bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt");
/// assert_eq!((nt.spec.layout, nt.spec.tile), (Layout::NT, kernel.spec.tile));
/// // Its f16 twin.
/// let f16 = catalog::find_key(kernel.spec.key().with_dtype(catalog::Dtype::F16)).unwrap();
/// assert_eq!(f16.name(), "hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast");
/// # Ok::<(), rgemm::Error>(())
/// ```
pub fn find_key(key: KernelKey) -> Option<Kernel> {
    all().find(|k| k.spec.key() == key)
}

/// The general kernel of `dtype` (in layout `nn`): any leading dimension, alignment and batch.
/// Its twins in the other layouts are found by key ([`find_key`]).
///
/// ```rust
/// use rgemm::{Problem, catalog::{self, Dtype}};
///
/// let general = catalog::fallback(Dtype::F32);
/// assert_eq!(general.name(), "sgemm_00_general_16x16x16");
/// assert!(!general.needs_aligned_matrices());
/// assert!(general.geometry(&Problem::new(1, 3, 5, 1.0, 0.0)?).is_ok());
/// # Ok::<(), rgemm::Error>(())
/// ```
pub fn fallback(dtype: Dtype) -> Kernel {
    all().find(|k| k.spec.dtype == dtype && k.spec.rung.kind == rgemm_spec::KernelKind::Fallback).expect("the catalog has a general kernel of every type")
}

/// The kernel called `name`, or [`Error::UnknownKernel`] with up to three names close to it.
///
/// ```rust
/// use rgemm::catalog::{self, Dtype, Layout};
///
/// let kernel = catalog::find("sgemm_00_general_16x16x16")?;
/// assert_eq!((kernel.spec.dtype, kernel.spec.layout), (Dtype::F32, Layout::NN));
/// assert!(!kernel.needs_aligned_matrices()); // the general kernel reads element by element
///
/// // Whether it runs a problem, and with which launch: M = 100, N = 70 in 16×16 tiles.
/// let launch = kernel.geometry(&rgemm::Problem::new(100, 70, 30, 1.0, 0.0)?)?;
/// assert_eq!((launch.grid, launch.block), ((5, 7, 1), (256, 1, 1)));
///
/// assert!(catalog::find("sgemm_00_general").is_err()); // names are whole
/// # Ok::<(), rgemm::Error>(())
/// ```
pub fn find(name: &str) -> Result<Kernel> {
    all().find(|k| k.spec.name == name).ok_or_else(|| Error::UnknownKernel {
        name: name.to_string(),
        suggestions: suggest(name),
    })
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
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
    /// The entry's name in the PTX module, which the CLI and reports use too
    /// (`bgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast_nt`: type, rung, tile, choices, layout).
    ///
    /// ```rust
    /// use rgemm::catalog::{self, Dtype};
    ///
    /// assert_eq!(catalog::fallback(Dtype::Bf16).name(), "bgemm_00_general_16x16x16");
    /// // Names are unique: each finds its kernel again.
    /// assert!(catalog::all().all(|k| catalog::find(k.name()).ok() == Some(k)));
    /// ```
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// Whether the kernel needs A, B and C (every matrix of a batch) to start on 16-byte
    /// boundaries: every rung does (vector and asynchronous copies check the leading dimension
    /// at run time, and take the start as aligned); the general kernel reads element by element.
    ///
    /// ```rust
    /// use rgemm::{api::Gemm, catalog::{self, Dtype}};
    ///
    /// let (general, vectorized) = (catalog::fallback(Dtype::F32), catalog::find("sgemm_06_vectorized_64x64x16_t4x4")?);
    /// assert!(!general.needs_aligned_matrices() && vectorized.needs_aligned_matrices());
    /// // A batch whose matrices of A lie one f32 off 16 bytes: only the general kernel takes it.
    /// let odd = Gemm::new(64, 64, 64).batch(2, 64 * 64 + 1, 64 * 64, 64 * 64).problem()?;
    /// assert!(general.geometry(&odd).is_ok() && vectorized.geometry(&odd).is_err());
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn needs_aligned_matrices(&self) -> bool {
        !self.spec.any_alignment
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Whether the kernel reads A as the caller gives it. A kernel that splits A ahead
    /// (`KernelSpec::split_ahead`) reads the split's workspace, whose rows and matrices are always
    /// aligned: A's alignment (its start, `lda` and batch stride) is then the split's concern,
    /// which reads element by element and takes any.
    pub fn reads_a_as_given(&self) -> bool {
        !self.spec.split_ahead
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Whether the kernel stores C through the copy engine (a tensor map of C): C's rows, matrices
    /// and first matrix must then start on 16-byte boundaries; other kernels store C with their
    /// threads, which check each address.
    pub fn stores_c_by_copy_engine(&self) -> bool {
        self.spec.tensor_maps.is_some_and(|m| m.c_box.is_some())
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Why this kernel's configuration could never launch on Hopper, if it could not.
    pub fn config_error(&self) -> Option<String> {
        shape_error(self.spec)
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// The sizes this kernel takes beyond M, N, K ≥ 1, in words (what [`Kernel::geometry`]
    /// checks): its layout, and for kernels that move A, B or C with the copy engine, 16-byte
    /// aligned rows and matrices.
    pub fn size_rule(&self) -> String {
        let layout = self.spec.layout.name();
        let Some(maps) = self.spec.tensor_maps else { return format!("{layout}, any M, N, K") };
        let per_row = 16 / self.spec.dtype.bytes();
        let c = if maps.c_box.is_some() { format!(", ldc of {} (f32 C) or {} (16-bit C)", 16 / Dtype::F32.bytes(), 16 / Dtype::Bf16.bytes()) } else { String::new() };
        format!("{layout}, lda, ldb multiples of {per_row}{c}")
    }

    /// Whether this kernel applies `problem`'s fused epilogue itself (as its spec's
    /// `fused_epilogue` says). Where it does not, a plan writes its product to the workspace and
    /// split-K's sum applies the epilogue.
    ///
    /// ```rust
    /// use rgemm::{Activation, Bias, FusedEpilogue, Problem, catalog::{self, Dtype}};
    ///
    /// let relu = FusedEpilogue { output: Dtype::F32, bias: Bias::None, activation: Activation::Relu, aux: false };
    /// let problem = Problem::new(64, 64, 64, 1.0, 0.0)?.with_epilogue(relu);
    /// assert!(catalog::fallback(Dtype::F32).applies_epilogue(&problem)); // the general kernel fuses it
    /// assert!(!catalog::find("sgemm_01_naive_32x32x1")?.applies_epilogue(&problem)); // the ladder's first rung does not
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn applies_epilogue(&self, problem: &Problem) -> bool {
        self.spec.fused_epilogue.applies(problem.epilogue)
    }

    /// The launch for `problem`, or why this kernel cannot run it ([`Error::Unsupported`]: another
    /// layout, a leading dimension or batch stride its copies cannot read, a grid beyond
    /// Hopper's limits). [`Kernel`] and [`find`] show more.
    ///
    /// ```rust
    /// use rgemm::{Error, Layout, Problem, api::Gemm, catalog};
    ///
    /// let kernel = catalog::find("sgemm_05_blocktile_2d_64x64x16_t4x4")?;
    /// let launch = kernel.geometry(&Problem::new(1000, 700, 500, 1.0, 0.0)?)?;
    /// assert_eq!(launch.grid, (11, 16, 1)); // 64×64 tiles: 700 / 64 and 1000 / 64, rounded up
    /// // A problem it cannot run is an error that says why.
    /// let nt = Gemm::new(1000, 700, 500).layout(Layout::NT).problem()?;
    /// assert!(matches!(kernel.geometry(&nt), Err(Error::Unsupported { reason, .. }) if reason.contains("layout")));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn geometry(&self, problem: &Problem) -> Result<Launch> {
        let unsupported = |reason: String| Error::Unsupported { kernel: self.name().into(), reason };
        if problem.k == 0 {
            return Err(unsupported("K = 0 is no product: a plan scales C by beta instead of running a kernel".into()));
        }
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
            let misaligned = a_as_given.then(|| crate::tensor_map::alignment_error(dtype, "A", "lda", problem.lda as u64)).flatten()
                .or_else(|| crate::tensor_map::alignment_error(dtype, "B", "ldb", problem.ldb as u64))
                .or_else(|| maps.c_box.and_then(|_| crate::tensor_map::alignment_error(problem.epilogue.output, "C", "ldc", problem.ldc as u64)))
                .or_else(|| (batched && a_as_given).then(|| crate::tensor_map::alignment_error(dtype, "A", "stride_a", problem.stride_a)).flatten())
                .or_else(|| batched.then(|| crate::tensor_map::alignment_error(dtype, "B", "stride_b", problem.stride_b)).flatten())
                .or_else(|| (batched && maps.c_box.is_some()).then(|| crate::tensor_map::alignment_error(problem.epilogue.output, "C", "stride_c", problem.stride_c)).flatten());
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

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The best configuration of each rung, fastest rung first: what `best` and `rgemm bench` use.
///
/// The order comes from tuning runs at M = N = K = 4096 (the f16 entries rank like bf16): rung
/// 14's entry is its copy-engine-store persistent kernel; rung 15 (3×TF32, fp32 accuracy on the
/// tensor cores) ranks first for f32 with the split that rounds nothing (`_raw`); it needs K and N
/// multiples of 4, else the catalog's order falls back to rung 11 (with double fragments, `_df`).
/// The measurements behind each entry are in `docs/perf/` and the book's appendix "How we got
/// here". Entries for the other layouts (`_nt`, `_tn`, `_tt`) are not listed:
/// [`crate::choice::auto_candidates`] tries them right after this list, ahead of the general
/// kernel.
/// `rgemm tune` prints a replacement for this table from a fresh
/// run.
///
/// A rung with no entry here (a configuration merged after the last tuning run) is represented by
/// its first configuration in the catalog, and `best` tries such rungs after every listed one,
/// highest rung first.
pub const BEST: &[&str] = &[
    "e4m3gemm_16_fp8_128x128x128_s6_persistent_tmast_nt",
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

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The rung numbers that have kernels of `dtype`, in ladder order (the general kernel, number 0,
/// is not a rung).
pub fn rungs(dtype: Dtype) -> Vec<u8> {
    let mut numbers: Vec<u8> = all().filter(|k| k.spec.dtype == dtype && k.spec.rung.number > 0).map(|k| k.spec.rung.number).collect();
    numbers.dedup();
    numbers
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Every configuration of rung `number` for `dtype`, in catalog order.
pub fn configurations(number: u8, dtype: Dtype) -> Vec<Kernel> {
    all().filter(|k| k.spec.rung.number == number && k.spec.dtype == dtype).collect()
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The configuration of rung `number` that represents it: its [`BEST`] entry, else its first
/// configuration in the catalog; `None` when the rung has no kernel of `dtype`.
pub fn best_of_rung(number: u8, dtype: Dtype) -> Option<Kernel> {
    let listed = BEST.iter().filter_map(|name| find(name).ok()).find(|k| k.spec.rung.number == number && k.spec.dtype == dtype);
    listed.or_else(|| configurations(number, dtype).into_iter().next())
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Each rung of `dtype` at its best configuration, in ladder order (what `rgemm bench` runs).
pub fn ladder(dtype: Dtype) -> Vec<Kernel> {
    rungs(dtype).into_iter().filter_map(|number| best_of_rung(number, dtype)).collect()
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// Element types by name, as the command line and reports spell them.
pub const DTYPES: &[Dtype] = &[Dtype::F32, Dtype::Bf16, Dtype::F16, Dtype::E4m3];

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The element type called `name` (`f32`, `bf16`, `f16`, `e4m3`).
pub fn dtype_named(name: &str) -> Option<Dtype> {
    DTYPES.iter().copied().find(|d| d.name() == name)
}
