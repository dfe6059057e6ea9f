//! A kernel's key: every choice that tells one entry of the PTX module from its siblings, as typed
//! values, and the entry's name derived from them.
//!
//! **Idea.** An entry is named by its key ([`KernelKey`]'s `Display`), so the name is a function
//! of typed data, never the other way round: the host finds a kernel's twin (its stream-K
//! schedule, its other width, its f16 instantiation, its `nt` layout) by changing one field of
//! the key ([`KernelKey::with_schedule`] and the other `with_*`) and looking the new key up,
//! rather than by editing the name as text.
//!
//! **Invariants.** The name is
//! `{sgemm|bgemm|hgemm}_{NN}_{slug}_{BM}x{BN}x{BK}[_w{WM}x{WN}][_t{TM}x{TN}][_s{S}][_c{C}][_{schedule}][_{epilogue}][_{variant}…][_{layout}]`:
//! the warp, thread, stage and cluster parts appear when they are not 1, the schedule, epilogue
//! and variant tags when they are not the default (one lowercase tag per choice), and the layout
//! when it is not `nn`. No two entries of the module share a key (kernels-gpu tests it, and that
//! every entry's name is its key's).
//!
//! **Cost.** None at run time: keys are plain `Copy` data; `Display` writes the name without
//! allocating (`no_std`).

use core::fmt;

use crate::{Dtype, KernelSpec, Layout, Rung, Tile};

/// What a kernel is: a rung of the teaching ladder, or one of the kernels beside it (which keep
/// the number 0 in their names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelKind {
    /// A rung of the ladder; its number is the rung's position.
    Ladder,
    /// The decode GEMV: a few rows of x against a weight stored N×K.
    Gemv,
    /// The general kernel: every layout, leading dimension and alignment, tried last.
    Fallback,
    /// A reduction for a few outputs over a long K (dot products), K split across blocks.
    Dot,
    /// Many small products: a small tensor-core tile per block, any layout and alignment, many
    /// blocks per SM.
    Batched,
    /// A kernel wrong on purpose, for the emulator's tests: never in the PTX module.
    Fixture,
}

/// How the blocks of a launch cover the tiles of C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum Schedule {
    /// One block per tile of C (no tag).
    DataParallel,
    /// At most one block per SM, each walking the tiles `i, i + blocks, …` (`_persistent`).
    Persistent,
    /// [`Schedule::Persistent`], the tiles of a last round at most half full cut into slices of K
    /// for the SMs that would idle (`_streamk`).
    StreamK,
}

impl Schedule {
    /// The name's tag: empty for [`Schedule::DataParallel`].
    #[inline]
    pub const fn tag(self) -> &'static str {
        match self {
            Schedule::DataParallel => "",
            Schedule::Persistent => "_persistent",
            Schedule::StreamK => "_streamk",
        }
    }

    /// One block per SM walks the tiles (the host launches at most one block per SM).
    #[inline]
    pub const fn is_persistent(self) -> bool {
        !matches!(self, Schedule::DataParallel)
    }
}

/// How the consumers of a warp-specialised kernel write their tile of C (rung 14); every other
/// kernel writes C its own way and says [`CStore::Scalar`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum CStore {
    /// From the registers, one predicated `st.global.f32` per element (no tag).
    Scalar,
    /// From the registers, one `st.global.v2.f32` per pair of neighbouring columns that lies
    /// inside C on an 8-byte-aligned row, two scalar stores otherwise (`_pairs`).
    Pairs,
    /// Through shared memory: slices written to a swizzled buffer and stored by the copy engine,
    /// which drops what lies outside C; with beta ≠ 0 (C must be read) as [`CStore::Pairs`]
    /// (`_tmast`).
    TmaStore,
}

impl CStore {
    /// The name's tag: empty for [`CStore::Scalar`].
    #[inline]
    pub const fn tag(self) -> &'static str {
        match self {
            CStore::Scalar => "",
            CStore::Pairs => "_pairs",
            CStore::TmaStore => "_tmast",
        }
    }
}

