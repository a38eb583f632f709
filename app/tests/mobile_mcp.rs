//! mobile-mcp (npm `@mobilenext/mobile-mcp` 1.0.4), an MCP server that drives phones over
//! adb, end to end against `tapscope sim --adb` through Debian's real adb server, with each
//! of its robots: the legacy one, which runs `adb` itself (`MOBILEMCP_LEGACY_ROBOT=1`), and
//! the default one, which runs the `mobilecli` Go binary, which runs `adb`. An MCP client
//! on mobile-mcp's own SDK (`mobile_mcp/client.mjs`) asks for the devices, the screen's
//! size and orientation and its elements, clicks TapTube's icon where they say it is, and
//! lists and launches apps; the sim's own `uiautomator dump` and `dumpsys activity` say
//! whether that is what happened. Every check runs; a failing test names each failed
//! check with what mobile-mcp answered and every command it made the sim run (the sim's
//! `--verbose` log). The daemon mobilecli starts is stopped at the end. `.ci/run` installs
//! mobile-mcp into `target/npm` (`$TAPSCOPE_MOBILE_MCP` names another prefix); without it
//! or `node` the tests say so and do not run. Telemetry is off
//! (`MOBILEMCP_DISABLE_TELEMETRY`) and mobilecli has no token, so nothing but loopback is
//! reached.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tapscope_tests::adb::{PrivateAdb, text};
use tapscope_tests::child::Running;
use tempfile::TempDir;

const PATIENCE: Duration = Duration::from_secs(60);
/// Longer than `client.mjs` gives one call (90 s), which then answers with an error.
const CALL_PATIENCE: Duration = Duration::from_secs(120);
/// How long an activity is given to come to the front after a tap or a launch.
const RESUME_PATIENCE: Duration = Duration::from_secs(10);

/// The sim's apps with a launcher icon: TapTube, Settings, Blocks.
const TAPTUBE: &str = "tv.tapscope.demo";
const SETTINGS: &str = "com.android.settings";
const LAUNCHABLE: [&str; 3] = [TAPTUBE, SETTINGS, "tv.tapscope.blocks"];
const LAUNCHER: &str = "com.google.android.apps.nexuslauncher";
const TAPTUBE_ICON_ID: &str = "com.google.android.apps.nexuslauncher:id/icon_taptube";

