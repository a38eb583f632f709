//! `tapscope observe`: read a device's screen as an agent would, optionally after a few
//! scripted steps, each acting, settling and observing in one call.

use anyhow::{Context, bail};
use clap::Args;
use tapscope_core::device::Key;
use tapscope_core::model::Flags;
use tapscope_core::session::{Action, Direction, Observation, Session};

use super::Outcome;
use super::output::Stdout;
use crate::mcp::{ServedClock, ServedDevice};
use crate::phone::{DeviceArgs, WithSession};

#[derive(Debug, Args)]
pub struct ObserveArgs {
    #[command(flatten)]
    device: DeviceArgs,
    /// Steps, in order: `tap:TEXT` (the first actionable node whose text contains TEXT),
    /// `key:NAME` (back, home, enter, …), `scroll:down|up|left|right` (the first list),
    /// `text:WORDS` (typed into the focused field).
    #[arg(long = "step", value_name = "STEP")]
    steps: Vec<String>,
}

pub fn run(args: &ObserveArgs) -> anyhow::Result<Outcome> {
    let steps = args
        .steps
        .iter()
        .map(|s| Step::parse(s))
        .collect::<anyhow::Result<Vec<_>>>()?;
    args.device.open(Drive(&steps))?
}

/// Runs the steps on whichever device was opened.
struct Drive<'a>(&'a [Step]);

impl WithSession for Drive<'_> {
    type Output = anyhow::Result<Outcome>;

    fn run<D: ServedDevice, C: ServedClock>(self, session: Session<D, C>) -> Self::Output {
        drive(&session, self.0)
    }
}

#[derive(Debug)]
enum Step {
    Tap(String),
    Key(Key),
    Scroll(Direction),
    Text(String),
}

impl Step {
    fn parse(step: &str) -> anyhow::Result<Self> {
        let (kind, value) = step.split_once(':').with_context(|| {
            format!("step {step:?} has no `:`; write tap:TEXT, key:NAME, scroll:down or text:WORDS")
        })?;
        Ok(match kind {
            "tap" => Step::Tap(value.to_owned()),
            "key" => Step::Key(value.parse().map_err(anyhow::Error::msg)?),
            "text" => Step::Text(value.to_owned()),
            "scroll" => Step::Scroll(match value {
                "down" => Direction::Down,
                "up" => Direction::Up,
                "left" => Direction::Left,
                "right" => Direction::Right,
                other => bail!("scroll direction {other:?}: use down, up, left or right"),
            }),
            other => bail!("unknown step kind {other:?}: use tap, key, scroll or text"),
        })
    }
}

fn drive<D, C>(session: &Session<D, C>, steps: &[Step]) -> anyhow::Result<Outcome>
where
    D: tapscope_core::device::Device,
    C: tapscope_core::stability::Clock,
{
    let mut stdout = Stdout::lock();
    let mut observation = session.observe()?;
    for step in steps {
        let action = action_for(step, &observation)?;
        let outcome = session.act(&action)?;
        writeln!(
            stdout,
            "# acted on {}: {}",
            outcome.acted_on,
            serde_json::to_string(&outcome.settle)?
        )?;
        // What the log said of the step (`--step-logs`): its crashes, in a line each.
        for crash in outcome.log.iter().flat_map(|log| &log.crashes) {
            writeln!(stdout, "# then the log said: {crash}")?;
        }
        observation = outcome.observation;
    }
    write!(stdout, "{}", observation.text)?;
    if let Some(fallback) = &observation.fallback {
        writeln!(
            stdout,
            "# screenshot {}x{}: {}",
            fallback.image.width, fallback.image.height, fallback.rule
        )?;
    }
    if let Some(note) = &observation.pixel_note {
        writeln!(stdout, "# {}", note.sentence())?;
    }
    if let Some(look) = &observation.look {
        writeln!(stdout, "# {}", look.sentence())?;
    }
    stdout.flush()?;
    Ok(Outcome::Ok)
}

fn action_for(step: &Step, observation: &Observation) -> anyhow::Result<Action> {
    let missing = |what: &str| anyhow::anyhow!("no {what} on the screen:\n{}", observation.text);
    Ok(match step {
        Step::Tap(text) => Action::Tap(
            observation
                .handle_where(|n| n.label.contains(text.as_str()))
                .ok_or_else(|| missing(&format!("actionable {text:?}")))?,
        ),
        Step::Key(key) => Action::Key(*key),
        Step::Text(text) => Action::InputText(text.clone()),
        Step::Scroll(direction) => Action::Scroll {
            target: observation
                .handle_where(|n| observation.tree.nodes[n.raw].has(Flags::SCROLLABLE))
                .ok_or_else(|| missing("scrollable list"))?,
            direction: *direction,
        },
    })
}
