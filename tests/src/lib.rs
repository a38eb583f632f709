//! What tapscope's tests across crates share; the end-to-end tests themselves live in
//! `tests/tests/`. A dev-dependency of `tapscope-core` and `tapscope`, never shipped.

pub mod adb;
pub mod child;
pub mod dumps;
pub mod feed;
pub mod picture;
pub mod shared;
pub mod tree;