/// Rung 9's K loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum KLoop {
    /// Every block through the checked loop, whose copies test each slice against the matrix
    /// edges (no tag).
    Checked,
    /// Blocks whose every slice lies inside aligned matrices run a loop of unchecked float4
    /// copies with the last slice outside it; the others the checked loop (`_interior`).
    Interior,
    /// [`KLoop::Interior`], the prefetched slice written to shared memory halfway through the
    /// arithmetic of the current one (`_midstore`).
    MidStore,
}

/// How rung 10 lays the A slice out in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum AStaging {
    /// Transposed and padded, copied element by element (`_at`).
    Transposed,
    /// Row-major and 128-byte swizzled, copied in 16-byte chunks (`_sw`).
    Swizzled,
}

/// Who arrives on a stage's `empty` mbarrier in rung 11 when the stage has been read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum StageRelease {
    /// Every consumer thread (no tag).
    PerThread,
    /// Each consumer warp once, after `bar.warp.sync` (`_wa`).
    PerWarp,
}

/// How many K-steps of A a rung-11 consumer holds in registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum Fragments {
    /// Four steps, read just before they are multiplied (no tag).
    Single,
    /// Four steps and the next four, read while these are multiplied (`_df`).
    Double,
}

/// How rung 15 splits each fp32 operand into the tf32 parts the tensor cores multiply. With
/// [`OperandSplit::Rounded`] and [`OperandSplit::Truncated`] it is how the tile of the shared
/// operand S (A, or B for `tt`) is split in shared memory, the register operand R's fragments
/// being split rounded; with [`OperandSplit::Raw`] nothing is rounded on either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "const-tile", derive(core::marker::ConstParamTy))]
pub enum OperandSplit {
    /// `hi = rna(a)` written over `a`, `lo = rna(a − hi)` beside it: two stores per float4 (no
    /// tag).
    Rounded,
    /// `a` stays as the copy engine wrote it and the tensor cores truncate it to `hi = trunc(a)`
    /// (they ignore its low 13 bits); `lo = rna(a − trunc(a))` beside it: one store per float4
    /// (`_trunc`). `lo` is then up to one tf32 ulp of `a` instead of half of one, which makes the
    /// dropped `lo·lo` term up to four times larger (at most 2⁻²⁰·|a·b|).
    Truncated,
    /// Both operands, S in shared memory and R in registers, as [`OperandSplit::Truncated`]
    /// without any rounding: `hi` is the raw value and `lo = a − trunc(a)` (exact), and the tensor
    /// cores truncate both as they read them (`_raw`). Two instructions per value (a mask and a
    /// subtraction) where `Truncated` takes a `cvt.rna` more in S and the rounded split of R two.
    /// The cost is in the error: `lo` loses up to one tf32 ulp of itself (2⁻²⁰·|a|), so each
    /// product is within 3·2⁻²⁰·|a·b|, every term with the sign of `a·b`.
    Raw,
    /// [`OperandSplit::Raw`]'s values, with S (always A) split ahead by the host into a workspace,
    /// K-major in every layout: the copy engine loads `hi` and `lo` into the stage, and the K-loop
    /// has no split and no barrier (`_presplit`). For `tn` and `tt` the host's split does the
    /// transposing the loop would otherwise do in shared memory (in `tt` B, stored N×K, is then a
    /// K-major R, as in `nt`). Costs a pass over A and a workspace twice its size.
    Presplit,
}

impl OperandSplit {
    /// The tensor cores truncate the raw values of S to their high part (all but
    /// [`OperandSplit::Rounded`]).
    #[inline]
    pub const fn truncated(self) -> bool {
        !matches!(self, OperandSplit::Rounded)
    }

