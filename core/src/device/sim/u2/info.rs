//! The objects uiautomator2's server answers with, as Jackson writes its beans
//! (openatx/android-uiautomator-server, `stub/ObjInfo.java`, `stub/DeviceInfo.java`,
//! `stub/Rect.java`): a property per getter, keys in the order the getters are
//! declared in dex (by name), `null` for a Java `null`.

use serde_json::{Value, json};

use crate::model::{Flags, Rect};

use super::tree::Node;
use crate::device::sim::DISPLAY;

/// `ro.product.name` of the sim (what `getprop` says), `UiDevice.getProductName()`.
const PRODUCT: &str = "tapscope_sim";
/// Android 14, as the sim's `getprop ro.build.version.sdk` says.
const SDK: u32 = 34;
/// `ro.sf.lcd_density`: 420 dpi, 2.625 pixels a dp.
const DENSITY: f64 = 420.0 / 160.0;

/// How the server read the node: `UiObject2` (a `BySelector` found it) or `UiObject`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// `bounds` is the visible part and `resourceName` is given.
    Object2,
    /// `bounds` is `getBoundsInScreen` and `resourceName` is `null`.
    Object,
}

/// Android's `null` for an empty text, description or id: the sim does not tell an
/// empty one from none.
fn or_null(text: &str) -> Value {
    if text.is_empty() {
        Value::Null
    } else {
        Value::String(text.to_owned())
    }
}

fn rect(r: Rect) -> Value {
    json!({"bottom": r.bottom, "left": r.left, "right": r.right, "top": r.top})
}

/// `ObjInfo` of `node`.
pub(super) fn object(node: &Node, found: Found) -> Value {
    let f = |flag| node.flags.contains(flag);
    let (bounds, resource) = match found {
        Found::Object2 => (node.visible, or_null(&node.resource_id)),
        Found::Object => (node.raw, Value::Null),
    };
    json!({
        "bounds": rect(bounds),
        "checkable": f(Flags::CHECKABLE),
        "checked": f(Flags::CHECKED),
        "childCount": node.child_count,
        "className": or_null(&node.class),
        "clickable": f(Flags::CLICKABLE),
        "contentDescription": or_null(&node.desc),
        "enabled": f(Flags::ENABLED),
        "focusable": f(Flags::FOCUSABLE),
        "focused": f(Flags::FOCUSED),
        "longClickable": f(Flags::LONG_CLICKABLE),
        "packageName": or_null(&node.package),
        "resourceName": resource,
        "scrollable": f(Flags::SCROLLABLE),
        "selected": f(Flags::SELECTED),
        "text": or_null(&node.text),
        "visibleBounds": rect(node.visible),
    })
}

/// `DeviceInfo` with `package` in front.
pub(super) fn device(package: &str) -> Value {
    let dp = |px: i32| (f64::from(px) / DENSITY).round() as i64;
    json!({
        "currentPackageName": package,
        "displayHeight": DISPLAY.height,
        "displayRotation": 0,
        "displaySizeDpX": dp(DISPLAY.width),
        "displaySizeDpY": dp(DISPLAY.height),
        "displayWidth": DISPLAY.width,
        "naturalOrientation": true,
        "productName": PRODUCT,
        "screenOn": true,
        "sdkInt": SDK,
    })
}
