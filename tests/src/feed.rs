//! A phone screen small enough to read in a test, as uiautomator XML: a clock at the top
//! and a column of clickable rows, for tests of what a point on the screen meets.

/// Where row 0 starts on the display, and how tall each row is: row `i` spans y from
/// `ROW_TOP + i * ROW_HEIGHT`, x from 0 to 1080.
pub const ROW_TOP: i32 = 200;
pub const ROW_HEIGHT: i32 = 300;

/// A 1080 × 2400 screen of one app: `clock` in a line at the top, then one clickable row
/// per text in `rows`, top to bottom.
pub fn feed_xml(clock: &str, rows: &[&str]) -> String {
    let mut xml = String::from(
        r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.tube" bounds="[0,0][1080,2400]">"#,
    );
    xml.push_str(&format!(
        r#"<node text="{}" class="android.widget.TextView" package="com.tube" bounds="[0,0][1080,100]"/>"#,
        escaped(clock)
    ));
    for (index, text) in (0..).zip(rows) {
        let top = ROW_TOP + index * ROW_HEIGHT;
        xml.push_str(&format!(
            r#"<node text="{}" class="android.widget.TextView" package="com.tube" clickable="true" bounds="[0,{top}][1080,{}]"/>"#,
            escaped(text),
            top + ROW_HEIGHT
        ));
    }
    xml.push_str("</node></hierarchy>");
    xml
}

/// `text` as an XML attribute value.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_stacked_below_the_clock_and_escaped() {
        let xml = feed_xml("9:41", &["Home", "Tom & \"Jerry\""]);
        assert!(xml.contains(r#"text="9:41""#) && xml.contains("[0,0][1080,100]"));
        assert!(xml.contains(r#"text="Home" class="android.widget.TextView" package="com.tube" clickable="true" bounds="[0,200][1080,500]""#));
        assert!(
            xml.contains(r#"text="Tom &amp; &quot;Jerry&quot;""#)
                && xml.contains("[0,500][1080,800]")
        );
        assert!(xml.ends_with("</node></hierarchy>"));
    }
}