    /// `lo` is rounded to the nearest tf32 (`cvt.rna`) rather than truncated by the tensor cores
    /// as they read it ([`OperandSplit::Rounded`], [`OperandSplit::Truncated`]).
    #[inline]
    pub const fn rounded_lo(self) -> bool {
        matches!(self, OperandSplit::Rounded | OperandSplit::Truncated)
    }

    /// S arrives split: the host splits A ahead of the product and the copy engine loads both
    /// parts ([`OperandSplit::Presplit`]).
    #[inline]
    pub const fn presplit(self) -> bool {
        matches!(self, OperandSplit::Presplit)
    }

    /// The name's tag: empty for [`OperandSplit::Rounded`].
    #[inline]
    pub const fn tag(self) -> &'static str {
        match self {
            OperandSplit::Rounded => "",
            OperandSplit::Truncated => "_trunc",
            OperandSplit::Raw => "_raw",
            OperandSplit::Presplit => "_presplit",
        }
    }
}

/// K-tiles between rung 15's flushes of the tensor cores' sums into fp32 registers when the
/// name carries no tag (`_short` is half of it).
pub const TF32X3_FLUSH_EVERY: u32 = 4;

/// The choices of one rung that the tile, schedule, epilogue and layout leave open: one name tag
/// each, written after the epilogue's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// None: the rung's kernel for its tile, schedule, epilogue and layout.
    Plain,
    /// Rung 9: the K loop.
    Warptile(KLoop),
    /// Rung 10: the A slice in shared memory.
    CpAsync(AStaging),
    /// Rung 11: who releases a stage, and how many K-steps of A a consumer holds.
    Tma(StageRelease, Fragments),
    /// Rung 12 with the fragments of the next mma step loaded while this one computes and
    /// interior blocks copying without edge checks (`_fp`).
    MmaSyncPipelined,
    /// Rung 15: the operand split, and the K-tiles between flushes ([`TF32X3_FLUSH_EVERY`] without
    /// a tag, half of it `_short`, any other `n` `_flush{n}`).
    Tf32x3(OperandSplit, u32),
    /// Rung 16 (FP8): the K-tiles between flushes of the tensor cores' sums into f32 registers
    /// (1 without a tag, any other `n` `_flush{n}`; 0, the whole sum in the tensor cores,
    /// `_noflush`).
    Fp8(u32),
    /// The decode GEMV on the tensor cores: 16 rows of x as one `mma.sync` tile, 8 columns of C
    /// per warp (`_mma`).
    GemvMma,
}

impl fmt::Display for Variant {
    /// The variant's tags, each with its leading `_` (nothing for [`Variant::Plain`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Variant::Plain => Ok(()),
            Variant::Warptile(KLoop::Checked) => Ok(()),
            Variant::Warptile(KLoop::Interior) => f.write_str("_interior"),
            Variant::Warptile(KLoop::MidStore) => f.write_str("_midstore"),
            Variant::CpAsync(AStaging::Transposed) => f.write_str("_at"),
            Variant::CpAsync(AStaging::Swizzled) => f.write_str("_sw"),
            Variant::Tma(release, fragments) => {
                if release == StageRelease::PerWarp {
                    f.write_str("_wa")?;
                }
                if fragments == Fragments::Double {
                    f.write_str("_df")?;
                }
                Ok(())
            }
            Variant::MmaSyncPipelined => f.write_str("_fp"),
            Variant::GemvMma => f.write_str("_mma"),
            Variant::Tf32x3(split, flush_every) => {
                f.write_str(split.tag())?;
                match flush_every {
                    TF32X3_FLUSH_EVERY => Ok(()),
                    n if n * 2 == TF32X3_FLUSH_EVERY => f.write_str("_short"),
                    n => write!(f, "_flush{n}"),
                }
            }
            Variant::Fp8(1) => Ok(()),
            Variant::Fp8(0) => f.write_str("_noflush"),
            Variant::Fp8(n) => write!(f, "_flush{n}"),
        }
    }
}

