//! The measured dispatcher: which kernel (and which split of K) the automatic choice runs for a
//! problem.
//!
//! `rgemm tune --suite real --table dispatch/h100.tsv` times every candidate plan of every shape
//! of the real-shape suite (`rgemm-tools`' `real_suite`: each fast kernel that takes the shape,
//! directly and with K split) and records the fastest per shape, with its device, date and commit,
//! in a [`Table`]. `rgemm tune --cases ... --table dispatch/h100.tsv` does the same for shapes the
//! suite lacks and replaces only their rows, noting them as measured since.
//! The table of the device rgemm was tuned on is built in ([`builtin`]); another
//! can be loaded ([`Table::read`]) and put in use ([`use_table`]).
//!
//! **The rule between measured shapes.** For a problem, the rows of its element type (f16 falls
//! back to bf16's rows, with the f16 twin of each kernel) are ordered by a distance
//! (`choice::distance`): the log₂ distance of M, N, K and the batch count, plus a penalty when
//! the rows' alignment (whether A's and B's rows are whole 16-byte units) or layout differ. The
//! first row whose kernel, in the problem's layout, takes the problem decides: that kernel, and a
//! split of K if the row was split (the split count then follows the problem's own tiles:
//! `choice::split_count`). A decode step (`nt`, M ≤ `choice::decode_rows(dtype)`) is not asked:
//! it runs the decode GEMV (`choice::decode_kernel`). When no row's kernel takes the problem, the
//! catalog's fixed order decides (`choice::candidates_for`); so it does when only rows more than
//! `choice::WINDOW` (4) farther than the nearest one would. The row decides a plan only within
//! `choice::NEAR` (1) of the problem; farther, the cost model does ([`crate::choice`] lists the
//! questions in order). Invariant: the choice is always a kernel whose `geometry` accepts the
//! problem.
//!
//! **Cost.** A table is parsed once ([`builtin`], [`use_table`]); a choice scans its rows once
//! per plan, never per run.

use std::path::Path;
use std::sync::{Arc, OnceLock, RwLock};

use crate::catalog::{self, Dtype, Kernel};
use crate::error::{Error, Result};
use crate::problem::Layout;

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// The table measured on the device rgemm was tuned on (see the file's header).
pub const BUILTIN: &str = include_str!("../dispatch/h100.tsv");

/// The column header of a table file.
const HEADER: &str = "dtype\tlayout\tbatch\tm\tn\tk\taligned\tplan\tpercent_of_best_cublas";

/// One measured shape and the plan that was fastest on it: one line of a table file.
///
/// ```rust
/// use rgemm::{Layout, catalog::{self, Dtype}, dispatch::{Row, Table}};
///
/// // 16 tokens through a linear layer of 14336 inputs and 4096 outputs, fastest with K split in two.
/// let row = Row {
///     dtype: Dtype::Bf16, layout: Layout::NT, batch: 1, m: 16, n: 4096, k: 14336, aligned: true,
///     kernel: catalog::find("bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt")?, staged: false, splits: 2, percent: 93.4,
/// };
/// let table = Table { notes: Vec::new(), rows: vec![row] };
/// assert!(table.to_text().ends_with("\nbf16\tnt\t1\t16\t4096\t14336\tyes\tbgemm_14_wgmma_tma_64x64x64_s12_tmast_nt_split2\t93.4\n"));
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The element type of A and B.
    pub dtype: Dtype,
    /// How A and B were stored.
    pub layout: Layout,
    /// Products in the batch (1: a single GEMM); at least 1.
    pub batch: u32,
    /// Rows of C; at least 1.
    pub m: u32,
    /// Columns of C; at least 1.
    pub n: u32,
    /// The inner size; at least 1.
    pub k: u32,
    /// Whether A's and B's rows (and batch strides) were whole 16-byte units.
    pub aligned: bool,
    /// The catalog kernel.
    pub kernel: Kernel,
    /// Whether the kernel read copies of A and B whose rows are whole 16-byte units (staged).
    pub staged: bool,
    /// Slices of K (1: not split).
    pub splits: u32,
    /// Its speed as a percentage of the best cuBLAS on the same run.
    pub percent: f64,
}

