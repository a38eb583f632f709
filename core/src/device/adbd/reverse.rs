//! `reverse:` (`adb reverse`) and the answers adbd gives on a production build to
//! `root:` and `unroot:`. A reverse is kept for the connection that asked, listed and
//! removed as adbd does (`handle_forward_request` in AOSP's `adb.cpp`); this device's
//! apps open no connections, so nothing ever comes back through one.

use parking_lot::Mutex;

/// What a `reverse:` service asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Request {
    /// `forward[:norebind]:DEVICE;HOST`.
    Forward {
        rebind: bool,
        device: String,
        host: String,
    },
    /// `killforward:DEVICE`.
    Remove(String),
    /// `killforward-all`.
    RemoveAll,
    /// `list-forward`.
    List,
}

/// Reads what follows `reverse:`; `None` for a request adbd does not know.
pub(super) fn parse(request: &str) -> Option<Request> {
    match request {
        "list-forward" => return Some(Request::List),
        "killforward-all" => return Some(Request::RemoveAll),
        _ => {}
    }
    if let Some(device) = request.strip_prefix("killforward:") {
        return Some(Request::Remove(device.to_owned()));
    }
    let spec = request.strip_prefix("forward:")?;
    let (rebind, spec) = match spec.strip_prefix("norebind:") {
        Some(spec) => (false, spec),
        None => (true, spec),
    };
    let (device, host) = spec.split_once(';')?;
    Some(Request::Forward {
        rebind,
        device: device.to_owned(),
        host: host.to_owned(),
    })
}

/// The reverses one connection set up: device side, host side, in the order made.
#[derive(Debug, Default)]
pub(super) struct Reverses(Mutex<Vec<(String, String)>>);

/// How a transport over TCP is named in a listing (adbd names it `host-FD`).
const TRANSPORT: &str = "host-1";

impl Reverses {
    /// The bytes adbd answers: `OKAY`; for `list-forward` the length-prefixed listing
    /// alone (as captured from a phone: `003cusb localabstract:gnirehtet tcp:31416\n…`);
    /// `FAIL` and a length-prefixed reason when refused.
    pub(super) fn answer(&self, request: &Request) -> Vec<u8> {
        let mut reverses = self.0.lock();
        match request {
            Request::List => {
                let listing: String = reverses
                    .iter()
                    .map(|(device, host)| format!("{TRANSPORT} {device} {host}\n"))
                    .collect();
                length_prefixed(&listing)
            }
            Request::RemoveAll => {
                reverses.clear();
                b"OKAY".to_vec()
            }
            Request::Remove(device) => match reverses.iter().position(|(d, _)| d == device) {
                Some(at) => {
                    reverses.remove(at);
                    b"OKAY".to_vec()
                }
                None => fail(&format!("listener '{device}' not found")),
            },
            Request::Forward {
                rebind,
                device,
                host,
            } => {
                if let Err(why) = socket_spec(device).and(socket_spec(host)) {
                    return fail(&why);
                }
                if device.ends_with(":0") {
                    return fail("cannot bind listener: the sim picks no port for tcp:0; name one");
                }
                match reverses.iter_mut().find(|(d, _)| d == device) {
                    Some(_) if !rebind => fail("cannot rebind existing socket"),
                    Some(existing) => {
                        existing.1 = host.clone();
                        b"OKAY".to_vec()
                    }
                    None => {
                        reverses.push((device.clone(), host.clone()));
                        b"OKAY".to_vec()
                    }
                }
            }
        }
    }
}

/// Checks a socket spec as `parse_tcp_socket_spec` and friends do.
fn socket_spec(spec: &str) -> Result<(), String> {
    let (kind, rest) = spec
        .split_once(':')
        .ok_or_else(|| format!("cannot bind listener: unknown socket specification '{spec}'"))?;
    let known = match kind {
        "tcp" => rest.parse::<u16>().is_ok(),
        "localabstract" | "localreserved" | "localfilesystem" => !rest.is_empty(),
        _ => false,
    };
    if known {
        Ok(())
    } else {
        Err(format!(
            "cannot bind listener: unknown socket specification '{spec}'"
        ))
    }
}

