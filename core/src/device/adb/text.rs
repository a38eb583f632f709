//! The ADB device's text, without I/O: the server address, choosing a device, `input text`
//! commands escaped for the device shell, and cleaning what `uiautomator dump` prints.

use std::net::{Ipv4Addr, SocketAddrV4};

use crate::device::DeviceError;
use crate::device::adb_output::{DeviceEntry, DeviceState};

/// Where adb's own server listens unless told otherwise.
pub const DEFAULT_SERVER: SocketAddrV4 = SocketAddrV4::new(Ipv4Addr::LOCALHOST, 5037);

/// Longest text sent in one `input text` command; the device's command line is short.
const CHUNK: usize = 400;
/// Longest text typed at all.
pub const MAX_TEXT: usize = 10_000;

/// The server address as adb itself reads it: `ADB_SERVER_SOCKET` (`tcp:PORT` or
/// `tcp:HOST:PORT`, an IPv4 host or `localhost`), then `ANDROID_ADB_SERVER_PORT`.
pub fn server_address_from(
    server_socket: Option<&str>,
    server_port: Option<&str>,
) -> Result<SocketAddrV4, DeviceError> {
    let bad = |what: &str, value: &str| {
        DeviceError::InvalidInput(format!(
            "{what}={value:?} is not a server address: use tcp:PORT or tcp:HOST:PORT"
        ))
    };
    if let Some(socket) = server_socket.filter(|s| !s.trim().is_empty()) {
        let rest = socket
            .trim()
            .strip_prefix("tcp:")
            .ok_or_else(|| bad("ADB_SERVER_SOCKET", socket))?;
        let (host, port) = rest.rsplit_once(':').unwrap_or(("localhost", rest));
        let ip = if host == "localhost" {
            Ipv4Addr::LOCALHOST
        } else {
            host.parse().map_err(|_| bad("ADB_SERVER_SOCKET", socket))?
        };
        let port = port.parse().map_err(|_| bad("ADB_SERVER_SOCKET", socket))?;
        return Ok(SocketAddrV4::new(ip, port));
    }
    if let Some(port) = server_port.filter(|s| !s.trim().is_empty()) {
        let port = port
            .trim()
            .parse()
            .map_err(|_| bad("ANDROID_ADB_SERVER_PORT", port))?;
        return Ok(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port));
    }
    Ok(DEFAULT_SERVER)
}

/// The serial to drive among the devices `adb devices -l` lists.
pub fn choose_device(devices: &[DeviceEntry], wanted: Option<&str>) -> Result<String, DeviceError> {
    let entry =
        match wanted {
            Some(serial) => devices.iter().find(|d| d.serial == serial).ok_or_else(|| {
                DeviceError::NoDevice {
                    wanted: format!("with serial {serial}"),
                }
            })?,
            None => match devices {
                [] => {
                    return Err(DeviceError::NoDevice {
                        wanted: "is connected".to_owned(),
                    });
                }
                [only] => only,
                several => {
                    let serials: Vec<&str> = several.iter().map(|d| d.serial.as_str()).collect();
                    return Err(DeviceError::InvalidInput(format!(
                        "{} devices are connected ({}): choose one by its serial",
                        serials.len(),
                        serials.join(", ")
                    )));
                }
            },
        };
    match &entry.state {
        DeviceState::Device => Ok(entry.serial.clone()),
        state => Err(DeviceError::Unusable {
            serial: entry.serial.clone(),
            state: state_word(state),
            advice: state.advice().unwrap_or_default().to_owned(),
        }),
    }
}

/// The state as `adb devices` prints it.
pub fn state_word(state: &DeviceState) -> String {
    match state {
        DeviceState::Device => "device".to_owned(),
        DeviceState::Unauthorized => "unauthorized".to_owned(),
        DeviceState::Offline => "offline".to_owned(),
        DeviceState::NoPermissions => "no permissions".to_owned(),
        DeviceState::Other(word) => word.clone(),
    }
}

