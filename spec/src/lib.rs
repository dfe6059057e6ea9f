//! What the host must know about a kernel to launch it: its rung, element type, tile shape,
//! block size and shared-memory bytes, and the typed key that names it ([`key`]). Plain data,
//! shared by the kernels (compiled to PTX) and the host library (compiled on stable Rust):
//! `no_std`, no dependencies.
//!
//! With the `const-tile` feature (nightly Rust) a [`Tile`] and the key's choices ([`Schedule`],
//! [`CStore`], the rungs' variants) can be const generic parameters, as the kernels take them.
#![no_std]
#![cfg_attr(feature = "const-tile", feature(adt_const_params))]

pub mod helpers;
pub mod key;
pub mod output;
pub mod stream_k;

pub use key::{AStaging, CStore, Fragments, KLoop, KernelKey, KernelKind, OperandSplit, Schedule, StageRelease, Variant, TF32X3_FLUSH_EVERY};
pub use output::{Activation, Bias, FusedEpilogue, Fusion};

/// Element type of the A and B operands, and of C ([`FusedEpilogue::output`]); the accumulators
/// are always `f32`.
///
/// ```rust
/// use rgemm_spec::Dtype;
///
/// assert_eq!((Dtype::Bf16.name(), Dtype::Bf16.bytes()), ("bf16", 2));
/// assert_eq!(Dtype::F32.bytes(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum Dtype {
    /// `f32`, IEEE single precision.
    F32,
    /// `bf16` (bfloat16): f32's exponent, 8 bits of significand.
    Bf16,
    /// `f16` (IEEE half precision): 5 bits of exponent, 11 of significand.
    F16,
    /// `e4m3` (OCP FP8 E4M3): 4 bits of exponent, 4 of significand, finite up to ±448, no
    /// infinities. An operand type only (rung 16): C is f32, bf16 or f16.
    E4m3,
}

impl Dtype {
    /// `f32`, `bf16` or `f16`, as the command line and the dispatch table write it.
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::Bf16 => "bf16",
            Dtype::F16 => "f16",
            Dtype::E4m3 => "e4m3",
        }
    }

    /// The first part of a kernel's name: `sgemm`, `bgemm`, `hgemm` or `e4m3gemm`.
    #[inline]
    pub const fn gemm_name(self) -> &'static str {
        match self {
            Dtype::F32 => "sgemm",
            Dtype::Bf16 => "bgemm",
            Dtype::F16 => "hgemm",
            Dtype::E4m3 => "e4m3gemm",
        }
    }

    /// Size of one A/B element in bytes.
    #[inline]
    pub const fn bytes(self) -> u32 {
        match self {
            Dtype::F32 => 4,
            Dtype::Bf16 | Dtype::F16 => 2,
            Dtype::E4m3 => 1,
        }
    }

    /// Whether C can be of this type (every type but FP8).
    #[inline]
    pub const fn is_output(self) -> bool {
        !matches!(self, Dtype::E4m3)
    }
}

/// How one operand is stored, relative to the product that reads it: `N` as written in
/// `C = op(A)·op(B)` (A: M×K, B: K×N, row-major), `T` transposed (A stored K×M, B stored N×K,
/// row-major; equivalently the operand column-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Stored as the product reads it (A: M×K, B: K×N, row-major).
    N,
    /// Stored transposed (A: K×M, B: N×K, row-major).
    T,
}

impl Op {
    /// Whether the operand is stored transposed ([`Op::T`]).
    #[inline]
    pub const fn is_t(self) -> bool {
        matches!(self, Op::T)
    }
}

/// The storage of A and B: `NN` is the row-major product of the ladder; `NT` is a linear layer
/// (`y = x·Wᵀ`, W stored N×K); `TN` and `TT` read A stored K×M.
///
/// ```rust
/// use rgemm_spec::{Layout, Op};
///
/// // A linear layer keeps its weight as stored: N×K, read transposed.
/// assert_eq!(Layout::NT, Layout { a: Op::N, b: Op::T });
/// assert!(Layout::NT.b.is_t() && !Layout::NT.a.is_t());
/// // The command line's names, both ways.
/// assert_eq!(Layout::ALL.map(Layout::name), ["nn", "nt", "tn", "tt"]);
/// assert_eq!(Layout::named("tn"), Some(Layout::TN));
/// assert_eq!(Layout::named("NT"), None); // lower case only
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// How A is stored.
    pub a: Op,
    /// How B is stored.
    pub b: Op,
}

