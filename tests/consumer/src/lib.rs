//! A user's crate: a linear layer `y = x·Wᵀ` planned with rgemm.

use rgemm::api::{Gemm, KernelChoice};
use rgemm::catalog::Dtype;
use rgemm::{Layout, Result};

/// The plan of a bf16 linear layer of `tokens` rows on a GPU of `sms` SMs, in words.
pub fn linear_layer_plan(tokens: u64, d_in: u64, d_out: u64, sms: u32) -> Result<String> {
    let problem = Gemm::new(tokens, d_out, d_in).layout(Layout::NT).problem()?;
    let plan = rgemm::choice::plan(Dtype::Bf16, &problem, &KernelChoice::Auto, sms)?;
    Ok(format!("{}: {}", plan.name(), plan.reason()))
}
