//! The JSON-RPC methods the simulated server serves, each as uiautomator2's
//! `AutomatorServiceImpl` does it (openatx/android-uiautomator-server, `stub/`), on the
//! sim: the screen, coordinate gestures and keys, device information, and the selector
//! queries (`exist`, `count`, `objInfo`, `objInfoOfAllInstances`, `getText`,
//! `waitForExists`, `waitUntilGone`).
//!
//! Timings that are the server's behaviour, not costs, are paid under every profile: a
//! `click` holds the touch 100 ms (`SystemClock.sleep(100)` between down and up), a
//! swipe moves 5 ms a step (`UiDevice.swipe`), `pressKey` of home, back or menu waits up
//! to 1 s for the accessibility event it causes (`UiDevice.pressBack` and the like:
//! `KEY_PRESS_EVENT_TIMEOUT`), and the selector waits poll every 1 s (androidx's
//! `WaitMixin` and `UiObject.WAIT_FOR_SELECTOR_POLL`).

use std::time::Duration;

use serde_json::Value;

use crate::device::{Device, DeviceError, Key};
use crate::geometry::Point;
use crate::stability::Clock;

use super::info::{self, Found};
use super::rpc::{Call, NOT_FOUND, RpcError};
use super::selector::Selector;
use super::tree::Screen;
use crate::device::sim::phone::SimPhone;
use crate::device::sim::{DISPLAY, Sim};

/// How long `click(x, y)` holds the touch.
const CLICK_HOLD: Duration = Duration::from_millis(100);
/// A touch held this long is a long press: `ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT`
/// (AOSP `core/java/android/view/ViewConfiguration.java`, 400 ms since Android 12).
const LONG_PRESS: Duration = Duration::from_millis(400);
/// uiautomator moves a swipe 5 ms a step.
const STEP: Duration = Duration::from_millis(5);
/// How long a key press waits for the event it causes.
const KEY_EVENT_TIMEOUT: Duration = Duration::from_millis(1000);
/// How often that wait looks.
const EVENT_LOOK: Duration = Duration::from_millis(10);
/// How often a selector wait searches the tree again.
const SELECTOR_POLL: Duration = Duration::from_millis(1000);
/// The longest a selector wait waits on the simulated phone.
const MAX_WAIT: Duration = Duration::from_secs(600);

/// Methods of the real server the simulated one does not serve.
const NOT_SIMULATED: [&str; 24] = [
    "setText",
    "clearTextField",
    "longClick",
    "clickAndWaitForNewWindow",
    "dragTo",
    "gesture",
    "pinchIn",
    "pinchOut",
    "swipePoints",
    "injectInputEvent",
    "scrollForward",
    "scrollBackward",
    "scrollToBeginning",
    "scrollToEnd",
    "scrollTo",
    "flingForward",
    "flingBackward",
    "flingToBeginning",
    "flingToEnd",
    "childByText",
    "childByDescription",
    "childByInstance",
    "setOrientation",
    "getClipboard",
];