impl Layout {
    /// A stored M×K, B stored K×N: the row-major product.
    pub const NN: Layout = Layout { a: Op::N, b: Op::N };
    /// A stored M×K, B stored N×K: a linear layer `y = x·Wᵀ` with W as stored.
    pub const NT: Layout = Layout { a: Op::N, b: Op::T };
    /// A stored K×M, B stored K×N.
    pub const TN: Layout = Layout { a: Op::T, b: Op::N };
    /// A stored K×M, B stored N×K.
    pub const TT: Layout = Layout { a: Op::T, b: Op::T };
    /// Every layout, in the order the command line lists them.
    pub const ALL: [Layout; 4] = [Layout::NN, Layout::NT, Layout::TN, Layout::TT];

    /// `nn`, `nt`, `tn` or `tt`.
    #[inline]
    pub const fn name(self) -> &'static str {
        match (self.a, self.b) {
            (Op::N, Op::N) => "nn",
            (Op::N, Op::T) => "nt",
            (Op::T, Op::N) => "tn",
            (Op::T, Op::T) => "tt",
        }
    }

    /// The layout called `name` (`nn`, `nt`, `tn`, `tt`). Host only (string comparison).
    #[inline]
    pub fn named(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// One rung of the ladder: a lesson, and the file that holds it; or, with another
/// [`KernelKind`], one of the kernels beside the ladder (number 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rung {
    /// A rung of the ladder, or which kernel beside it.
    pub kind: KernelKind,
    /// Position in the ladder, the kernel file being `NN_<slug>.rs`; 0 for the kernels beside
    /// it ([`KernelKind::Gemv`], [`KernelKind::Fallback`], [`KernelKind::Dot`], [`KernelKind::Batched`]).
    pub number: u8,
    /// Short identifier used in kernel names.
    pub slug: &'static str,
    /// One line saying what the rung adds.
    pub idea: &'static str,
}

impl Rung {
    /// Rung `number` of the ladder.
    #[inline]
    pub const fn ladder(number: u8, slug: &'static str, idea: &'static str) -> Rung {
        Rung { kind: KernelKind::Ladder, number, slug, idea }
    }

    /// A kernel beside the ladder (`kind` is not [`KernelKind::Ladder`]): number 0.
    #[inline]
    pub const fn beside(kind: KernelKind, slug: &'static str, idea: &'static str) -> Rung {
        Rung { kind, number: 0, slug, idea }
    }

    /// A rung of the ladder (not the GEMV or the fallback).
    #[inline]
    pub const fn is_ladder(&self) -> bool {
        matches!(self.kind, KernelKind::Ladder)
    }
}

/// The tile hierarchy of a kernel. Fields a rung does not use are 1.
///
/// - `bm × bn`: the block tile of C one thread block computes; `bk`: the K-slice loaded per step.
/// - `wm × wn`: the warp tile (warptiling rungs).
/// - `tm × tn`: the thread tile of C each thread accumulates in registers.
/// - `stages`: shared-memory buffers in flight (pipelined rungs).
///
/// Rungs 9–14 take their configuration as one such value, a const generic:
/// `Wgmma<Bf16, { Tile::block(128, 256, 64).with_stages(4) }>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub struct Tile {
    /// Rows of C in one block tile.
    pub bm: u32,
    /// Columns of C in one block tile.
    pub bn: u32,
    /// Depth of the K-slice loaded per step.
    pub bk: u32,
    /// Rows of C in one warp tile.
    pub wm: u32,
    /// Columns of C in one warp tile.
    pub wn: u32,
    /// Rows of C in one thread tile.
    pub tm: u32,
    /// Columns of C in one thread tile.
    pub tn: u32,
    /// Shared-memory buffers in flight.
    pub stages: u32,
}