/// The tools these tests call, as mobile-mcp 1.0.4's `lib/server.js` names them.
const TOOLS: [&str; 8] = [
    "mobile_list_available_devices",
    "mobile_get_screen_size",
    "mobile_get_orientation",
    "mobile_list_elements_on_screen",
    "mobile_click_on_screen_at_coordinates",
    "mobile_get_foreground_app",
    "mobile_list_apps",
    "mobile_launch_app",
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Robot {
    /// `MOBILEMCP_LEGACY_ROBOT=1`: mobile-mcp runs `adb` itself (lib/android.js).
    Legacy,
    /// The default: mobile-mcp runs `mobilecli` (lib/mobile-device.js), which runs `adb`.
    Mobilecli,
}

#[test]
fn mobile_mcp_with_its_legacy_adb_robot_drives_the_sim() {
    drive_the_sim(Robot::Legacy);
}

#[test]
fn mobile_mcp_with_mobilecli_drives_the_sim() {
    drive_the_sim(Robot::Mobilecli);
}

fn drive_the_sim(robot: Robot) {
    let Some(prefix) = mobile_mcp() else {
        return;
    };
    let mut phone = Phone::start();
    let mut mcp = Mcp::start(&prefix, &phone, robot);
    let mut checks = Checks::new(robot);
    let serial = phone.serial.clone();
    let device = json!({ "device": serial });

    for tool in TOOLS {
        checks.that(
            None,
            mcp.tools.iter().any(|t| t == tool),
            &format!("mobile-mcp has a tool {tool}: {:?}", mcp.tools),
        );
    }

    let listed = ask(
        &mut phone,
        &mut mcp,
        "mobile_list_available_devices",
        json!({}),
    );
    let devices = serde_json::from_str::<Value>(&listed.text).unwrap_or(Value::Null);
    let found = devices["devices"].as_array().is_some_and(|all| {
        all.iter().any(|d| {
            d["id"] == serial.as_str() && d["platform"] == "android" && d["state"] == "online"
        })
    });
    checks.that(
        Some(&listed),
        found,
        &format!("lists {serial} as an online Android device"),
    );

    let size = ask(
        &mut phone,
        &mut mcp,
        "mobile_get_screen_size",
        device.clone(),
    );
    checks.that(
        Some(&size),
        size.ok() && size.text == "Screen size is 1080x2400 pixels",
        "says 1080x2400 pixels",
    );

    let orientation = ask(
        &mut phone,
        &mut mcp,
        "mobile_get_orientation",
        device.clone(),
    );
    checks.that(
        Some(&orientation),
        orientation.ok() && orientation.text == "Current device orientation is portrait",
        "says portrait",
    );

    // Where TapTube's icon is, by the sim's own dump.
    let icon = phone.taptube_icon();
    let before = phone.resumed();
    assert!(
        before.contains(&format!(" {LAUNCHER}/")),
        "the sim does not start on its launcher: {before}"
    );
    let on_launcher = ask(
        &mut phone,
        &mut mcp,
        "mobile_list_elements_on_screen",
        json!({ "device": serial, "format": "json" }),
    );
    let elements = elements_of(&on_launcher);
    let taptube = elements
        .iter()
        .find(|e| e["text"] == "TapTube")
        .and_then(rect_of);
    let centre = taptube.map(|[x, y, w, h]| (x + w / 2, y + h / 2));
    checks.that(
        Some(&on_launcher),
        centre.is_some_and(|(x, y)| icon.contains(x, y)),
        &format!(
            "lists TapTube with its centre inside its icon {icon} (the sim's dump); \
             listed at [x, y, width, height] {taptube:?}"
        ),
    );

    if let Some((x, y)) = centre {
        let click = ask(
            &mut phone,
            &mut mcp,
            "mobile_click_on_screen_at_coordinates",
            json!({ "device": serial, "x": x, "y": y }),
        );
        checks.that(
            Some(&click),
            click.ok() && click.text == format!("Clicked on screen at coordinates: {x}, {y}"),
            "says it clicked there",
        );
        let resumed = phone.wait_resumed(TAPTUBE);
        checks.that(
            Some(&click),
            resumed.is_ok(),
            &format!(
                "brings TapTube's activity to the front; mResumedActivity: {}",
                resumed.unwrap_or_else(|last| last)
            ),
        );
        let in_taptube = ask(
            &mut phone,
            &mut mcp,
            "mobile_list_elements_on_screen",
            json!({ "device": serial, "format": "json" }),
        );
        let after = elements_of(&in_taptube);
        checks.that(
            Some(&in_taptube),
            !after.is_empty() && !after.iter().any(|e| e["identifier"] == TAPTUBE_ICON_ID),
            "lists TapTube's screen, not the launcher's icons",
        );
        if robot == Robot::Mobilecli {
            // The legacy robot has no such tool ("not supported in legacy robot mode").
            let foreground = ask(
                &mut phone,
                &mut mcp,
                "mobile_get_foreground_app",
                device.clone(),
            );
            checks.that(
                Some(&foreground),
                foreground.ok() && foreground.text.ends_with(&format!("({TAPTUBE})")),
                &format!("says {TAPTUBE} is in the foreground"),
            );
        }
    } else {
        checks.not_run("clicking TapTube: mobile-mcp listed no TapTube to click");
    }

    let apps = ask(&mut phone, &mut mcp, "mobile_list_apps", device.clone());
    if robot == Robot::Mobilecli {
        // mobilecli lists apps through its own dex, started under `app_process` in the
        // background; the sim runs no code it did not write, so the list is refused, and
        // says where.
        checks.that(
            Some(&apps),
            !apps.ok() && apps.text.contains("launch device server"),
            "mobilecli's app list is refused where it starts its own device server",
        );
    } else {
        for package in LAUNCHABLE {
            checks.that(
                Some(&apps),
                apps.ok() && apps.text.contains(&format!("({package})")),
                &format!("lists {package}"),
            );
        }
    }
    checks.that(
        Some(&apps),
        !apps.text.contains("(com.android.shell)"),
        "does not list com.android.shell, which has no launcher activity",
    );

    let launch = ask(
        &mut phone,
        &mut mcp,
        "mobile_launch_app",
        json!({ "device": serial, "packageName": SETTINGS }),
    );
    checks.that(
        Some(&launch),
        launch.ok() && launch.text == format!("Launched app {SETTINGS}"),
        "says it launched Settings",
    );
    let resumed = phone.wait_resumed(SETTINGS);
    checks.that(
        Some(&launch),
        resumed.is_ok(),
        &format!(
            "brings Settings' activity to the front; mResumedActivity: {}",
            resumed.unwrap_or_else(|last| last)
        ),
    );

    let daemon = mcp.close();
    checks.that(
        None,
        daemon.contains("\"running\": false"),
        &format!("mobilecli's daemon is stopped at the end: {daemon}"),
    );
    checks.finish();
}

/// Where mobile-mcp is installed, when it is and `node` runs; otherwise a note.
fn mobile_mcp() -> Option<PathBuf> {
    let prefix = std::env::var_os("TAPSCOPE_MOBILE_MCP").map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .expect("the workspace")
                .join("target/npm")
        },
        PathBuf::from,
    );
    let index = prefix.join("node_modules/@mobilenext/mobile-mcp/lib/index.js");
    if !index.is_file() {
        eprintln!(
            "note: mobile-mcp is not installed ({} is missing; .ci/run installs it with \
             `npm install --prefix {} @mobilenext/mobile-mcp@1.0.4`): not run",
            index.display(),
            prefix.display()
        );
        return None;
    }
    let version = Command::new("node").arg("--version").output();
    let major = version
        .as_ref()
        .ok()
        .filter(|v| v.status.success())
        .and_then(|v| {
            let said = text(&v.stdout);
            said.trim()
                .strip_prefix('v')?
                .split('.')
                .next()?
                .parse::<u32>()
                .ok()
        });
    match major {
        Some(major) if major >= 20 => Some(prefix),
        Some(_) => {
            eprintln!("note: node is older than mobile-mcp's 20 (apt-get install nodejs): not run");
            None
        }
        None => {
            eprintln!("note: node is not installed (apt-get install nodejs npm): not run");
            None
        }
    }
}

