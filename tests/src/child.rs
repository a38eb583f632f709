//! A child process of the tests (`tapscope serve`, `tapscope sim`), killed when dropped,
//! whose stderr lines are read as they come: the address it says it listens at, and
//! what it logs afterwards.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running child with its stderr read line by line.
#[derive(Debug)]
pub struct Running {
    pub child: Child,
    lines: Receiver<String>,
    /// Every line read so far.
    pub said: Vec<String>,
}

impl Running {
    /// Spawns `command` with stderr piped (stdin and stdout closed).
    pub fn spawn(mut command: Command) -> Running {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("the child starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Running {
            child,
            lines,
            said: Vec::new(),
        }
    }

    /// The first line from now on that `wanted` accepts, within `timeout`; what was
    /// said instead when it exits or stays silent.
    pub fn wait_for<T>(&mut self, timeout: Duration, wanted: impl Fn(&str) -> Option<T>) -> T {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = wanted(&line);
                    self.said.push(line);
                    if let Some(found) = found {
                        return found;
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => panic!(
                    "the child never said what was waited for; it said: {:#?}",
                    self.said
                ),
            }
        }
    }

    /// The address in a line like "… at ADDR …" / "… at http://ADDR/mcp …".
    pub fn address_after(&mut self, marker: &str, timeout: Duration) -> std::net::SocketAddr {
        self.wait_for(timeout, |line| {
            let rest = line.split(marker).nth(1)?;
            let rest = rest.strip_prefix("http://").unwrap_or(rest);
            let addr = rest
                .split(|c: char| c == '/' || c == ';' || c.is_whitespace())
                .next()?;
            addr.parse().ok()
        })
    }

    /// Whether the child is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("the child's status").is_none()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