/// The shell commands that type `text`: spaces as `%s`, each argument single-quoted.
/// Android turns every `%s` into a space, so a literal `%s` is split across two commands.
pub fn input_text_commands(text: &str) -> Result<Vec<String>, DeviceError> {
    if text.is_empty() {
        return Err(DeviceError::InvalidInput(
            "there is no text to type".to_owned(),
        ));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
        return Err(DeviceError::InvalidInput(format!(
            "`input text` on Android only types ASCII; {c:?} cannot be typed this way \
             (type it with the on-screen keyboard, or use the sim)"
        )));
    }
    if let Some(c) = text.chars().find(char::is_ascii_control) {
        return Err(DeviceError::InvalidInput(format!(
            "`input text` cannot type the control character {c:?}: press the key instead \
             (enter, tab, delete)"
        )));
    }
    if text.len() > MAX_TEXT {
        return Err(DeviceError::InvalidInput(format!(
            "the text is {} characters long; at most {MAX_TEXT} are typed at once",
            text.len()
        )));
    }
    // Chunks end after a `%` followed by `s`, so no `%s` is ever sent whole.
    let bytes = text.as_bytes();
    let mut chunks = Vec::new();
    let mut start = 0;
    for i in 0..bytes.len() {
        let split_percent = bytes[i] == b'%' && bytes.get(i + 1) == Some(&b's');
        if split_percent || i + 1 - start >= CHUNK {
            chunks.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        chunks.push(&text[start..]);
    }
    Ok(chunks
        .into_iter()
        .map(|chunk| format!("input text {}", shell_quote(&chunk.replace(' ', "%s"))))
        .collect())
}

/// One single-quoted shell word: nothing inside is special but `'` itself.
pub fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// A package name as Android allows it: letters, digits, `_` and `.`; safe unquoted.
pub fn is_package_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// What `uiautomator dump` printed, once the XML is cut out of it.
#[derive(Debug, PartialEq, Eq)]
pub enum DumpOutput {
    Xml(String),
    /// "could not get idle state": the screen kept changing; worth another try.
    NotIdle,
    /// Another UiAutomation client (the events stream) holds the service.
    Busy,
    /// No XML; the output as printed.
    Failed(String),
}

/// Cuts the dump out of its surroundings: the "UI hierchary dumped to: …" line (after
/// the XML on stdout, before it after `cat`), warnings, and `\r`.
pub fn clean_dump(output: &str) -> DumpOutput {
    let start = output.find("<?xml").or_else(|| output.find("<hierarchy"));
    let end_tag = "</hierarchy>";
    if let (Some(start), Some(end)) = (start, output.rfind(end_tag))
        && start < end
    {
        return DumpOutput::Xml(output[start..end + end_tag.len()].replace('\r', ""));
    }
    // An empty hierarchy closes itself: `<hierarchy rotation="0" />`.
    if let (Some(start), Some(open)) = (start, output.find("<hierarchy"))
        && let Some(close) = output[open..].find('>').map(|i| open + i)
        && output[..close].ends_with('/')
    {
        return DumpOutput::Xml(output[start..=close].replace('\r', ""));
    }
    if output.contains("could not get idle state") {
        DumpOutput::NotIdle
    } else if output.contains("already registered") {
        DumpOutput::Busy
    } else {
        DumpOutput::Failed(output.trim().to_owned())
    }
}

/// Quarter turns from `dumpsys input` (`SurfaceOrientation: 1`, or
/// `InputDeviceOrientation: 1` on newer Androids); 0 when not found.
pub fn parse_orientation(output: &str) -> u8 {
    output
        .lines()
        .find_map(|line| {
            let line = line.trim();
            let value = line
                .strip_prefix("SurfaceOrientation:")
                .or_else(|| line.strip_prefix("InputDeviceOrientation:"))?;
            value.trim().parse::<u8>().ok()
        })
        .map_or(0, |r| r % 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(serial: &str, state: DeviceState) -> DeviceEntry {
        DeviceEntry {
            serial: serial.into(),
            state,
            model: None,
            transport_id: None,
        }
    }

    #[test]
    fn server_address_from_adb_environment() {
        assert_eq!(server_address_from(None, None).unwrap(), DEFAULT_SERVER);
        assert_eq!(
            server_address_from(Some("tcp:127.0.0.1:1"), None).unwrap(),
            SocketAddrV4::new(Ipv4Addr::LOCALHOST, 1)
        );
        assert_eq!(
            server_address_from(Some("tcp:localhost:5038"), Some("9")).unwrap(),
            SocketAddrV4::new(Ipv4Addr::LOCALHOST, 5038)
        );
        assert_eq!(
            server_address_from(Some("tcp:5039"), None).unwrap().port(),
            5039
        );
        assert_eq!(
            server_address_from(None, Some("5040")).unwrap().port(),
            5040
        );
        let err = server_address_from(Some("unix:/tmp/adb"), None).unwrap_err();
        assert!(err.to_string().contains("tcp:HOST:PORT"), "{err}");
        assert!(server_address_from(None, Some("many")).is_err());
    }

    #[test]
    fn choosing_a_device() {
        let one = [entry("emulator-5554", DeviceState::Device)];
        assert_eq!(choose_device(&one, None).unwrap(), "emulator-5554");
        assert_eq!(
            choose_device(&one, Some("emulator-5554")).unwrap(),
            "emulator-5554"
        );
        let err = choose_device(&one, Some("R58")).unwrap_err();
        assert!(matches!(err, DeviceError::NoDevice { .. }));
        assert!(err.to_string().contains("R58"), "{err}");
        assert!(matches!(
            choose_device(&[], None),
            Err(DeviceError::NoDevice { .. })
        ));
        let two = [
            entry("emulator-5554", DeviceState::Device),
            entry("R58", DeviceState::Unauthorized),
        ];
        let err = choose_device(&two, None).unwrap_err().to_string();
        assert!(err.contains("emulator-5554, R58"), "{err}");
        let err = choose_device(&two, Some("R58")).unwrap_err().to_string();
        assert_eq!(
            err,
            "device R58 is unauthorized: unlock the phone and allow USB debugging from this computer"
        );
    }

    #[test]
    fn text_is_quoted_for_the_device_shell() {
        assert_eq!(
            input_text_commands("hello").unwrap(),
            ["input text 'hello'"]
        );
        assert_eq!(
            input_text_commands("cats & dogs").unwrap(),
            ["input text 'cats%s&%sdogs'"]
        );
        assert_eq!(
            input_text_commands("it's $HOME; `ls` | (x) <y> \"z\" \\").unwrap(),
            [r#"input text 'it'\''s%s$HOME;%s`ls`%s|%s(x)%s<y>%s"z"%s\'"#]
        );
        // A literal `%s` must not become a space.
        assert_eq!(
            input_text_commands("100%sure").unwrap(),
            ["input text '100%'", "input text 'sure'"]
        );
        assert_eq!(input_text_commands("50%").unwrap(), ["input text '50%'"]);
        let long = "a".repeat(CHUNK * 2 + 1);
        assert_eq!(input_text_commands(&long).unwrap().len(), 3);
    }

    #[test]
    fn text_that_cannot_be_typed_is_refused() {
        let err = input_text_commands("café").unwrap_err().to_string();
        assert!(
            err.starts_with("`input text` on Android only types ASCII; 'é'"),
            "{err}"
        );
        assert!(input_text_commands("").is_err());
        let err = input_text_commands("a\nb").unwrap_err().to_string();
        assert!(err.contains("press the key"), "{err}");
        assert!(input_text_commands(&"x".repeat(MAX_TEXT + 1)).is_err());
    }

    #[test]
    fn package_names() {
        assert!(is_package_name("com.google.android.youtube"));
        assert!(is_package_name("tv.tapscope_demo2"));
        assert!(!is_package_name("com.x; reboot"));
        assert!(!is_package_name(""));
        assert!(!is_package_name(".hidden"));
    }

    #[test]
    fn dumps_are_cut_out_of_their_output() {
        let xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node text=\"a\" /></hierarchy>";
        let stdout = format!("{xml}UI hierchary dumped to: /dev/tty\n");
        assert_eq!(clean_dump(&stdout), DumpOutput::Xml(xml.into()));
        let with_newline = format!("{xml}\r\nUI hierchary dumped to: /dev/tty\r\n");
        assert_eq!(clean_dump(&with_newline), DumpOutput::Xml(xml.into()));
        let from_file = format!("UI hierchary dumped to: /sdcard/window_dump.xml\n{xml}");
        assert_eq!(clean_dump(&from_file), DumpOutput::Xml(xml.into()));
        let empty =
            "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"1\" />";
        assert_eq!(
            clean_dump(&format!("{empty}UI hierchary dumped to: /dev/tty\n")),
            DumpOutput::Xml(empty.into())
        );
        assert_eq!(
            clean_dump(&format!("{empty}\n")),
            DumpOutput::Xml(empty.into())
        );
        assert_eq!(
            clean_dump("ERROR: could not get idle state.\n"),
            DumpOutput::NotIdle
        );
        assert_eq!(
            clean_dump(
                "java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@1 already registered!"
            ),
            DumpOutput::Busy
        );
        assert_eq!(
            clean_dump("ERROR: null root node returned by UiTestAutomationBridge.\n"),
            DumpOutput::Failed("ERROR: null root node returned by UiTestAutomationBridge.".into())
        );
    }

    #[test]
    fn orientation_from_dumpsys_input() {
        assert_eq!(parse_orientation("      SurfaceOrientation: 1\n"), 1);
        // Android 14 and later name it after the input device.
        assert_eq!(parse_orientation("      InputDeviceOrientation: 2\n"), 2);
        assert_eq!(
            parse_orientation("  SurfaceOrientation: 3\r\n  SurfaceOrientation: 0"),
            3
        );
        assert_eq!(parse_orientation(""), 0);
    }
}