/// The private adb server, the sim logging each command it runs, and an SDK folder whose
/// `platform-tools/adb` is the adb on PATH, the one the private server runs.
struct Phone {
    adb: PrivateAdb,
    sim: Running,
    serial: String,
    sdk: TempDir,
    /// How many marks were made, and where in the sim's log the last one ended.
    marks: usize,
    logged: usize,
}

impl Phone {
    fn start() -> Phone {
        let adb = PrivateAdb::start();
        let mut command = Command::new(env!("CARGO_BIN_EXE_tapscope"));
        command.args(["sim", "--adb", "127.0.0.1:0", "--verbose"]);
        let mut sim = Running::spawn(command);
        let serial = sim
            .address_after(" is an ADB device at ", PATIENCE)
            .to_string();
        adb.connect(&serial);
        let sdk = tempfile::tempdir().expect("a temporary SDK folder");
        std::fs::create_dir(sdk.path().join("platform-tools")).expect("platform-tools");
        std::os::unix::fs::symlink(on_path("adb"), sdk.path().join("platform-tools/adb"))
            .expect("platform-tools/adb");
        let logged = sim.said.len();
        Phone {
            adb,
            sim,
            serial,
            sdk,
            marks: 0,
            logged,
        }
    }

    fn shell(&self, command: &str) -> String {
        let ran = self.adb.on(&self.serial, &["shell", command]);
        assert!(ran.status.success(), "{command}: {}", text(&ran.stderr));
        text(&ran.stdout)
    }

