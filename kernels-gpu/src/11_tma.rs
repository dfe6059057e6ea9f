//! placeholder
use crate::prelude::*;
pub const ENTRIES: &[KernelSpec] = &[];
