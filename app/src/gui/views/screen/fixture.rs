//! The screen pane's test dump: a list under a toolbar, a button inside an item, a floating
//! button over the items, an empty shell and a hidden node, with the ids the tests name.

use tapscope_core::NodeId;
use tapscope_core::inspect::Inspection;
use tapscope_core::prune::PruneRules;
use tapscope_core::tokens::Encoding;

use crate::gui::document::Document;

/// A list of two items under a toolbar, a "More" button in the first item, a
/// floating button over both items, an empty shell over the bottom of the list,
/// and a hidden node over the second item.
const DUMP: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="p" bounds="[0,0][1080,2400]">
    <node class="androidx.recyclerview.widget.RecyclerView" resource-id="p:id/list" package="p" scrollable="true" bounds="[0,200][1080,2400]">
      <node class="android.widget.LinearLayout" package="p" clickable="true" bounds="[0,200][1080,600]">
        <node class="android.widget.TextView" package="p" text="First item" bounds="[40,240][700,320]" />
        <node class="android.widget.ImageButton" package="p" content-desc="More" clickable="true" bounds="[960,240][1040,320]" />
      </node>
      <node class="android.widget.LinearLayout" package="p" clickable="true" bounds="[0,600][1080,1000]">
        <node class="android.widget.TextView" package="p" text="Second item" bounds="[40,640][700,720]" />
      </node>
    </node>
    <node class="android.widget.FrameLayout" package="p" bounds="[0,2000][1080,2400]" />
    <node class="android.widget.Button" package="p" text="Ghost" clickable="true" visible-to-user="false" bounds="[0,800][1080,900]" />
    <node class="android.widget.ImageButton" package="p" content-desc="Compose" clickable="true" bounds="[880,520][1040,680]" />
  </node>
</hierarchy>
"#;
pub const ROOT: NodeId = 0;
pub const LIST: NodeId = 1;
pub const FIRST: NodeId = 2;
pub const FIRST_TEXT: NodeId = 3;
pub const MORE: NodeId = 4;
pub const SECOND: NodeId = 5;
pub const SHELL: NodeId = 7;
pub const FAB: NodeId = 9;

pub fn document() -> Document {
    Document::from_bytes("test.xml".into(), None, DUMP.as_bytes(), None)
        .expect("the test dump parses")
}

pub fn inspect(document: &Document) -> Inspection {
    document.inspect(&PruneRules::default(), Encoding::O200k)
}