impl Tile {
    /// A tile with only the block shape set.
    #[inline]
    pub const fn block(bm: u32, bn: u32, bk: u32) -> Tile {
        Tile { bm, bn, bk, wm: 1, wn: 1, tm: 1, tn: 1, stages: 1 }
    }

    /// This tile with a `wm × wn` warp tile.
    #[inline]
    pub const fn with_warp(self, wm: u32, wn: u32) -> Tile {
        Tile { wm, wn, ..self }
    }

    /// This tile with a `tm × tn` thread tile.
    #[inline]
    pub const fn with_thread(self, tm: u32, tn: u32) -> Tile {
        Tile { tm, tn, ..self }
    }

    /// This tile with `stages` shared-memory buffers.
    #[inline]
    pub const fn with_stages(self, stages: u32) -> Tile {
        Tile { stages, ..self }
    }
}

/// Shared-memory swizzle the copy engine applies to a tile (`CU_TENSOR_MAP_SWIZZLE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Rows stored as they are (`CU_TENSOR_MAP_SWIZZLE_NONE`).
    None,
    /// The 32-byte pattern (`CU_TENSOR_MAP_SWIZZLE_32B`): rows of the box at most 32 bytes.
    B32,
    /// The 64-byte pattern (`CU_TENSOR_MAP_SWIZZLE_64B`): rows of the box at most 64 bytes.
    B64,
    /// The 128-byte pattern (`CU_TENSOR_MAP_SWIZZLE_128B`): rows of the box at most 128 bytes.
    B128,
}

/// Tiles a kernel moves with the copy engine (TMA). The host encodes one tensor map per operand
/// with these boxes (in elements) and passes the kernel a pointer to `[map_a, map_b]`, or
/// `[map_a, map_b, map_c]` when the kernel also stores C through the engine.
///
/// Boxes are given as the operand is *stored* (rows × columns of the row-major array in memory:
/// for a transposed A, rows of K × columns of M). A map is three-dimensional: columns, rows
/// (`ld` elements apart) and the batch (`stride` elements apart; one plane for a broadcast
/// operand); a box is one plane deep unless its [`BoxSpan`] says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorMaps {
    /// Box of A: rows (of M) × columns (of K), how one load spans several such boxes, and how
    /// they are swizzled in shared memory.
    pub a_box: (u32, u32),
    /// How one load of A spans boxes.
    pub a_span: BoxSpan,
    /// How A's boxes are swizzled in shared memory.
    pub a_swizzle: Swizzle,
    /// Box of B: rows (of K) × columns (of N), its span and its swizzle.
    pub b_box: (u32, u32),
    /// How one load of B spans boxes.
    pub b_span: BoxSpan,
    /// How B's boxes are swizzled in shared memory.
    pub b_swizzle: Swizzle,
    /// Box of C: rows × columns, in elements of C's type (f32, or 16-bit for a bf16 or f16 C),
    /// and its swizzle; `None` when C is written by the threads.
    pub c_box: Option<(u32, u32)>,
    /// How an f32 C's box is swizzled in shared memory (unused without `c_box`); a 16-bit C's:
    /// [`c_swizzle_of`](Self::c_swizzle_of).
    pub c_swizzle: Swizzle,
}

/// What one load of the copy engine covers, in boxes of a [`TensorMaps`] operand. Each load costs
/// its issuing thread time whatever its size, so a kernel whose threads also compute asks for
/// few large ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxSpan {
    /// One box of one plane (a three-dimensional map).
    One,
    /// `n` boxes side by side along the columns, one after the other in shared memory: the
    /// panels of an MN-major tile, whose 128-byte swizzled rows are narrower than the tile. The
    /// map is then four-dimensional (columns within a panel, rows, panels, planes), which is exact
    /// only where the stored matrix's columns are whole panels ([`whole_panels`]); elsewhere the
    /// host encodes the three-dimensional map and the kernel loads the panels one by one.
    Panels(u32),
    /// `n` consecutive planes of the batch, one after the other in shared memory (a matrix split
    /// ahead into its high part and its remainder, two planes).
    Planes(u32),
}

