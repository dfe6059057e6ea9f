//! The tuner's side of the dispatch table: the rows a `rgemm tune` report measures.

use rgemm::catalog;
use rgemm::choice::aligned;
use rgemm::dispatch::{Row, split_plan_name};

use crate::tool_error::{ToolError, ToolResult};
use crate::report::{Outcome, Report};

/// The rows a `rgemm tune` report measures: per shape, the fastest plan that passed its
/// check, as a percentage of that shape's best cuBLAS. Shapes without a passing plan or a
/// cuBLAS timing give no row.
pub fn rows_of(report: &Report) -> ToolResult<Vec<Row>> {
    let dtype = catalog::dtype_named(&report.dtype).ok_or_else(|| ToolError::InvalidArgument(format!("the report's type '{}' is unknown", report.dtype)))?;
    let mut rows = Vec::new();
    for size in &report.sizes {
        let Some(cublas) = &size.cublas else { continue };
        let best = size
            .runs
            .iter()
            .filter(|r| r.outcome == Outcome::Pass)
            .filter_map(|r| r.timing.as_ref().map(|t| (t.median_ms, r)))
            .min_by(|x, y| x.0.total_cmp(&y.0));
        let Some((ms, run)) = best else { continue };
        let problem = size.case().problem(rgemm::problem::LeadingDims::default())?;
        let (name, staged, splits) = split_plan_name(&run.kernel);
        let kernel = catalog::find(&name)?;
        rows.push(Row {
            dtype,
            layout: problem.layout,
            batch: problem.batch,
            m: problem.m,
            n: problem.n,
            k: problem.k,
            aligned: aligned(dtype, &problem),
            kernel,
            staged,
            splits,
            percent: 100.0 * cublas.median_ms / ms,
        });
    }
    Ok(rows)
}
