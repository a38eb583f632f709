//! `tapscope observe`: read a device's screen as an agent would, optionally after a few
//! scripted steps, each acting, settling and observing in one call.

use anyhow::{Context, bail};
use clap::Args;
use tapscope_core::device::Key;
use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::sim::Sim;
use tapscope_core::model::Flags;
use tapscope_core::session::{Action, Direction, Observation, Session, SessionConfig};
use tapscope_core::stability::RealClock;

use super::Outcome;

#[derive(Debug, Args)]
pub struct ObserveArgs {
    /// `sim` (the built-in simulated phone) or an ADB serial.
    #[arg(long, default_value = "sim")]
    device: String,
    /// Seed of the simulated phone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    if args.device == "sim" {
        let clock = RealClock::new();
        drive(
            &Session::new(Sim::new(clock, args.seed), clock, SessionConfig::default()),
            &steps,
        )
    } else {
        let device = AdbDevice::connect(Some(&args.device))?;
        let clock = device.clock();
        drive(
            &Session::new(device, clock, SessionConfig::default()),
            &steps,
        )
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
    let mut observation = session.observe()?;
    for step in steps {
        let action = action_for(step, &observation)?;
        let outcome = session.act(&action)?;
        println!(
            "# acted on {}: {}",
            outcome.acted_on,
            serde_json::to_string(&outcome.settle)?
        );
        observation = outcome.observation;
    }
    print!("{}", observation.text);
    if let Some(fallback) = &observation.fallback {
        println!(
            "# screenshot {}x{}: {}",
            fallback.image.width, fallback.image.height, fallback.rule
        );
    }
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
