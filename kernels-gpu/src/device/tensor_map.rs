//! The copy engine's description of a matrix, shared by both backends.

/// A CUDA tensor map (`CUtensorMap`): 128 opaque bytes, encoded by the host, read by the copy
/// engine. It lives in global memory because this rustc copies large by-value kernel parameters
/// to local memory, where the copy engine cannot read them.
#[repr(C, align(64))]
pub struct TensorMap(pub [u64; 16]);