/// Whether a stored matrix of `cols` columns is whole panels of `panel_cols`, so that its
/// [`BoxSpan::Panels`] boxes come in one four-dimensional load ([`BoxSpan::on_columns`]).
#[inline]
pub const fn whole_panels(cols: u64, panel_cols: u32) -> bool {
    panel_cols > 0 && cols % panel_cols as u64 == 0
}

impl BoxSpan {
    /// What a load of this span covers on a stored matrix of `cols` columns, in boxes
    /// `box_cols` wide: [`BoxSpan::Panels`] only where the columns are whole panels
    /// ([`whole_panels`]), else [`BoxSpan::One`] (one load per panel). The host's encoding, the
    /// emulator's and the kernels' loads all ask this.
    #[inline]
    pub const fn on_columns(self, cols: u64, box_cols: u32) -> BoxSpan {
        match self {
            BoxSpan::Panels(_) if !whole_panels(cols, box_cols) => BoxSpan::One,
            span => span,
        }
    }
}

impl TensorMaps {
    /// How C's box is swizzled in shared memory for a C of type `output`: `c_swizzle` for f32; a
    /// 16-bit C's box rows are half as long (64 bytes for 32 columns), and the copy engine reads
    /// such rows as they are only under the 64-byte pattern (under the 128-byte one it read them
    /// otherwise, `docs/perf` run 175).
    #[inline]
    pub const fn c_swizzle_of(&self, output: Dtype) -> Swizzle {
        match output {
            Dtype::F32 => self.c_swizzle,
            Dtype::Bf16 | Dtype::F16 => Swizzle::B64,
            // Never C's type.
            Dtype::E4m3 => Swizzle::None,
        }
    }

    /// Maps the kernel receives: 2, or 3 with a map of C.
    #[inline]
    pub const fn count(&self) -> usize {
        if self.c_box.is_some() { 3 } else { 2 }
    }
}

/// Everything the host needs to launch one PTX entry point.
///
/// What tells the entry from its siblings is typed data here ([`KernelSpec::key`]); the name is
/// that key written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelSpec {
    /// The `.entry` name in the PTX: [`key`](KernelSpec::key)`().to_string()`.
    pub name: &'static str,
    /// Where the kernel sits: its rung of the ladder, or which kernel beside it.
    pub rung: Rung,
    /// The element type of A and B.
    pub dtype: Dtype,
    /// The tile hierarchy: block, warp and thread tiles, and the pipeline's stages.
    pub tile: Tile,
    /// Threads per block (blocks are one-dimensional).
    pub threads: u32,
    /// Dynamic shared memory per block in bytes.
    pub smem_bytes: u32,
    /// Tensor maps the kernel reads, if it loads through the copy engine.
    pub tensor_maps: Option<TensorMaps>,
    /// Blocks that must fit on one SM at once as far as registers go (CUDA's second
    /// `__launch_bounds__` argument, PTX `.minnctapersm`); 0 leaves ptxas free to use up to 255
    /// registers per thread.
    pub min_blocks_per_sm: u32,
    /// The kernel walks the list of C tiles itself (block `i` takes tiles `i`, `i + blocks`, ...),
    /// so the host launches one block per SM (at most one per tile) instead of one per tile.
    pub persistent: bool,
    /// Blocks per thread-block cluster along M (1: no clusters). The host declares the cluster
    /// shape in the PTX (`.reqnctapercluster 1, c, 1`) and rounds the grid's rows up to a
    /// multiple of it.
    pub cluster_m: u32,
    /// How the kernel reads A and B (the teaching ladder: `NN`, row-major).
    pub layout: Layout,
    /// The kernel reads and writes element by element wherever a matrix or its rows do not start
    /// on 16 bytes, so A, B and C may start anywhere (every other kernel takes matrices that start
    /// on 16-byte boundaries).
    pub any_alignment: bool,
    /// The kernel walks the products of a batch itself (product `z`, `z + planes`, ...), so a
    /// batch may have more products than the grid has planes.
    pub batch_loop: bool,
    /// How the kernel maps its block tile onto threads and copies its tiles, for the kernels
    /// whose tile shape is free (the register-tiled fp32 rungs); `None` for the others.
    pub tile_rules: Option<TileRules>,
    /// A persistent kernel that cuts its last round's tiles by K
    /// (the stream-K schedule of `kernels-gpu`): the workspace it needs per block. The host passes a workspace of
    /// [`StreamKWorkspace::bytes`](stream_k::StreamKWorkspace::bytes) for the launch's blocks, its
    /// counters zero.
    pub stream_k: Option<stream_k::StreamKWorkspace>,
    /// The kernel reads A split ahead of the product (3×TF32, the split-ahead pass of `kernels-gpu`): the host
    /// first writes A's high part and remainder, K-major, into a workspace and passes that as A
    /// (one tensor map of two planes per matrix), whatever the layout says A is stored as.
    pub split_ahead: bool,
    /// How the kernel writes C ([`CStore::Scalar`] for every kernel without the choice).
    pub store: CStore,
    /// How much of a [`FusedEpilogue`] (output type, bias, activation, auxiliary output) the
    /// kernel applies itself.
    pub fused_epilogue: Fusion,
    /// The rung's own choices ([`Variant::Plain`] for a rung without any).
    pub variant: Variant,
}

