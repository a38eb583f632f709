//! Generated dumps shared by the benchmarks, so they run without the corpus.

/// A feed of `items` cards (a clickable container with a title and a like button) in a
/// scrolling list; `overlay` is more XML placed after the list, drawn above it.
pub fn generated_feed(items: usize, overlay: &str) -> String {
    let mut xml = String::from(
        r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]"><node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" package="app" bounds="[0,200][1080,2200]">"#,
    );
    for n in 0..items {
        let top = 200 + n as i32 * 300;
        xml.push_str(&format!(
            r#"<node class="android.view.ViewGroup" clickable="true" package="app" bounds="[0,{top}][1080,{}]"><node text="Video title {n}" class="android.widget.TextView" package="app" bounds="[20,{top}][800,{}]"/><node content-desc="Like" class="android.widget.ImageView" clickable="true" package="app" bounds="[900,{top}][1060,{}]"/></node>"#,
            top + 290,
            top + 100,
            top + 100
        ));
    }
    xml.push_str("</node>");
    xml.push_str(overlay);
    xml.push_str("</node></hierarchy>");
    xml
}
