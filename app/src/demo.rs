//! The demo recording: a scripted agent drives the simulated phone over MCP through a
//! realistic task while the server records it. `tapscope record-demo` writes it; the
//! committed `recordings/demo/` is its output.
//!
//! The run is reproducible byte for byte: the sim runs on a virtual clock (settle times
//! are simulated, not measured), versions are drawn from a fixed seed, the header's start
//! time is fixed, and the self-drawn game's text is read by the sim's transcript (the
//! words it drew, at confidence 100), not by whatever Tesseract the machine has, or lacks.
//! Regenerating on the same tapscope gives the same files on any machine.
//!
//! It is recorded into a scratch folder beside the destination and moved into place once
//! whole, so a run that fails or is killed leaves the destination as it was. Only what
//! record-demo wrote is ever replaced: a destination that is anything but missing, an
//! empty folder, or a demo recording (the sim's, at the demo's fixed start, holding only
//! its log and screens) is refused and left untouched.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail, ensure};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use tapscope_core::device::sim::Sim;
use tapscope_core::recording::{self, SCREENS_DIR, SESSION_FILE};
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};

use crate::journal::Journal;
use crate::mcp::{PhoneServer, result_text};
use crate::replay::scratch::Scratch;

/// Where the demo lives in the source tree.
pub const DEMO_DIR: &str = "recordings/demo";
/// The sim's seed and the version seed of the demo run.
const SEED: u64 = 1;
/// The demo's recorded start: 2026-12-01T00:00:00Z.
const STARTED_AT_MS: u64 = 1_796_083_200_000;

/// What the scripted agent went through.
#[derive(Debug, Default)]
pub struct Summary {
    pub steps: usize,
    pub refusals: usize,
    pub fallbacks: usize,
}

/// The demo folder of the source tree this binary was built from.
pub fn source_tree_demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(DEMO_DIR)
}

/// Records the demo into `dir`: a new folder, an empty one, or a demo recording to
/// replace (see [`replaceable`]); anything else is refused before anything is written.
pub fn record(dir: &Path) -> anyhow::Result<Summary> {
    replaceable(dir)?;
    let parent = match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::create_dir_all(parent)
        .with_context(|| format!("could not make the folder {}", parent.display()))?;
    let scratch = Scratch::new_in(parent, ".tapscope-demo-").with_context(|| {
        format!(
            "could not make a folder in {} to record the demo in",
            parent.display()
        )
    })?;
    let summary = record_into(&scratch.run())?;
    let written = recording::read(&scratch.run())?;
    ensure!(
        written.steps.len() == summary.steps && written.problems.is_empty(),
        "the demo's recording stopped after {} of its {} steps; {} was left as it was",
        written.steps.len(),
        summary.steps,
        dir.display()
    );
    // Looked at again: the folder may have changed while the demo ran.
    replaceable(dir)?;
    scratch.replace(dir)?;
    Ok(summary)
}

/// Whether a new demo may take the place of `dir`: nothing is there, an empty folder, or
/// a recording record-demo wrote (the sim's, started at the demo's fixed start, with only
/// its log and a screens folder of files). Anything else is someone's, and is refused.
fn replaceable(dir: &Path) -> anyhow::Result<()> {
    let refuse = |what: String| {
        anyhow::anyhow!(
            "{} {what}, so record-demo will not replace it: give a new or empty folder, or \
             move it away first",
            dir.display()
        )
    };
    match fs::symlink_metadata(dir) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => return Err(refuse("is not a folder".to_owned())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("could not look at {}", dir.display())),
    }
    let found = entries(dir)?;
    if found.is_empty() {
        return Ok(());
    }
    let not_the_demo = |name: &str| format!("holds {name}, which a demo recording does not");
    for (name, folder) in &found {
        match (name.as_str(), folder) {
            (SESSION_FILE, false) => {}
            (SCREENS_DIR, true) => {
                let screens = entries(&dir.join(SCREENS_DIR))?;
                if let Some((inner, _)) = screens.iter().find(|(_, folder)| *folder) {
                    return Err(refuse(not_the_demo(&format!("{SCREENS_DIR}/{inner}/"))));
                }
            }
            (other, _) => return Err(refuse(not_the_demo(other))),
        }
    }
    let header = recording::read(dir)
        .map_err(|e| refuse(format!("is not a recording tapscope reads ({e})")))?
        .header;
    if header.device != "sim" || header.started_at_ms != STARTED_AT_MS {
        return Err(refuse(format!(
            "holds a recording of {} started at {} ms since 1970, not the demo",
            header.device, header.started_at_ms
        )));
    }
    Ok(())
}