impl Row {
    /// The plan as reports name it (`kernel`, `kernel_staged`, `kernel_split8`, ...: [`plan_name`]).
    ///
    /// ```rust
    /// use rgemm::dispatch::Table;
    ///
    /// let table = Table::parse("dtype\tlayout\tbatch\tm\tn\tk\taligned\tplan\tpercent_of_best_cublas\n\
    ///                           bf16\tnt\t1\t16\t4096\t14336\tyes\tbgemm_14_wgmma_tma_64x64x64_s12_tmast_nt_split2\t93.4\n")?;
    /// let row = &table.rows[0];
    /// assert_eq!((row.kernel.name(), row.splits), ("bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt", 2));
    /// assert_eq!(row.plan_name(), "bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt_split2"); // as the file names it
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn plan_name(&self) -> String {
        plan_name(self.kernel.name(), self.staged, self.splits)
    }

    /// The shape as the suite writes it (`16x4096x4096:nt`): the batch count first when there is
    /// more than one product, the layout last when it is not `nn`.
    ///
    /// ```rust
    /// use rgemm::dispatch::Table;
    ///
    /// let table = Table::parse("dtype\tlayout\tbatch\tm\tn\tk\taligned\tplan\tpercent_of_best_cublas\n\
    ///                           bf16\tnn\t1\t4096\t4096\t4096\tyes\tbgemm_13_wgmma_128x256x64_s4\t97.5\n\
    ///                           bf16\tnt\t8\t16\t4096\t4096\tyes\tbgemm_00_general_16x16x16_nt\t50.0\n")?;
    /// assert_eq!(table.rows[0].case_name(), "4096x4096x4096");
    /// assert_eq!(table.rows[1].case_name(), "8x16x4096x4096:nt");
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn case_name(&self) -> String {
        let batch = if self.batch > 1 { format!("{}x", self.batch) } else { String::new() };
        let layout = if self.layout == Layout::NN { String::new() } else { format!(":{}", self.layout.name()) };
        format!("{batch}{}x{}x{}{layout}", self.m, self.n, self.k)
    }
}

/// A dispatch table: where and when it was measured, and one row per measured shape and type.
/// [`Table::parse`] shows the file form and how a table decides.
///
/// ```rust
/// use rgemm::{catalog::Dtype, dispatch};
///
/// let table = dispatch::builtin();
/// println!("measured on {} ({})", table.note("device").unwrap_or("?"), table.note("date").unwrap_or("?"));
/// // Rows of f32 and of bf16 (f16 problems use bf16's, with each kernel's f16 twin).
/// assert!(table.rows.iter().any(|r| r.dtype == Dtype::F32) && table.rows.iter().any(|r| r.dtype == Dtype::Bf16));
/// let best = table.rows.iter().max_by(|x, y| x.percent.total_cmp(&y.percent)).unwrap();
/// println!("furthest ahead of cuBLAS: {} on {} ({:.1}%)", best.plan_name(), best.case_name(), best.percent);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// `# key: value` lines of the file's header (device, date, commit, command), in order.
    pub notes: Vec<(String, String)>,
    /// The measured shapes, in the file's order (the tuner writes them sorted by type, layout,
    /// batch and size).
    pub rows: Vec<Row>,
}

