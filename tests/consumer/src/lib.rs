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

/// The README's library example, verbatim between the markers (`tests/readme.rs` checks that the
/// README still shows exactly these lines), so that it is compiled on stable Rust.
pub fn readme_example() -> rgemm::Result<()> {
    // README START
    use rgemm::api::{Gemm, KernelChoice};
    use rgemm::{Gpu, Layout, half::bf16};

    let gpu = Gpu::open()?;                                  // or Gpu::on_stream(your_stream)
    // 8 products y_i = 0.5·x_i·Wᵀ + y_i: x_i 16×4096, one W stored 11008×4096 (stride 0), y_i f32.
    let plan = Gemm::new(16, 11008, 4096).layout(Layout::NT).scalars(0.5, 1.0)
        .batch(8, 16 * 4096, 0, 16 * 11008)
        .plan::<bf16>(&gpu, KernelChoice::Auto)?;            // validated, kernel chosen, once
    let (a_len, b_len, c_len) = plan.problem().extents();   // elements each buffer must hold
    let x = gpu.stream().alloc_zeros::<bf16>(a_len)?;
    let w = gpu.stream().alloc_zeros::<bf16>(b_len)?;
    let mut y = gpu.stream().alloc_zeros::<f32>(c_len)?;
    plan.run(&gpu, &x, &w, &mut y)?;                         // checks the buffers, queues, never waits
    // README END
    Ok(())
}