/// Every choice that tells a kernel from its siblings; its `Display` is the entry's name.
///
/// Get one from a spec ([`KernelSpec::key`](crate::KernelSpec::key)), change a field with a
/// `with_*` method, and look the result up among the specs (`spec.key() == wanted`) to find a
/// kernel's twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    /// The element type of A and B (the name's `sgemm`, `bgemm`, `hgemm`).
    pub dtype: Dtype,
    /// The rung (or the kernel beside the ladder): number and slug.
    pub rung: Rung,
    /// The tile hierarchy (the name's `128x256x64_s4`).
    pub tile: Tile,
    /// Blocks per cluster along M (1: no clusters).
    pub cluster_m: u32,
    /// How the blocks of a launch cover the tiles of C (one block per tile, persistent, stream-K).
    pub schedule: Schedule,
    /// How the kernel writes C.
    pub store: CStore,
    /// The rung's own choices that the other fields leave open.
    pub variant: Variant,
    /// How the kernel reads A and B.
    pub layout: Layout,
}

impl KernelKey {
    /// The same kernel for A and B of `dtype` (its bf16 ↔ f16 twin).
    #[inline]
    pub const fn with_dtype(self, dtype: Dtype) -> Self {
        KernelKey { dtype, ..self }
    }

    /// The same kernel with tile `tile` (its other width, say).
    #[inline]
    pub const fn with_tile(self, tile: Tile) -> Self {
        KernelKey { tile, ..self }
    }

    /// The same kernel in clusters of `blocks` block rows.
    #[inline]
    pub const fn with_cluster_m(self, blocks: u32) -> Self {
        KernelKey { cluster_m: blocks, ..self }
    }

    /// The same kernel under `schedule` (a persistent kernel's stream-K twin:
    /// `key.with_schedule(Schedule::StreamK)`).
    #[inline]
    pub const fn with_schedule(self, schedule: Schedule) -> Self {
        KernelKey { schedule, ..self }
    }

    /// The same kernel writing C with `store`.
    #[inline]
    pub const fn with_store(self, store: CStore) -> Self {
        KernelKey { store, ..self }
    }

    /// The same kernel with the rung's choices `variant`.
    #[inline]
    pub const fn with_variant(self, variant: Variant) -> Self {
        KernelKey { variant, ..self }
    }

    /// The same kernel reading A and B stored as `layout` says.
    #[inline]
    pub const fn with_layout(self, layout: Layout) -> Self {
        KernelKey { layout, ..self }
    }

    /// The spec among `specs` whose key this is, if there is one: how a twin is found, e.g.
    /// `spec.key().with_schedule(Schedule::StreamK).find_in(ENTRIES)`.
    #[inline]
    pub fn find_in<'a>(&self, specs: impl IntoIterator<Item = &'a KernelSpec>) -> Option<&'a KernelSpec> {
        specs.into_iter().find(|spec| spec.key() == *self)
    }
}

impl fmt::Display for KernelKey {
    /// The entry's name (see the module documentation for the scheme).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.tile;
        write!(f, "{}_{:02}_{}_{}x{}x{}", self.dtype.gemm_name(), self.rung.number, self.rung.slug, t.bm, t.bn, t.bk)?;
        if t.wm > 1 || t.wn > 1 {
            write!(f, "_w{}x{}", t.wm, t.wn)?;
        }
        if t.tm > 1 || t.tn > 1 {
            write!(f, "_t{}x{}", t.tm, t.tn)?;
        }
        if t.stages > 1 {
            write!(f, "_s{}", t.stages)?;
        }
        if self.cluster_m > 1 {
            write!(f, "_c{}", self.cluster_m)?;
        }
        f.write_str(self.schedule.tag())?;
        f.write_str(self.store.tag())?;
        write!(f, "{}", self.variant)?;
        if self.layout != Layout::NN {
            write!(f, "_{}", self.layout.name())?;
        }
        Ok(())
    }
}