/// Runs `call` on `phone`.
pub(super) fn call<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    call: &Call<'_>,
) -> Result<Value, RpcError> {
    let arity = call.params.len();
    let object_first = call.value(0).is_object();
    match (call.method.as_str(), arity) {
        ("ping", 0) => Ok(Value::from("pong")),
        ("deviceInfo", 0) => Ok(info::device(phone.sim().package())),
        ("dumpWindowHierarchy", 1..=3) => {
            let compressed = call.boolean(0)?;
            let depth = if arity > 1 { call.int(1)? } else { 50 };
            let active = arity > 2 && call.boolean(2)?;
            Ok(Value::from(super::dump(
                phone,
                compressed,
                depth.into(),
                active,
            )))
        }
        ("click", 2 | 3) if !object_first => {
            let at = (call.int(0)?, call.int(1)?);
            let hold = if arity == 3 {
                call.long(2)?
            } else {
                i64::try_from(CLICK_HOLD.as_millis()).unwrap_or(100)
            };
            click(phone, at, hold)
        }
        ("swipe" | "drag", 5) if !object_first => {
            let from = (call.int(0)?, call.int(1)?);
            let to = (call.int(2)?, call.int(3)?);
            let steps = u32::try_from(call.int(4)?.max(1)).unwrap_or(1);
            let mut length = STEP.saturating_mul(steps);
            if call.method == "drag" {
                length = length.saturating_add(LONG_PRESS);
            }
            swipe(phone, from, to, length)
        }
        ("pressKey", 1) => press_key(phone, call.string(0)?),
        ("pressKeyCode", 1 | 2) => {
            let meta = if arity == 2 { call.int(1)? } else { 0 };
            press_code(phone, call.int(0)?, meta)
        }
        // A capture the server could not take: the client then takes one over adb.
        ("takeScreenshot", 2) => Ok(Value::Null),
        ("exist", 1) => exist(phone, &Selector::read(call.value(0))?),
        ("count", 1) => Ok(Value::from(count(
            &screen(phone),
            &Selector::read(call.value(0))?,
        ))),
        ("objInfo", 1) => obj_info(&screen(phone), &Selector::read(call.value(0))?),
        ("objInfoOfAllInstances", 1) => {
            all_instances(&screen(phone), &Selector::read(call.value(0))?)
        }
        ("getText", 1) => get_text(&screen(phone), &Selector::read(call.value(0))?),
        ("waitForExists" | "waitUntilGone", 2) => {
            let selector = Selector::read(call.value(0))?;
            let timeout = call.long(1)?;
            wait(phone, &selector, timeout, call.method == "waitForExists")
        }
        (name, _) => Err(unknown(name, arity, object_first)),
    }
}

/// Why `name` with `arity` parameters is not served.
fn unknown(name: &str, arity: usize, object_first: bool) -> RpcError {
    const SERVED: [(&str, &str); 16] = [
        ("ping", "none"),
        ("deviceInfo", "none"),
        ("dumpWindowHierarchy", "1 to 3"),
        ("click", "2 or 3"),
        ("swipe", "5"),
        ("drag", "5"),
        ("pressKey", "1"),
        ("pressKeyCode", "1 or 2"),
        ("takeScreenshot", "2"),
        ("exist", "1"),
        ("count", "1"),
        ("objInfo", "1"),
        ("objInfoOfAllInstances", "1"),
        ("getText", "1"),
        ("waitForExists", "2"),
        ("waitUntilGone", "2"),
    ];
    // `click(Selector[, corner])` and `swipe(Selector, direction[, percent], steps)`.
    let selector_overload = match name {
        "click" => arity == 1 || (arity == 2 && object_first),
        "swipe" => arity == 3 || arity == 4,
        _ => false,
    };
    if NOT_SIMULATED.contains(&name) || selector_overload {
        return RpcError::MethodNotFound(format!(
            "{name} with {arity} parameters is uiautomator2's, but the simulated phone's server \
             does not serve it: use click(x, y), swipe, pressKey, or find the node with objInfo"
        ));
    }
    match SERVED.iter().find(|(served, _)| *served == name) {
        Some((_, takes)) => {
            RpcError::ParamsInvalid(format!("{name} takes {takes} parameters, not {arity}"))
        }
        None => RpcError::MethodNotFound(format!("no method {name:?} on uiautomator2's server")),
    }
}

fn screen<C: Clock + Clone + Send>(phone: &SimPhone<C>) -> Screen {
    Screen::of(&phone.sim())
}

/// A sim action that failed the way a Java one would.
fn thrown(error: DeviceError) -> RpcError {
    RpcError::Thrown {
        exception: "java.lang.IllegalArgumentException",
        data: error.to_string(),
    }
}

fn on_display((x, y): (i32, i32)) -> bool {
    x >= 0 && y >= 0 && x < DISPLAY.width && y < DISPLAY.height
}

