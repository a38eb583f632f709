//! tapscope's front-ends over tapscope-core: the command line and the desktop workbench.
//! The `tapscope` binary is a thin `main` over [`cli::run`].

pub mod cli;
pub mod gui;