    /// What the sim logged since the last mark: runs a marker command and waits for the sim
    /// to log it, so every command run before it has been read.
    fn mark(&mut self) -> Vec<String> {
        self.marks += 1;
        let marker = format!("tapscope-test-mark-{}", self.marks);
        self.shell(&format!("echo {marker}"));
        let logged = format!("$ echo {marker}");
        self.sim
            .wait_for(PATIENCE, |line| line.ends_with(&logged).then_some(()));
        let lines = self.sim.said[self.logged..]
            .iter()
            .filter(|l| !l.contains("tapscope-test-mark-"))
            .map(|l| l.strip_prefix("tapscope sim: ").unwrap_or(l).to_owned())
            .collect();
        self.logged = self.sim.said.len();
        lines
    }

    /// The `mResumedActivity` line of `dumpsys activity activities`.
    fn resumed(&self) -> String {
        let dump = self.shell("dumpsys activity activities");
        dump.lines()
            .find(|l| l.contains("mResumedActivity"))
            .map_or_else(|| format!("none in\n{dump}"), |l| l.trim().to_owned())
    }

    /// Waits for an activity of `package` to be resumed: its line, or the last one seen.
    fn wait_resumed(&self, package: &str) -> Result<String, String> {
        let wanted = format!(" {package}/");
        let deadline = Instant::now() + RESUME_PATIENCE;
        loop {
            let line = self.resumed();
            if line.contains(&wanted) {
                return Ok(line);
            }
            if Instant::now() >= deadline {
                return Err(line);
            }
            // The sim offers no event for this: `dumpsys` is polled.
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// TapTube's launcher icon in the sim's own `uiautomator dump`.
    fn taptube_icon(&self) -> Bounds {
        let dump = self.shell("uiautomator dump /dev/tty");
        let at = dump
            .find("text=\"TapTube\"")
            .unwrap_or_else(|| panic!("the sim's dump has no TapTube:\n{dump}"));
        let start = dump[..at].rfind('<').unwrap_or(0);
        let end = at + dump[at..].find('>').unwrap_or(dump.len() - at);
        let node = &dump[start..end];
        Bounds::parse(node).unwrap_or_else(|| panic!("no bounds in {node}"))
    }
}

/// `[left,top][right,bottom]`, as a dump says them.
#[derive(Debug, Clone, Copy)]
struct Bounds([i64; 4]);

impl Bounds {
    fn parse(node: &str) -> Option<Bounds> {
        let rest = &node[node.find("bounds=\"[")? + "bounds=\"[".len()..];
        let value = &rest[..rest.find('"')?];
        let numbers: Vec<i64> = value
            .split(['[', ']', ','])
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?;
        Some(Bounds(numbers.try_into().ok()?))
    }

    fn contains(self, x: i64, y: i64) -> bool {
        let [left, top, right, bottom] = self.0;
        (left..right).contains(&x) && (top..bottom).contains(&y)
    }
}

impl std::fmt::Display for Bounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [left, top, right, bottom] = self.0;
        write!(f, "[{left},{top}][{right},{bottom}]")
    }
}

/// The elements of a `mobile_list_elements_on_screen` answer in its json format.
fn elements_of(listed: &Called) -> Vec<Value> {
    listed
        .text
        .strip_prefix("Found these elements on screen: ")
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default()
}

/// An element's `[x, y, width, height]`.
fn rect_of(element: &Value) -> Option<[i64; 4]> {
    let at = &element["coordinates"];
    Some([
        at["x"].as_i64()?,
        at["y"].as_i64()?,
        at["width"].as_i64()?,
        at["height"].as_i64()?,
    ])
}

fn on_path(program: &str) -> PathBuf {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("no {program} on PATH"))
}

/// `client.mjs` running mobile-mcp, answering one call a line.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
    /// What mobile-mcp (and the client) wrote to stderr so far.
    stderr: Arc<Mutex<Vec<String>>>,
    tools: Vec<String>,
    /// How many tools were called.
    calls: usize,
    /// The mobilecli beside mobile-mcp, and the home it keeps its daemon's socket in.
    mobilecli: PathBuf,
    home: PathBuf,
    closed: bool,
}

