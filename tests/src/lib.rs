//! End-to-end tests of tapscope across crates and shipped assets live in `tests/tests/`.
