//! A self-drawn screen over MCP as an agent meets it: the game's words come as `ocr` lines
//! with handles (read in the fallback screenshot's pixels by Tesseract, which these tests
//! need: `apt-get install tesseract-ocr tesseract-ocr-eng`), a tap on `Play` by its handle
//! starts the game, and the ticking score gives new versions as the screen changes.

mod common;

use common::{handle_of, in_process, ok, version_of};
use serde_json::json;

/// The tree after launching the game from the launcher.
async fn game(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>) -> String {
    assert!(
        std::process::Command::new("tesseract")
            .arg("--version")
            .output()
            .is_ok(),
        "these tests read pixels with Tesseract: apt-get install tesseract-ocr tesseract-ocr-eng"
    );
    let home = ok(client, "screen_operation_accessibility", json!({})).await;
    ok(
        client,
        "tap",
        json!({ "target": handle_of(&home, "Blocks") }),
    )
    .await
}

#[tokio::test]
async fn the_games_words_are_ocr_lines_and_play_by_handle_starts_it() {
    let client = in_process(None).await;
    let title = game(&client).await;
    assert!(title.contains("fallback: screenshot"), "{title}");
    for word in ["Blocks", "Play", "Settings"] {
        assert!(
            title.contains(&format!("ocr \"{word}\"")),
            "{word} in:\n{title}"
        );
    }
    let played = ok(
        &client,
        "tap",
        json!({ "target": handle_of(&title, "Play") }),
    )
    .await;
    assert!(played.contains("acted on: \"Play\""), "{played}");
    assert!(
        !played.contains("ocr \"Play\""),
        "the title screen is gone:\n{played}"
    );
    assert!(
        played.contains("ocr \"Level 1\""),
        "the game runs:\n{played}"
    );
    // The score ticks every half second of the sim's clock: within a few calls (each
    // settles for a quarter of a second) the screen reads another score, another version.
    let mut later = played.clone();
    for _ in 0..8 {
        later = ok(&client, "press_key", json!({ "key": "volume_up" })).await;
        if version_of(&later) != version_of(&played) {
            break;
        }
    }
    assert_ne!(
        version_of(&played),
        version_of(&later),
        "{played}\n---\n{later}"
    );
    assert!(later.contains("ocr \"Score 20\""), "{later}");
}