/// `click(x, y[, milliseconds])`: down, held, up. A point off the display's right or
/// bottom edge is injected and lands nowhere; a negative one is refused (`false`).
fn click<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    at: (i32, i32),
    hold_ms: i64,
) -> Result<Value, RpcError> {
    if at.0 < 0 || at.1 < 0 {
        return Ok(Value::Bool(false));
    }
    let hold = Duration::from_millis(u64::try_from(hold_ms).unwrap_or(0));
    let point = Point::new(at.0, at.1);
    if hold >= LONG_PRESS {
        if on_display(at) {
            phone.sim().long_press(point, hold).map_err(thrown)?;
        } else {
            phone.clock().sleep(hold);
        }
    } else {
        phone.clock().sleep(hold);
        if on_display(at) {
            phone.sim().tap(point).map_err(thrown)?;
        }
    }
    Ok(Value::Bool(true))
}

/// `swipe` and `drag`: a gesture from off the display lands nowhere.
fn swipe<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    from: (i32, i32),
    to: (i32, i32),
    length: Duration,
) -> Result<Value, RpcError> {
    if !on_display(from) || !on_display(to) {
        phone.clock().sleep(length);
        return Ok(Value::Bool(true));
    }
    let (from, to) = (Point::new(from.0, from.1), Point::new(to.0, to.1));
    phone.sim().swipe(from, to, length).map_err(thrown)?;
    Ok(Value::Bool(true))
}

/// Whether an accessibility event came at `since` or later, waiting up to `within`.
fn event_since<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    since: Duration,
    within: Duration,
) -> bool {
    let mut clock = phone.clock();
    let until = clock.now().saturating_add(within);
    loop {
        if phone.sim().last_event().is_some_and(|e| e.at >= since) {
            return true;
        }
        let now = clock.now();
        if now >= until {
            return false;
        }
        clock.sleep((until - now).min(EVENT_LOOK));
    }
}

/// `pressKey(name)`: the names the server knows; home's, back's and menu's answer is
/// whether the screen answered within 1 s (androidx's `UiDevice.pressHome` and the like:
/// `sendKeyAndWaitForEvent(…, KEY_PRESS_EVENT_TIMEOUT)`), the others' `true`.
fn press_key<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    name: Option<String>,
) -> Result<Value, RpcError> {
    let Some(name) = name else {
        return Err(RpcError::Thrown {
            exception: "java.lang.NullPointerException",
            data: "pressKey(null): give a key name such as home, back or enter".into(),
        });
    };
    let name = name.to_lowercase();
    let (key, waits) = match name.as_str() {
        "home" => (Some(Key::Home), true),
        "back" => (Some(Key::Back), true),
        "menu" => (None, true),
        "search" => (Some(Key::Search), false),
        "enter" => (Some(Key::Enter), false),
        "delete" | "del" => (Some(Key::Delete), false),
        "left" | "right" | "up" | "down" | "center" => (None, false),
        "recent" => (Some(Key::Recents), false),
        "volume_up" => (Some(Key::VolumeUp), false),
        "volume_down" => (Some(Key::VolumeDown), false),
        "power" => (Some(Key::Power), false),
        "volume_mute" | "camera" => (None, false),
        _ => return Ok(Value::Bool(false)),
    };
    let since = phone.clock().now();
    if let Some(key) = key {
        phone.sim().key(key).map_err(thrown)?;
    }
    if !waits {
        return Ok(Value::Bool(true));
    }
    Ok(Value::Bool(event_since(phone, since, KEY_EVENT_TIMEOUT)))
}

/// `pressKeyCode(code[, meta])`: the keys the sim knows, letters, digits and space typed
/// into the focused field (shifted by `META_SHIFT_ON`, 1); any other code is injected and
/// changes nothing.
fn press_code<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    code: i32,
    meta: i32,
) -> Result<Value, RpcError> {
    let mut sim = phone.sim();
    if let Some(key) = Key::ALL
        .into_iter()
        .find(|k| i32::from(k.keycode()) == code)
    {
        sim.key(key).map_err(thrown)?;
        return Ok(Value::Bool(true));
    }
    let typed = match code {
        7..=16 => char::from_digit(u32::try_from(code - 7).unwrap_or(0), 10),
        29..=54 => {
            let letter = char::from(b'a' + u8::try_from(code - 29).unwrap_or(0));
            Some(if meta & 1 != 0 {
                letter.to_ascii_uppercase()
            } else {
                letter
            })
        }
        62 => Some(' '),
        _ => None,
    };
    if let Some(c) = typed {
        type_char(&mut sim, c)?;
    }
    Ok(Value::Bool(true))
}