/// The names in the folder `dir`, each with whether it is a folder itself (a link is not).
fn entries(dir: &Path) -> anyhow::Result<Vec<(String, bool)>> {
    let read = || -> io::Result<Vec<(String, bool)>> {
        let mut found = Vec::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            found.push((name, entry.file_type()?.is_dir()));
        }
        Ok(found)
    };
    read().with_context(|| format!("could not read the folder {}", dir.display()))
}

fn record_into(dir: &Path) -> anyhow::Result<Summary> {
    let clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), SEED);
    let drawn = Arc::new(sim.transcript());
    let session =
        Session::new(sim, clock.clone(), SessionConfig::default()).with_text_reader(drawn);
    let journal = Journal::create_at(dir, "sim", clock.now(), STARTED_AT_MS)?;
    let server = PhoneServer::new(session).with_journal(journal);
    let runtime = tokio::runtime::Runtime::new().context("the async runtime did not start")?;
    runtime.block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let serving = tokio::spawn(async move {
            let service = server.serve(server_io).await?;
            service.waiting().await?;
            anyhow::Ok(())
        });
        let client = ().serve(client_io).await.context("the demo agent did not connect")?;
        let mut agent = Agent {
            client,
            tree: String::new(),
            summary: Summary::default(),
        };
        agent.run_task().await?;
        let summary = std::mem::take(&mut agent.summary);
        agent
            .client
            .cancel()
            .await
            .context("the demo agent did not disconnect")?;
        serving.await.context("the server task failed")??;
        Ok(summary)
    })
}

/// A scripted agent: reads the latest tree like a model would and acts on handles.
struct Agent {
    client: RunningService<RoleClient, ()>,
    /// The latest tree a result carried.
    tree: String,
    summary: Summary,
}

impl Agent {
    /// Open the feed, search, go back, scroll the feed to its end, meet a stale handle,
    /// open the last video, go back, play a self-drawn game by its pixels, then tap the
    /// feed by the pixels of a screenshot taken before the list moved.
    async fn run_task(&mut self) -> anyhow::Result<()> {
        self.call("load_skill", serde_json::json!({})).await?;
        self.call("screen_operation_accessibility", serde_json::json!({}))
            .await?;
        self.tap("TapTube").await?;
        self.tap("Search videos").await?;
        self.call("input_text", serde_json::json!({"text": "golden record"}))
            .await?;
        self.call("press_key", serde_json::json!({"key": "enter"}))
            .await?;
        self.call("press_key", serde_json::json!({"key": "back"}))
            .await?;
        self.call("press_key", serde_json::json!({"key": "back"}))
            .await?;

        let list = self.handle_where(|line| line.contains(" scroll"))?;
        self.call(
            "scroll",
            serde_json::json!({"target": list, "direction": "down"}),
        )
        .await?;
        // The classic mistake: a handle kept from the tree before the next scroll.
        let kept = self.handle_where(|line| line.contains("views"))?;
        loop {
            let list = self.handle_where(|line| line.contains(" scroll"))?;
            let result = self
                .call(
                    "scroll",
                    serde_json::json!({"target": list, "direction": "down"}),
                )
                .await?;
            if result_text(&result).contains("its end is reached") {
                break;
            }
            ensure!(self.summary.steps < 40, "the feed never reached its end");
        }
        let refused = self
            .call("tap", serde_json::json!({"target": kept}))
            .await?;
        ensure!(
            refused.is_error == Some(true),
            "the kept handle was not refused"
        );
        self.call("screen_operation_accessibility", serde_json::json!({}))
            .await?;
        let last = self.last_handle_where(|line| line.contains("views"))?;
        self.call("tap", serde_json::json!({"target": last}))
            .await?;
        self.call("press_key", serde_json::json!({"key": "back"}))
            .await?;

        self.call("list_packages", serde_json::json!({"filter": "blocks"}))
            .await?;
        let game = self
            .call(
                "launch_app",
                serde_json::json!({"package": "tv.tapscope.blocks"}),
            )
            .await?;
        ensure!(
            self.summary.fallbacks > 0,
            "the game showed no fallback screenshot"
        );
        // "Play", drawn on the title screen around display (540, 1750), in the
        // screenshot's pixels: the game starts, its score drawn in pixels alone.
        let (x, y) = image_point(&result_text(&game), 540, 1750)?;
        let play = self
            .call(
                "screen_operation_shell",
                serde_json::json!({"command": format!("input tap {x} {y}")}),
            )
            .await?;
        ensure!(
            result_text(&play).contains("fallback: screenshot"),
            "the game did not start: {}",
            result_text(&play)
        );
        self.call("press_key", serde_json::json!({"key": "home"}))
            .await?;

        // The other classic: pixels read off a screenshot, used after the list moved.
        self.call(
            "launch_app",
            serde_json::json!({"package": "tv.tapscope.demo"}),
        )
        .await?;
        let shot = self.call("screenshot", serde_json::json!({})).await?;
        let list = self.handle_where(|line| line.contains(" scroll"))?;
        self.call(
            "scroll",
            serde_json::json!({"target": list, "direction": "up"}),
        )
        .await?;
        let (x, y) = image_point(&result_text(&shot), 810, 1100)?;
        self.call(
            "screen_operation_shell",
            serde_json::json!({"command": format!("input tap {x} {y}")}),
        )
        .await?;
        self.call("press_key", serde_json::json!({"key": "back"}))
            .await?;
        Ok(())
    }

