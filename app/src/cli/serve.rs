//! `tapscope serve`: the MCP server on the simulated phone or an ADB phone, over stdio or
//! streamable HTTP (loopback by default, a bearer token required anywhere else).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use rmcp::ServiceExt;
use tapscope_core::recording::Durability;
use tapscope_core::session::Session;

use super::Outcome;
use super::output::note;
use crate::journal::Journal;
use crate::mcp::http::{self, PATH};
use crate::mcp::{PhoneServer, ServedClock, ServedDevice};
use crate::phone::{DeviceArgs, WithSession};

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    device: DeviceArgs,
    /// Serve over stdin and stdout instead of HTTP.
    #[arg(long, conflicts_with = "http")]
    stdio: bool,
    /// Serve streamable HTTP at http://ADDR/mcp. Addresses other than loopback need --token.
    #[arg(long, value_name = "ADDR", default_value = http::DEFAULT_ADDR)]
    http: SocketAddr,
    /// Require `Authorization: Bearer TOKEN` on every HTTP request. Prefer the
    /// environment variable: it stays out of process listings.
    #[arg(long, env = "TAPSCOPE_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Record every tool call into this new folder (see docs/recording-format.md); open
    /// it with `tapscope open DIR`.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// With --record: `step` syncs each step to disk before its call is answered (a power
    /// cut loses none); `none` leaves it to the operating system (faster on slow disks).
    #[arg(long, default_value = "step", value_parser = parse_durability, requires = "record")]
    sync: Durability,
}

fn parse_durability(name: &str) -> Result<Durability, String> {
    name.parse()
}

pub fn run(args: &ServeArgs) -> anyhow::Result<Outcome> {
    if !args.stdio {
        // Usage errors first, before any device is opened.
        http::check_bind(args.http, args.token.as_deref())?;
    }
    args.device.open(Serving(args))?
}

/// Serves whichever device was opened.
struct Serving<'a>(&'a ServeArgs);

impl WithSession for Serving<'_> {
    type Output = anyhow::Result<Outcome>;

    fn run<D: ServedDevice, C: ServedClock>(self, session: Session<D, C>) -> Self::Output {
        let args = self.0;
        let mut server = PhoneServer::new(session);
        if let Some(dir) = &args.record {
            let now = server.session().clock().now();
            let device = args.device.device.to_string();
            server = server.with_journal(Journal::create_with(dir, &device, now, args.sync)?);
            note!("tapscope: recording every call to {}", dir.display());
        }
        let runtime = tokio::runtime::Runtime::new().context("the async runtime did not start")?;
        runtime.block_on(serve(args, server))?;
        Ok(Outcome::Ok)
    }
}

/// Serves `server` over the transport `args` name until the client leaves (stdio) or
/// Ctrl-C (HTTP).
async fn serve<D: ServedDevice, C: ServedClock>(
    args: &ServeArgs,
    server: PhoneServer<D, C>,
) -> anyhow::Result<()> {
    if args.stdio {
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .context("the MCP client did not initialize")?;
        service.waiting().await.context("the MCP server stopped")?;
        return Ok(());
    }
    let listener = http::bind(args.http, args.token.as_deref()).await?;
    let at = listener.local_addr().unwrap_or(args.http);
    let access = if args.token.is_some() {
        "a bearer token is required"
    } else {
        "no token required, loopback only"
    };
    note!(
        "tapscope: MCP over streamable HTTP at http://{at}{PATH} (device {}); {access}; \
         Ctrl-C stops",
        args.device.device
    );
    let shutdown = async {
        // Without a signal handler there is nothing to wait for but the process's end.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    // Every MCP client gets a clone: one session, so one device's actions never interleave.
    http::serve_http(
        listener,
        args.token.clone(),
        move || server.clone(),
        shutdown,
    )
    .await
    .with_context(|| format!("serving http://{at}{PATH} failed"))?;
    note!("tapscope: stopped");
    Ok(())
}