fn length_prefixed(text: &str) -> Vec<u8> {
    let mut bytes = format!("{:04x}", text.len()).into_bytes();
    bytes.extend_from_slice(text.as_bytes());
    bytes
}

fn fail(reason: &str) -> Vec<u8> {
    [&b"FAIL"[..], &length_prefixed(reason)].concat()
}

/// What adbd on a production build answers `root:` and `unroot:` with, before it closes.
pub(super) const CANNOT_ROOT: &str = "adbd cannot run as root in production builds\n";
pub(super) const NOT_ROOT: &str = "adbd not running as root\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(reverses: &Reverses, request: &str) -> String {
        let request = parse(request).expect("a request adbd knows");
        String::from_utf8(reverses.answer(&request)).unwrap()
    }

    #[test]
    fn requests_read_as_the_adb_cli_sends_them() {
        // `adb reverse tcp:8081 tcp:8081`, `--no-rebind`, `--remove`, `--remove-all`, `--list`.
        assert_eq!(
            parse("forward:tcp:8081;tcp:8081"),
            Some(Request::Forward {
                rebind: true,
                device: "tcp:8081".into(),
                host: "tcp:8081".into()
            })
        );
        assert_eq!(
            parse("forward:norebind:localabstract:x;tcp:1"),
            Some(Request::Forward {
                rebind: false,
                device: "localabstract:x".into(),
                host: "tcp:1".into()
            })
        );
        assert_eq!(
            parse("killforward:tcp:8081"),
            Some(Request::Remove("tcp:8081".into()))
        );
        assert_eq!(parse("killforward-all"), Some(Request::RemoveAll));
        assert_eq!(parse("list-forward"), Some(Request::List));
        assert_eq!(parse("forward:tcp:1"), None);
        assert_eq!(parse("frobnicate"), None);
    }

    #[test]
    fn reverses_are_made_listed_rebound_and_removed() {
        let reverses = Reverses::default();
        assert_eq!(ask(&reverses, "list-forward"), "0000");
        assert_eq!(ask(&reverses, "forward:tcp:8081;tcp:8081"), "OKAY");
        assert_eq!(ask(&reverses, "forward:tcp:9000;tcp:9001"), "OKAY");
        assert_eq!(
            ask(&reverses, "forward:norebind:tcp:8081;tcp:1"),
            "FAIL001dcannot rebind existing socket"
        );
        assert_eq!(ask(&reverses, "forward:tcp:8081;tcp:8082"), "OKAY");
        assert_eq!(
            ask(&reverses, "list-forward"),
            "0032host-1 tcp:8081 tcp:8082\nhost-1 tcp:9000 tcp:9001\n"
        );
        assert_eq!(ask(&reverses, "killforward:tcp:8081"), "OKAY");
        assert_eq!(
            ask(&reverses, "killforward:tcp:8081"),
            "FAIL001dlistener 'tcp:8081' not found"
        );
        assert_eq!(ask(&reverses, "killforward-all"), "OKAY");
        assert_eq!(ask(&reverses, "list-forward"), "0000");
    }

    #[test]
    fn bad_socket_specs_are_refused_with_the_reason() {
        let reverses = Reverses::default();
        let answer = ask(&reverses, "forward:udp:1;tcp:2");
        assert!(answer.starts_with("FAIL"), "{answer}");
        assert!(
            answer.ends_with("unknown socket specification 'udp:1'"),
            "{answer}"
        );
        assert!(ask(&reverses, "forward:tcp:0;tcp:2").contains("name one"));
        assert_eq!(ask(&reverses, "list-forward"), "0000");
    }
}