/// How a register-tiled kernel maps its block tile onto threads and copies its tiles into shared
/// memory: what decides which tile shapes it can run.
///
/// [`TileRules::check`] is the one home of these invariants: each rung's compile-time assert calls
/// it on its own tile, and the host (`catalog::shape_error`) calls it on any proposed shape, so
/// the host judges a shape without knowing rungs by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileRules {
    /// Thread tiles are grouped into warp tiles of exactly 32, one per warp (rungs 9–11).
    pub warp_tiled: bool,
    /// Warps that only copy (the producer warp of rung 11); the others compute.
    pub producer_warps: u32,
    /// How the computing threads (or the copy engine) fill the shared tiles.
    pub copy: TileCopy,
    /// A thread reads its column of A and its row of B as float4s: `TM`, `TN` multiples of 4.
    pub vector_reads: bool,
}

/// How the shared tiles of A and B are filled (see [`TileRules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileCopy {
    /// Element by element: each computing thread an equal share of each tile.
    Elements,
    /// Whole float4s: tile rows are multiples of 4 floats, each thread an equal share.
    Float4,
    /// Boxes of the copy engine: at most 256 elements a side, A's rows one 128-byte swizzle line.
    Tma,
}

impl TileRules {
    /// Element-wise copies, scalar reads, one thread tile per thread (rungs 4 and 5).
    pub const THREAD_TILES: TileRules = TileRules { warp_tiled: false, producer_warps: 0, copy: TileCopy::Elements, vector_reads: false };

    /// This rule set with float4 copies.
    #[inline]
    pub const fn float4_copies(self) -> Self {
        TileRules { copy: TileCopy::Float4, ..self }
    }

    /// This rule set with float4 reads of A and B from shared memory.
    #[inline]
    pub const fn vector_reads(self) -> Self {
        TileRules { vector_reads: true, ..self }
    }

    /// This rule set with warp tiles of 32 thread tiles.
    #[inline]
    pub const fn warp_tiled(self) -> Self {
        TileRules { warp_tiled: true, ..self }
    }

    /// This rule set with one producer warp filling the tiles through the copy engine.
    #[inline]
    pub const fn tma_producer(self) -> Self {
        TileRules { producer_warps: 1, copy: TileCopy::Tma, ..self }
    }