fn type_char<C: Clock + Clone + Send>(sim: &mut Sim<C>, c: char) -> Result<(), RpcError> {
    sim.input_text(&c.to_string()).map_err(thrown)
}

fn not_found(selector: &Selector) -> RpcError {
    RpcError::Thrown {
        exception: NOT_FOUND,
        data: selector.describe(),
    }
}

fn exist<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    selector: &Selector,
) -> Result<Value, RpcError> {
    let screen = screen(phone);
    let found = if selector.exists_by()? {
        selector.find_by(&screen).is_some()
    } else {
        !selector.find_ui(&screen).is_empty()
    };
    Ok(Value::Bool(found))
}

fn count(screen: &Screen, selector: &Selector) -> usize {
    let found = selector.find_ui(screen).len();
    if selector.deepest_has_instance() {
        found.min(1)
    } else {
        found
    }
}

fn obj_info(screen: &Screen, selector: &Selector) -> Result<Value, RpcError> {
    if selector.object2_by()?
        && let Some(at) = selector.find_by(screen)
    {
        return Ok(info::object(&screen.nodes[at], Found::Object2));
    }
    let found = selector.find_ui(screen);
    let at = found.first().ok_or_else(|| not_found(selector))?;
    Ok(info::object(&screen.nodes[*at], Found::Object))
}

fn all_instances(screen: &Screen, selector: &Selector) -> Result<Value, RpcError> {
    let total = count(screen, selector);
    if selector.has_instance() {
        if total == 0 {
            return Ok(Value::Array(Vec::new()));
        }
        return Ok(Value::Array(vec![
            obj_info(screen, selector).unwrap_or(Value::Null),
        ]));
    }
    let infos = (0..total)
        .map(|i| {
            let nth = selector.with_instance(i);
            nth.find_ui(screen).first().map_or(Value::Null, |&at| {
                info::object(&screen.nodes[at], Found::Object)
            })
        })
        .collect();
    Ok(Value::Array(infos))
}

fn get_text(screen: &Screen, selector: &Selector) -> Result<Value, RpcError> {
    if selector.object2_by()?
        && let Some(at) = selector.find_by(screen)
    {
        let text = &screen.nodes[at].text;
        return Ok(if text.is_empty() {
            Value::Null
        } else {
            Value::from(text.as_str())
        });
    }
    let found = selector.find_ui(screen);
    let at = found.first().ok_or_else(|| not_found(selector))?;
    Ok(Value::from(screen.nodes[*at].text.as_str()))
}

/// `waitForExists` (`appear`) or `waitUntilGone`, timing out after `timeout_ms`.
fn wait<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    selector: &Selector,
    timeout_ms: i64,
    appear: bool,
) -> Result<Value, RpcError> {
    let by = selector.searches_by()?;
    let present = |screen: &Screen| {
        if by {
            selector.find_by(screen).is_some()
        } else {
            !selector.find_ui(screen).is_empty()
        }
    };
    let wanted = |screen: &Screen| present(screen) == appear;
    let mut clock = phone.clock();
    let start = clock.now();
    let timeout = Duration::from_millis(u64::try_from(timeout_ms).unwrap_or(0)).min(MAX_WAIT);
    if by {
        // androidx's WaitMixin: look, then every second until the time is up.
        let mut met = wanted(&screen(phone));
        while !met && clock.now() - start < timeout {
            clock.sleep(SELECTOR_POLL);
            met = wanted(&screen(phone));
        }
        return Ok(Value::Bool(met));
    }
    // `UiObject.waitForExists` and `waitUntilGone`: look while no more than the timeout
    // had passed at the last look, sleeping a second after each.
    let mut elapsed = Duration::ZERO;
    while timeout_ms >= 0 && elapsed <= timeout {
        if wanted(&screen(phone)) {
            return Ok(Value::Bool(true));
        }
        if timeout.is_zero() {
            break;
        }
        elapsed = clock.now() - start;
        clock.sleep(SELECTOR_POLL);
    }
    Ok(Value::Bool(false))
}
