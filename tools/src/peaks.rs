//! Peak rates of a device: from its SM count and clock (what `rgemm bench` writes into its JSON
//! and its `% of peak` column), and the dense datasheet figures of the H100 SXM and the H200 that
//! the book, the generated pages and the roofline judge kernels against.

use rgemm::catalog::Dtype;
use rgemm::gpu::DeviceInfo;

/// The peak that kernels of `dtype` are measured against on `device`.
pub fn peak_tflops(device: &DeviceInfo, dtype: Dtype) -> f64 {
    peak_tflops_at(dtype, device.multiprocessors, device.clock_khz)
}

/// FP32 CUDA-core peak: SMs × 128 lanes × 2 flops per FMA × clock (kHz).
pub fn fp32_peak_tflops(multiprocessors: u32, clock_khz: u32) -> f64 {
    multiprocessors as f64 * 128.0 * 2.0 * clock_khz as f64 * 1e3 / 1e12
}

/// Dense bf16/f16 tensor-core peak of Hopper: SMs × 4096 flops per clock × clock (kHz).
pub fn tensor_peak_tflops(multiprocessors: u32, clock_khz: u32) -> f64 {
    multiprocessors as f64 * 4096.0 * clock_khz as f64 * 1e3 / 1e12
}

/// fp32 kernels run on the CUDA cores; bf16/f16 kernels against the tensor-core peak, FP8
/// kernels against twice it.
pub fn peak_tflops_at(dtype: Dtype, multiprocessors: u32, clock_khz: u32) -> f64 {
    match dtype {
        Dtype::F32 => fp32_peak_tflops(multiprocessors, clock_khz),
        Dtype::Bf16 | Dtype::F16 => tensor_peak_tflops(multiprocessors, clock_khz),
        Dtype::E4m3 => 2.0 * tensor_peak_tflops(multiprocessors, clock_khz),
    }
}

/// Dense fp32 on the CUDA cores, H100 SXM and H200 datasheets, TFLOP/s.
pub const DATASHEET_F32: f64 = 67.0;
/// Dense tf32 on the tensor cores (the datasheets print 989 with 2:4 sparsity), TFLOP/s.
pub const DATASHEET_TF32: f64 = 495.0;
/// Dense bf16 and f16 on the tensor cores (1979 with sparsity), TFLOP/s.
pub const DATASHEET_BF16: f64 = 989.0;
/// Dense FP8 on the tensor cores (3958 with sparsity), TFLOP/s.
pub const DATASHEET_FP8: f64 = 1979.0;

/// The roof a kernel is judged by: its dense datasheet peak in TFLOP/s and how the book names
/// it. fp32 kernels run on the CUDA cores (67), except rung 15, whose three tf32 products per fp32
/// product give it a third of the tf32 rate (495 / 3 = 165); bf16 and f16 kernels 989; FP8 1979.
pub fn datasheet_roof(dtype: Dtype, rung: u8) -> (f64, &'static str) {
    match (dtype, rung) {
        (Dtype::F32, 15) => (DATASHEET_TF32 / 3.0, "TF32/3 roof"),
        (Dtype::F32, _) => (DATASHEET_F32, "fp32 peak"),
        (Dtype::Bf16 | Dtype::F16, _) => (DATASHEET_BF16, "tensor-core peak"),
        (Dtype::E4m3, _) => (DATASHEET_FP8, "FP8 tensor-core peak"),
    }
}