    async fn call(
        &mut self,
        tool: &'static str,
        args: serde_json::Value,
    ) -> anyhow::Result<CallToolResult> {
        let mut params = CallToolRequestParams::new(tool);
        if let serde_json::Value::Object(map) = args {
            params = params.with_arguments(map);
        }
        let result = self
            .client
            .call_tool(params)
            .await
            .with_context(|| format!("the demo's {tool} call failed"))?;
        self.summary.steps += 1;
        if result.is_error == Some(true) {
            self.summary.refusals += 1;
        }
        let text = result_text(&result);
        if text.contains("fallback: screenshot") {
            self.summary.fallbacks += 1;
        }
        if let Some(at) = text.find("version: ") {
            self.tree = text[at..].to_owned();
        }
        Ok(result)
    }

    async fn tap(&mut self, label: &str) -> anyhow::Result<CallToolResult> {
        let target = self.handle_where(|line| line.contains(&format!("\"{label}\"")))?;
        self.call("tap", serde_json::json!({"target": target}))
            .await
    }

    fn handle_where(&self, wanted: impl Fn(&str) -> bool) -> anyhow::Result<String> {
        self.handles(wanted)?.into_iter().next().with_context(|| {
            format!(
                "the demo expected a node that is not on the screen:\n{}",
                self.tree
            )
        })
    }

    fn last_handle_where(&self, wanted: impl Fn(&str) -> bool) -> anyhow::Result<String> {
        self.handles(wanted)?.pop().with_context(|| {
            format!(
                "the demo expected a node that is not on the screen:\n{}",
                self.tree
            )
        })
    }

    /// Handles of the lines `wanted` accepts, in tree order.
    fn handles(&self, wanted: impl Fn(&str) -> bool) -> anyhow::Result<Vec<String>> {
        let version = self
            .tree
            .lines()
            .find_map(|l| l.strip_prefix("version: "))
            .context("the demo has no tree yet")?
            .trim_matches('"');
        Ok(self
            .tree
            .lines()
            .filter(|line| wanted(line))
            .filter_map(tapscope_core::render::line_handle)
            .map(|i| format!("{version}_{i}"))
            .collect())
    }
}

/// A display point in the pixels of the screenshot `text` describes
/// (`screenshot WxH of a WxH display`), as an agent reading the sizes would compute it.
fn image_point(text: &str, x: i32, y: i32) -> anyhow::Result<(i32, i32)> {
    let sizes = text
        .split("screenshot ")
        .nth(1)
        .context("the result carries no screenshot sizes")?;
    let numbers: Vec<f64> = sizes
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(4)
        .filter_map(|s| s.parse().ok())
        .collect();
    let [iw, ih, dw, dh] = numbers[..] else {
        bail!("unreadable screenshot sizes in {sizes:?}");
    };
    Ok((
        (f64::from(x) * iw / dw).round() as i32,
        (f64::from(y) * ih / dh).round() as i32,
    ))
}