impl Mcp {
    fn start(prefix: &Path, phone: &Phone, robot: Robot) -> Mcp {
        let home = phone.adb.home();
        let mut command = Command::new("node");
        phone
            .adb
            .environment(&mut command)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/mobile_mcp/client.mjs"
            ))
            .arg(prefix)
            // Both robots find adb at ANDROID_HOME/platform-tools/adb.
            .env("ANDROID_HOME", phone.sdk.path())
            .env_remove("ANDROID_SDK_ROOT")
            // No posthog event, no scarf.sh pixel.
            .env("MOBILEMCP_DISABLE_TELEMETRY", "1")
            // mobilecli lists the remote fleet only with a token: none here (HOME is
            // the private adb's, the keyring is out of reach).
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env_remove("MOBILECLI_TOKEN")
            .env_remove("MOBILECLI_FLEET_URL")
            .env_remove("MOBILECLI_REMOTE_ONLY")
            .env_remove("MOBILECLI_HOME")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            // The mobilecli installed beside mobile-mcp; no go-ios.
            .env_remove("MOBILECLI_PATH")
            .env("GO_IOS_PATH", phone.sdk.path().join("no-go-ios"))
            .env_remove("LOG_FILE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match robot {
            Robot::Legacy => command.env("MOBILEMCP_LEGACY_ROBOT", "1"),
            Robot::Mobilecli => command.env_remove("MOBILEMCP_LEGACY_ROBOT"),
        };
        let mut child = command.spawn().expect("node runs");
        let stdin = child.stdin.take();
        let (sender, answers) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::clone(&stderr);
        let pipe = child.stderr.take().expect("stderr is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                written.lock().expect("stderr lines").push(line);
            }
        });
        let mut mcp = Mcp {
            child,
            stdin,
            answers,
            stderr,
            tools: Vec::new(),
            calls: 0,
            mobilecli: mobilecli_in(prefix),
            home: home.to_owned(),
            closed: false,
        };
        let hello = mcp.answer(PATIENCE);
        assert_eq!(hello["server"]["name"], "mobile-mcp", "{hello}");
        mcp.tools = hello["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        mcp
    }

    fn answer(&mut self, patience: Duration) -> Value {
        let line = self.answers.recv_timeout(patience).unwrap_or_else(|_| {
            panic!(
                "client.mjs did not answer within {patience:?}; its stderr:\n{}",
                self.stderr.lock().expect("stderr lines").join("\n")
            )
        });
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    fn call(&mut self, tool: &str, arguments: &Value) -> Value {
        let line = json!({ "tool": tool, "arguments": arguments }).to_string();
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("client.mjs reads its stdin");
        self.answer(CALL_PATIENCE)
    }

    fn stderr_len(&self) -> usize {
        self.stderr.lock().expect("stderr lines").len()
    }
}

impl Mcp {
    /// Ends the client, which closes mobile-mcp, then stops the daemon that mobilecli's
    /// device commands start and leave running (with either robot: the legacy one asks
    /// mobilecli for iOS simulators); what `mobilecli daemon status` says after.
    fn close(&mut self) -> String {
        if self.closed {
            return String::new();
        }
        self.closed = true;
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            // No event for a child's exit without blocking past the deadline: polled.
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let daemon = |what: &str| {
            Command::new(&self.mobilecli)
                .args(["daemon", what])
                .env("HOME", &self.home)
                .stdin(Stdio::null())
                .output()
                .map(|o| text(&o.stdout) + &text(&o.stderr))
                .unwrap_or_else(|e| format!("{} does not run: {e}", self.mobilecli.display()))
        };
        daemon("stop");
        daemon("status")
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        self.close();
    }
}

/// The mobilecli binary mobile-mcp runs: `@mobilenext/mobilecli-OS-ARCH/mobilecli-OS-ARCH`.
fn mobilecli_in(prefix: &Path) -> PathBuf {
    let scoped = prefix.join("node_modules/@mobilenext");
    std::fs::read_dir(&scoped)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .find(|name| name.starts_with("mobilecli-"))
        .map_or_else(
            || scoped.join("mobilecli-missing"),
            |name| scoped.join(&name).join(&name),
        )
}