impl Table {
    /// A header note (`device`, `date`, `commit`, `command`), if the table has it.
    ///
    /// ```rust
    /// let table = rgemm::dispatch::builtin();
    /// println!("measured on {}", table.note("device").unwrap_or("an unnamed device"));
    /// assert_eq!(table.note("no such note"), None);
    /// ```
    pub fn note(&self, key: &str) -> Option<&str> {
        self.notes.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Parses a table file (see [`Table::to_text`]): `# key: value` notes anywhere, blank lines
    /// skipped, the header line, then one row per line of nine tab-separated fields (element
    /// type, layout, batch, M, N, K, `yes`/`no` for aligned, the plan's name, percent of
    /// cuBLAS). The plan's kernel must be in the catalog. Anything else is
    /// [`Error::InvalidTable`], naming the line.
    ///
    /// ```rust
    /// use rgemm::{Problem, catalog::Dtype, choice, dispatch::Table};
    ///
    /// let text = "# device: NVIDIA H100 80GB HBM3 (132 SMs)\n\
    ///             dtype\tlayout\tbatch\tm\tn\tk\taligned\tplan\tpercent_of_best_cublas\n\
    ///             bf16\tnn\t1\t4096\t4096\t4096\tyes\tbgemm_13_wgmma_128x256x64_s4\t97.5\n\
    ///             bf16\tnn\t1\t64\t64\t65536\tyes\tbgemm_13_wgmma_128x256x64_s4_split16\t80.0\n";
    /// let table = Table::parse(text)?;
    /// assert_eq!(table.note("device"), Some("NVIDIA H100 80GB HBM3 (132 SMs)"));
    /// let row = &table.rows[1];
    /// assert_eq!((row.kernel.name(), row.staged, row.splits), ("bgemm_13_wgmma_128x256x64_s4", false, 16));
    /// assert_eq!(row.case_name(), "64x64x65536");
    /// assert_eq!(Table::parse(&table.to_text())?, table); // the file form reads back the same
    ///
    /// // The nearest measured shape decides for a problem between them.
    /// let chosen = choice::table_choice(&table, Dtype::Bf16, &Problem::new(3000, 5000, 4096, 1.0, 0.0)?).unwrap();
    /// assert_eq!((chosen.kernel.name(), chosen.split), ("bgemm_13_wgmma_128x256x64_s4", false));
    ///
    /// // A plan whose kernel the catalog lacks is refused, with its line.
    /// let bad = text.replace("wgmma_128x256x64_s4\t97", "wgmma_1x1x1\t97");
    /// assert!(matches!(Table::parse(&bad), Err(rgemm::Error::InvalidTable(why)) if why.starts_with("dispatch table line 3")));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Table> {
        let mut table = Table::default();
        let bad = |line: usize, why: &str| Error::InvalidTable(format!("dispatch table line {}: {why}", line + 1));
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if let Some(note) = line.strip_prefix('#') {
                if let Some((k, v)) = note.split_once(':') {
                    table.notes.push((k.trim().to_string(), v.trim().to_string()));
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            if !header {
                if line != HEADER {
                    return Err(bad(i, &format!("expected the header '{}'", HEADER.replace('\t', " "))));
                }
                header = true;
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 9 {
                return Err(bad(i, "expected 9 tab-separated fields"));
            }
            let num = |s: &str| s.parse::<u32>().ok().filter(|&v| v > 0).ok_or_else(|| bad(i, &format!("'{s}' is not a size")));
            let (name, staged, splits) = split_plan_name(f[7]);
            let kernel = catalog::find(&name).map_err(|_| bad(i, &format!("no kernel {name} in the catalog")))?;
            let dtype = catalog::dtype_named(f[0]).ok_or_else(|| bad(i, &format!("'{}' is not an element type", f[0])))?;
            let layout = Layout::named(f[1]).ok_or_else(|| bad(i, &format!("'{}' is not a layout", f[1])))?;
            // A row measured one kernel on its own type and layout: a kernel of another is a typo.
            if kernel.spec.dtype != dtype || kernel.spec.layout != layout {
                let spec = kernel.spec;
                return Err(bad(i, &format!("{name} multiplies {} {}, the row is {} {}", spec.dtype.name(), spec.layout.name(), dtype.name(), layout.name())));
            }
            table.rows.push(Row {
                dtype,
                layout,
                batch: num(f[2])?,
                m: num(f[3])?,
                n: num(f[4])?,
                k: num(f[5])?,
                aligned: match f[6] {
                    "yes" => true,
                    "no" => false,
                    other => return Err(bad(i, &format!("aligned is yes or no, not '{other}'"))),
                },
                kernel,
                staged,
                splits,
                percent: f[8].parse().map_err(|_| bad(i, &format!("'{}' is not a percentage", f[8])))?,
            });
        }
        if !header {
            return Err(Error::InvalidTable("the dispatch table has no header line".into()));
        }
        Ok(table)
    }

    /// Reads a table file ([`Table::parse`]); a file that cannot be read is
    /// [`Error::InvalidTable`] too, naming it.
    ///
    /// ```no_run
    /// // A table measured on this machine by `rgemm tune --suite real --table my-gpu.tsv`.
    /// let table = rgemm::dispatch::Table::read(std::path::Path::new("my-gpu.tsv"))?;
    /// rgemm::dispatch::use_table(table);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn read(path: &Path) -> Result<Table> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::InvalidTable(format!("cannot read {}: {e}", path.display())))?;
        Table::parse(&text)
    }

    /// The file form: `# key: value` notes, the header, one tab-separated row per shape;
    /// [`Table::parse`] reads it back to the same table.
    ///
    /// ```rust
    /// use rgemm::dispatch::{self, Table};
    ///
    /// let builtin = dispatch::builtin();
    /// assert_eq!(Table::parse(&builtin.to_text())?, *builtin);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.notes {
            out += &format!("# {k}: {v}\n");
        }
        out += HEADER;
        out.push('\n');
        for r in &self.rows {
            out += &format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\n",
                r.dtype.name(),
                r.layout.name(),
                r.batch,
                r.m,
                r.n,
                r.k,
                if r.aligned { "yes" } else { "no" },
                r.plan_name(),
                r.percent
            );
        }
        out
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// This table with `rows` in place of the rows of the same shapes (type, layout, batch, size
    /// and alignment), every other row kept, and the note `measured since (<type>)`: `what` said
    /// of them, beside any such notes already there. Rows of several types go each with its note.
    pub fn merge(&mut self, rows: Vec<Row>, what: &str) {
        let shape = |r: &Row| (r.dtype, r.layout, r.batch, r.m, r.n, r.k, r.aligned);
        let mut types: Vec<Dtype> = Vec::new();
        for r in &rows {
            if !types.contains(&r.dtype) {
                types.push(r.dtype);
            }
        }
        self.rows.retain(|old| !rows.iter().any(|new| shape(new) == shape(old)));
        self.rows.extend(rows);
        self.sort_rows();
        for dtype in types {
            self.notes.push((format!("measured since ({})", dtype.name()), what.to_string()));
        }
    }

    fn sort_rows(&mut self) {
        self.rows.sort_by_key(|r| (catalog::DTYPES.iter().position(|d| *d == r.dtype), r.layout.name(), r.batch, r.m, r.n, r.k));
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// This table with `dtype`'s rows replaced by `rows` and the notes by `notes`. A note
    /// `measured since (<dtype>)` (rows of that type edited from a later run) goes with the rows.
    pub fn replace(&mut self, dtype: Dtype, rows: Vec<Row>, notes: Vec<(String, String)>) {
        let since = format!("measured since ({})", dtype.name());
        self.notes.retain(|(k, _)| *k != since);
        self.rows.retain(|r| r.dtype != dtype);
        self.rows.extend(rows);
        self.sort_rows();
        for (k, v) in notes {
            match self.notes.iter_mut().find(|(key, _)| *key == k) {
                Some(slot) => slot.1 = v,
                None => self.notes.push((k, v)),
            }
        }
    }
}

