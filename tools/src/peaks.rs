//! Peak rates of a device, from its SM count and clock: what the reports and the book judge
//! kernels against.

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

/// fp32 kernels run on the CUDA cores; bf16/f16 kernels against the tensor-core peak.
pub fn peak_tflops_at(dtype: Dtype, multiprocessors: u32, clock_khz: u32) -> f64 {
    match dtype {
        Dtype::F32 => fp32_peak_tflops(multiprocessors, clock_khz),
        Dtype::Bf16 | Dtype::F16 => tensor_peak_tflops(multiprocessors, clock_khz),
    }
}