    /// Why `tile` run by `threads` threads breaks these rules, if it does.
    #[inline]
    pub const fn check(&self, t: &Tile, threads: u32) -> Result<(), &'static str> {
        if t.bm == 0 || t.bn == 0 || t.bk == 0 || t.wm == 0 || t.wn == 0 || t.tm == 0 || t.tn == 0 || t.stages == 0 {
            return Err("a zero tile dimension");
        }
        if t.bm % t.tm != 0 || t.bn % t.tn != 0 {
            return Err("the thread tiles do not tile the block tile");
        }
        if threads as u64 <= 32 * self.producer_warps as u64 {
            return Err("no computing threads besides the producer warps");
        }
        // Products in u128: a proposed or fuzzed shape may hold any u32, and must be judged, not
        // wrapped.
        let (bm, bn, bk, wm, wn, tm, tn) = (t.bm as u128, t.bn as u128, t.bk as u128, t.wm as u128, t.wn as u128, t.tm as u128, t.tn as u128);
        let computing = threads as u128 - 32 * self.producer_warps as u128;
        if self.warp_tiled {
            if let Err(reason) = Self::check_warp_tiles(t) {
                return Err(reason);
            }
            if (bm / wm) * (bn / wn) * 32 != computing {
                return Err("the warp tiles do not match the computing threads");
            }
        } else if (bm / tm) * (bn / tn) != computing {
            return Err("the thread tiles do not match the computing threads");
        }
        let (a_elems, b_elems) = (bm * bk, bk * bn);
        match self.copy {
            TileCopy::Elements => {
                if a_elems % computing != 0 || b_elems % computing != 0 {
                    return Err("the A and B tiles do not split evenly among the computing threads");
                }
            }
            TileCopy::Float4 => {
                if bk % 4 != 0 || bn % 4 != 0 || (a_elems / 4) % computing != 0 || (b_elems / 4) % computing != 0 {
                    return Err("the A and B tiles do not split into float4s evenly among the computing threads");
                }
            }
            TileCopy::Tma => {
                if bm > 256 || bn > 256 || bk * 4 > 128 {
                    return Err("TMA boxes are at most 256 elements a side and the swizzled A rows 128 bytes");
                }
            }
        }
        if self.vector_reads && (t.tm % 4 != 0 || t.tn % 4 != 0) {
            return Err("float4 reads of A and B need thread tiles of multiples of 4");
        }
        Ok(())
    }

    /// The warp-tile part of [`check`](Self::check): `wm × wn` warp tiles tile the block tile and
    /// each holds exactly 32 thread tiles of `tm × tn` (no dimension zero).
    #[inline]
    pub const fn check_warp_tiles(t: &Tile) -> Result<(), &'static str> {
        if t.wm == 0 || t.wn == 0 || t.tm == 0 || t.tn == 0 {
            return Err("a zero tile dimension");
        }
        if t.bm % t.wm != 0 || t.bn % t.wn != 0 || t.wm % t.tm != 0 || t.wn % t.tn != 0 {
            return Err("the warp tiles of thread tiles do not tile the block tile");
        }
        if (t.wm / t.tm) as u64 * (t.wn / t.tn) as u64 != 32 {
            return Err("a warp tile does not hold exactly 32 thread tiles");
        }
        Ok(())
    }

    /// [`check`](Self::check) as a compile-time assert ([`KernelSpec::with_tile_rules`] calls it
    /// when a rung's `SPEC` is evaluated).
    #[inline]
    pub const fn assert(&self, t: &Tile, threads: u32) {
        if let Err(reason) = self.check(t, threads) {
            panic!("{}", reason);
        }
    }
}

impl KernelSpec {
    /// A spec whose name the `entries!` macro fills in.
    #[inline]
    pub const fn unnamed(rung: Rung, dtype: Dtype, tile: Tile, threads: u32, smem_bytes: u32) -> Self {
        KernelSpec {
            name: "",
            rung,
            dtype,
            tile,
            threads,
            smem_bytes,
            tensor_maps: None,
            min_blocks_per_sm: 0,
            persistent: false,
            cluster_m: 1,
            layout: Layout::NN,
            any_alignment: false,
            batch_loop: false,
            tile_rules: None,
            stream_k: None,
            split_ahead: false,
            store: CStore::Scalar,
            fused_epilogue: Fusion::None,
            variant: Variant::Plain,
        }
    }

    /// Every choice that tells this kernel from its siblings; its `Display` is [`name`](Self::name).
    #[inline]
    pub const fn key(&self) -> KernelKey {
        KernelKey {
            dtype: self.dtype,
            rung: self.rung,
            tile: self.tile,
            cluster_m: self.cluster_m,
            schedule: self.schedule(),
            store: self.store,
            variant: self.variant,
            layout: self.layout,
        }
    }

    /// How the kernel's blocks cover the tiles of C: [`persistent`](Self::persistent) and
    /// [`stream_k`](Self::stream_k) as one value.
    #[inline]
    pub const fn schedule(&self) -> Schedule {
        if self.stream_k.is_some() {
            Schedule::StreamK
        } else if self.persistent {
            Schedule::Persistent
        } else {
            Schedule::DataParallel
        }
    }

