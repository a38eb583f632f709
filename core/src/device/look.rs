//! The ways a device reads its screen, named where devices are: see [`crate::stability::look`].

pub use crate::stability::look::*;
