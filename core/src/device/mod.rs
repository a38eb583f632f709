//! Devices tapscope drives: a phone over ADB, or the built-in simulated phone.

pub mod adb_output;