/// One tool call: what was asked, what mobile-mcp answered, what the sim ran meanwhile.
struct Called {
    /// Which call of the run this is.
    number: usize,
    tool: String,
    arguments: Value,
    answer: Value,
    text: String,
    sim: Vec<String>,
    stderr: Vec<String>,
}

impl Called {
    fn ok(&self) -> bool {
        self.answer["isError"] == false && self.answer.get("error").is_none()
    }

    /// What it asked, answered and made the sim run, for a failed check.
    fn told(&self) -> String {
        let mut told = String::new();
        let _ = writeln!(told, "{} {}:", self.tool, self.arguments);
        let how = if self.answer.get("error").is_some() {
            "the call itself failed".to_owned()
        } else {
            format!("isError {}", self.answer["isError"])
        };
        let _ = writeln!(told, "  mobile-mcp answered ({how}):");
        for line in self.text.lines() {
            let _ = writeln!(told, "    {line}");
        }
        let _ = writeln!(told, "  the sim ran:");
        for line in &self.sim {
            let _ = writeln!(told, "    {line}");
        }
        if self.sim.is_empty() {
            let _ = writeln!(told, "    nothing");
        }
        let _ = writeln!(told, "  mobile-mcp's stderr (without stack frames):");
        for line in &self.stderr {
            if !line.trim_start().starts_with("at ") && !line.trim().is_empty() {
                let _ = writeln!(told, "    {line}");
            }
        }
        told
    }
}

fn ask(phone: &mut Phone, mcp: &mut Mcp, tool: &str, arguments: Value) -> Called {
    phone.mark();
    let from = mcp.stderr_len();
    let answer = mcp.call(tool, &arguments);
    let sim = phone.mark();
    let stderr = mcp.stderr.lock().expect("stderr lines")[from..].to_vec();
    let text = answer["text"]
        .as_str()
        .or(answer["error"].as_str())
        .unwrap_or_default()
        .to_owned();
    // With --nocapture: the whole conversation, passing or not.
    println!("{tool} {arguments} => {text}");
    for line in &sim {
        println!("    sim: {line}");
    }
    mcp.calls += 1;
    Called {
        number: mcp.calls,
        tool: tool.to_owned(),
        arguments,
        answer,
        text,
        sim,
        stderr,
    }
}

/// Every check of a run; the failed ones are told all at once, under the call they
/// checked.
struct Checks {
    robot: Robot,
    /// The call (none for a check of no call), what failed of it, and what it did.
    failed: Vec<(Option<usize>, Vec<String>, String)>,
}

impl Checks {
    fn new(robot: Robot) -> Checks {
        Checks {
            robot,
            failed: Vec::new(),
        }
    }

    fn that(&mut self, call: Option<&Called>, ok: bool, what: &str) {
        if ok {
            return;
        }
        let number = call.map(|c| c.number);
        match self
            .failed
            .iter_mut()
            .find(|(n, ..)| n.is_some() && *n == number)
        {
            Some((_, whats, _)) => whats.push(what.to_owned()),
            None => self.failed.push((
                number,
                vec![what.to_owned()],
                call.map(Called::told).unwrap_or_default(),
            )),
        }
    }

    fn not_run(&mut self, what: &str) {
        self.failed
            .push((None, vec![format!("not run: {what}")], String::new()));
    }

    fn finish(self) {
        let count: usize = self.failed.iter().map(|(_, whats, _)| whats.len()).sum();
        let mut told = String::new();
        for (_, whats, call) in &self.failed {
            for what in whats {
                let _ = writeln!(told, "FAILED: {what}");
            }
            let _ = writeln!(told, "{call}");
        }
        assert!(
            self.failed.is_empty(),
            "mobile-mcp with the {:?} robot: {count} check(s) failed:\n\n{told}",
            self.robot,
        );
    }
}
