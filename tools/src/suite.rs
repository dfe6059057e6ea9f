//! Benchmark cases: shapes written on the command line (`4096`, `16x4096x4096:nt`) and the
//! suites `rgemm bench` and `rgemm tune` run.

use rgemm::{Batch, Layout, LeadingDims, Problem};

use crate::tool_error::{ToolError, ToolResult};

/// One GEMM shape: `M×N×K`.
pub type Shape = (u64, u64, u64);

/// One benchmark case: a shape, the layout of A and B, and a batch of packed matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub shape: Shape,
    pub layout: Layout,
    pub batch: u64,
}

impl Case {
    pub const fn plain(shape: Shape) -> Case {
        Case { shape, layout: Layout::NN, batch: 1 }
    }

    /// The problem (alpha = 1, beta = 0) with leading dimensions `ld`.
    pub fn problem(&self, ld: LeadingDims) -> ToolResult<Problem> {
        let (m, n, k) = self.shape;
        refuse_empty_k(k)?;
        Ok(Problem::general(m, n, k, 1.0, 0.0, self.layout, ld, Batch::packed(self.batch))?)
    }
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.batch > 1 {
            write!(f, "{}x", self.batch)?;
        }
        write!(f, "{}", shape_name(self.shape))?;
        if self.layout != Layout::NN {
            write!(f, ":{}", self.layout.name())?;
        }
        Ok(())
    }
}

/// A shape from `N` (square) or `MxNxK` (`x` or `×`), each size checked as [`Problem::new`]
/// checks it.
pub fn parse_shape(text: &str) -> ToolResult<Shape> {
    let case = parse_case(text)?;
    if case.batch != 1 || case.layout != Layout::NN {
        return Err(ToolError::InvalidProblem(format!("'{text}' is not a size: write N for N×N×N or MxNxK, e.g. 4096x4096x1024")));
    }
    Ok(case.shape)
}

/// A case from `N`, `MxNxK` or `BxMxNxK` (a batch of B products), optionally followed by
/// `:nn`, `:nt`, `:tn` or `:tt`.
pub fn parse_case(text: &str) -> ToolResult<Case> {
    let t = text.trim();
    let bad = || ToolError::InvalidProblem(format!("'{t}' is not a size: write N for N×N×N, MxNxK or BxMxNxK (a batch of B), optionally :nt, :tn or :tt, e.g. 4096x4096x1024:nt"));
    let (dims, layout) = match t.split_once(':') {
        Some((dims, layout)) => (dims, Layout::named(layout.trim()).ok_or_else(bad)?),
        None => (t, Layout::NN),
    };
    let parts: Vec<&str> = dims.split(['x', 'X', '×']).map(str::trim).collect();
    let numbers: Vec<u64> = parts.iter().map(|p| p.parse::<u64>().map_err(|_| bad())).collect::<ToolResult<_>>()?;
    let (batch, shape) = match numbers[..] {
        [n] => (1, (n, n, n)),
        [m, n, k] => (1, (m, n, k)),
        [b, m, n, k] => (b, (m, n, k)),
        _ => return Err(bad()),
    };
    let case = Case { shape, layout, batch };
    case.problem(LeadingDims::default())?;
    Ok(case)
}

/// A comma-separated list of shapes (`1024,2048,4096x4096x1024`), in the order given, without
/// repeats.
pub fn parse_shapes(text: &str) -> ToolResult<Vec<Shape>> {
    Ok(parse_cases(text)?.into_iter().map(|c| c.shape).collect())
}

/// A comma-separated list of cases (`1024,16x4096x4096:nt,64x512x512x64:nt`), in the order
/// given, without repeats.
pub fn parse_cases(text: &str) -> ToolResult<Vec<Case>> {
    let mut cases: Vec<Case> = Vec::new();
    for part in text.split(',') {
        if part.trim().is_empty() {
            return Err(ToolError::InvalidProblem(format!("'{text}' has an empty entry; write sizes separated by commas, e.g. 1024,2048,4096x4096x1024")));
        }
        let case = parse_case(part)?;
        if !cases.contains(&case) {
            cases.push(case);
        }
    }
    Ok(cases)
}

/// `MxNxK` as the reports write it.
pub fn shape_name(shape: Shape) -> String {
    format!("{}x{}x{}", shape.0, shape.1, shape.2)
}

/// The shapes people run, for `rgemm bench --suite real`: LLM linear layers (`y = x·Wᵀ`, W
/// stored N×K: layout `nt`) for decode and prefill batches, unaligned and odd shapes, deep K,
/// attention-like batches, and the four layouts at 4096³.
pub fn real_suite() -> Vec<Case> {
    let mut cases = Vec::new();
    for m in [1, 16, 128, 2048] {
        for (n, k) in [(4096, 4096), (6144, 4096), (28672, 4096), (4096, 14336)] {
            cases.push(Case { shape: (m, n, k), layout: Layout::NT, batch: 1 });
        }
    }
    for shape in [(4095, 4095, 4095), (4097, 4097, 4097), (3001, 2999, 3003), (1000, 1000, 1000), (333, 4099, 1021), (256, 256, 131072), (1024, 1024, 32768)] {
        cases.push(Case::plain(shape));
    }
    cases.push(Case { shape: (512, 512, 64), layout: Layout::NT, batch: 64 });
    cases.push(Case { shape: (1024, 1024, 128), layout: Layout::NN, batch: 32 });
    for layout in Layout::ALL {
        cases.push(Case { shape: (4096, 4096, 4096), layout, batch: 1 });
    }
    cases
}

/// The tools time and check kernels, and a product with K = 0 runs none (the library computes
/// `C = beta·C` without one): such a size is refused here with a sentence saying so.
pub fn refuse_empty_k(k: u64) -> ToolResult<()> {
    if k == 0 {
        return Err(ToolError::InvalidProblem("K is 0: a product of nothing runs no kernel (the library computes C = beta·C); give K ≥ 1".into()));
    }
    Ok(())
}
