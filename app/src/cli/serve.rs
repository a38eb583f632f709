//! `tapscope serve`: the MCP server over stdio, driving the built-in simulated phone.

use anyhow::{Context, bail};
use clap::Args;
use rmcp::ServiceExt;
use tapscope_core::device::sim::Sim;
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::RealClock;

use super::Outcome;
use crate::mcp::PhoneServer;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve over stdin and stdout (the only transport so far).
    #[arg(long)]
    stdio: bool,
    /// Seed of the simulated phone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<Outcome> {
    if !args.stdio {
        bail!("pass --stdio: stdio is the only transport `tapscope serve` has so far");
    }
    let clock = RealClock::new();
    let server = PhoneServer::new(Session::new(
        Sim::new(clock, args.seed),
        clock,
        SessionConfig::default(),
    ));
    let runtime = tokio::runtime::Runtime::new().context("the async runtime did not start")?;
    runtime.block_on(async {
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .context("the MCP client did not initialize")?;
        service.waiting().await.context("the MCP server stopped")?;
        anyhow::Ok(())
    })?;
    Ok(Outcome::Ok)
}