/// A plan's name: the kernel, `_staged` when it reads aligned copies of A and B, `_split<S>`
/// when K is cut into `S` slices (what [`Plan::name`](crate::api::Plan::name) says).
///
/// ```rust
/// use rgemm::dispatch::plan_name;
///
/// assert_eq!(plan_name("bgemm_13_wgmma_128x256x64_s4", false, 8), "bgemm_13_wgmma_128x256x64_s4_split8");
/// assert_eq!(plan_name("bgemm_13_wgmma_128x256x64_s4", true, 1), "bgemm_13_wgmma_128x256x64_s4_staged");
/// ```
pub fn plan_name(kernel: &str, staged: bool, splits: u32) -> String {
    let mut name = kernel.to_string();
    if staged {
        name += STAGED;
    }
    if splits > 1 {
        name += &format!("_split{splits}");
    }
    name
}

const STAGED: &str = "_staged";

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// A plan's name split into its kernel, whether it is staged, and its split count
/// (`x_staged_split8` → (`x`, true, 8)); the inverse of [`plan_name`].
pub fn split_plan_name(name: &str) -> (String, bool, u32) {
    let (rest, splits) = match name.rsplit_once("_split") {
        Some((kernel, s)) => match s.parse::<u32>() {
            Ok(splits) if splits > 1 => (kernel, splits),
            _ => (name, 1),
        },
        None => (name, 1),
    };
    match rest.strip_suffix(STAGED) {
        Some(kernel) => (kernel.to_string(), true, splits),
        None => (rest.to_string(), false, splits),
    }
}

