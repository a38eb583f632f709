//! Drives the built-in simulated phone through a [`Session`]: observes the home screen,
//! taps an app by its handle, then tries a handle from the screen that is gone and shows
//! it refused without touching the device.
//!
//! ```sh
//! cargo run -p tapscope-core --example session
//! ```

use tapscope_core::device::sim::Sim;
use tapscope_core::session::{Action, Session, SessionConfig, SessionError};
use tapscope_core::stability::VirtualClock;

fn main() -> Result<(), SessionError> {
    // A virtual clock: the settle waits take no real time; the same seed, the same phone.
    let clock = VirtualClock::default();
    let session = Session::new(Sim::new(clock.clone(), 7), clock, SessionConfig::default());

    let home = session.observe()?;
    println!("{}", home.text);
    let app = home
        .handle_where(|node| node.label == "TapTube")
        .expect("the launcher shows TapTube");
    let settings = home
        .handle_where(|node| node.label == "Settings")
        .expect("the launcher shows Settings");

    let outcome = session.act(&Action::Tap(app.clone()))?;
    println!(
        "tapped {} ({app}): settled after {} ms, now version {}",
        outcome.acted_on,
        outcome.settle.total.as_millis(),
        outcome.observation.version
    );

    // `settings` names the launcher, which is no longer on screen.
    match session.act(&Action::Tap(settings.clone())) {
        Err(refused) if refused.is_refusal() => println!("{settings} refused: {refused}"),
        Err(error) => return Err(error),
        Ok(outcome) => panic!("a stale handle acted on {}", outcome.acted_on),
    }
    Ok(())
}