    /// This spec for a kernel that writes C with `store`.
    #[inline]
    pub const fn with_store(self, store: CStore) -> Self {
        KernelSpec { store, ..self }
    }

    /// This spec for a kernel that applies `fusion` of a [`FusedEpilogue`] itself.
    #[inline]
    pub const fn with_fused_epilogue(self, fusion: Fusion) -> Self {
        KernelSpec { fused_epilogue: fusion, ..self }
    }

    /// This spec for a kernel with the rung's choices `variant`.
    #[inline]
    pub const fn with_variant(self, variant: Variant) -> Self {
        KernelSpec { variant, ..self }
    }

    /// This spec for a kernel whose tile shape follows `rules`; its tile and threads are checked
    /// against them at compile time ([`TileRules::check`]).
    #[inline]
    pub const fn with_tile_rules(self, rules: TileRules) -> Self {
        rules.assert(&self.tile, self.threads);
        KernelSpec { tile_rules: Some(rules), ..self }
    }

    /// The same spec for a kernel that loads A and B through tensor maps.
    #[inline]
    pub const fn with_tensor_maps(self, maps: TensorMaps) -> Self {
        KernelSpec { tensor_maps: Some(maps), ..self }
    }

    /// This spec, asking ptxas to fit `blocks` blocks per SM (it caps registers per thread at
    /// [`register_cap`]).
    #[inline]
    pub const fn with_min_blocks_per_sm(self, blocks: u32) -> Self {
        KernelSpec { min_blocks_per_sm: blocks, ..self }
    }

    /// This spec for a kernel launched in clusters of `blocks` block rows.
    #[inline]
    pub const fn with_cluster_m(self, blocks: u32) -> Self {
        KernelSpec { cluster_m: blocks, ..self }
    }

    /// This spec for a kernel that reads A and B stored as `layout` says.
    #[inline]
    pub const fn with_layout(self, layout: Layout) -> Self {
        KernelSpec { layout, ..self }
    }

    /// This spec for a kernel that takes A, B and C at any alignment (see
    /// [`KernelSpec::any_alignment`]), one product of a batch per plane of its grid.
    #[inline]
    pub const fn with_any_alignment(self) -> Self {
        KernelSpec { any_alignment: true, ..self }
    }

    /// This spec for a kernel that reads and writes element by element, at any alignment, and
    /// loops over the products of a batch (see [`KernelSpec::any_alignment`],
    /// [`KernelSpec::batch_loop`]).
    #[inline]
    pub const fn with_any_alignment_and_batch_loop(self) -> Self {
        KernelSpec { any_alignment: true, batch_loop: true, ..self }
    }

    /// This spec for a kernel that loops over tiles (see [`KernelSpec::persistent`]).
    #[inline]
    pub const fn with_persistent(self) -> Self {
        KernelSpec { persistent: true, ..self }
    }

    /// This spec for a kernel that reads A split ahead when `split` (see [`KernelSpec::split_ahead`]).
    #[inline]
    pub const fn with_split_ahead(self, split: bool) -> Self {
        KernelSpec { split_ahead: split, ..self }
    }

    /// This spec for a persistent kernel that cuts its last round's tiles by K, with `workspace`.
    #[inline]
    pub const fn with_stream_k(self, workspace: stream_k::StreamKWorkspace) -> Self {
        KernelSpec { persistent: true, stream_k: Some(workspace), ..self }
    }
}

/// Registers per thread ptxas compiles a kernel of `threads` threads to when `blocks` blocks must
/// fit on an SM: the register file's 65536 shared out, rounded down to a multiple of 8, at most
/// 248 (ptxas's 255, rounded down). A block holds `threads ×` this many; `setmaxnreg` only moves
/// them between its warpgroups.
#[inline]
pub const fn register_cap(threads: u32, blocks: u32) -> u32 {
    let share = 65536 / (threads * if blocks > 1 { blocks } else { 1 }) / 8 * 8;
    if share < 248 { share } else { 248 }
}
