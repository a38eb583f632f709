//! tapscope's front-ends over tapscope-core: the command line, the desktop workbench and
//! the MCP server.
//! The `tapscope` binary is a thin `main` over [`cli::run`].

pub mod cli;
pub mod demo;
pub mod gui;
pub mod journal;
pub mod mcp;
pub mod phone;
pub mod proxy;
pub mod replay;