/// The built-in table: the one measured on the device rgemm was tuned on, shipped with the
/// crate and parsed once.
///
/// ```rust
/// let table = rgemm::dispatch::builtin();
/// assert!(!table.rows.is_empty());
/// assert!(table.rows.iter().all(|r| r.splits >= 1 && r.m >= 1));
/// ```
pub fn builtin() -> Arc<Table> {
    static TABLE: OnceLock<Arc<Table>> = OnceLock::new();
    TABLE.get_or_init(|| Arc::new(Table::parse(BUILTIN).unwrap_or_default())).clone()
}

fn current() -> &'static RwLock<Option<Arc<Table>>> {
    static CURRENT: OnceLock<RwLock<Option<Arc<Table>>>> = OnceLock::new();
    CURRENT.get_or_init(|| RwLock::new(None))
}

/// The table the automatic choice uses: the one put in use by [`use_table`], else the built-in
/// ([`builtin`]).
///
/// ```rust
/// use rgemm::dispatch;
///
/// assert_eq!(*dispatch::table(), *dispatch::builtin()); // until another is put in use
/// ```
pub fn table() -> Arc<Table> {
    current().read().unwrap_or_else(|e| e.into_inner()).clone().unwrap_or_else(builtin)
}

/// Puts `table` in use for every later automatic choice of this process (e.g. one measured on
/// this device by `rgemm tune --suite real --table`, read with [`Table::read`]). Plans made
/// before keep their kernels.
///
/// ```rust
/// use rgemm::{Problem, api::KernelChoice, catalog::Dtype, choice, dispatch::{self, Table}};
///
/// // A table of one measured shape, from this device.
/// let table = Table::parse("# device: my GPU\n\
///                           dtype\tlayout\tbatch\tm\tn\tk\taligned\tplan\tpercent_of_best_cublas\n\
///                           bf16\tnn\t1\t4096\t4096\t4096\tyes\tbgemm_13_wgmma_128x256x64_s4\t97.5\n")?;
/// dispatch::use_table(table.clone());
/// assert_eq!(*dispatch::table(), table);
/// // Automatic plans made from now on consult it; the plan's reason names the row that decided.
/// let plan = choice::plan(Dtype::Bf16, &Problem::new(2048, 2048, 2048, 1.0, 0.0)?, &KernelChoice::Auto, 132)?;
/// println!("{}: {}", plan.name(), plan.reason());
/// dispatch::use_table((*dispatch::builtin()).clone()); // back to the built-in table
/// # Ok::<(), rgemm::Error>(())
/// ```
pub fn use_table(table: Table) {
    *current().write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(table));
}
