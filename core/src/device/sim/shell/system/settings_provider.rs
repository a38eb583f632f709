//! The settings provider as `content` reaches it (`content insert --uri
//! content://settings/system --bind name:s:user_rotation --bind value:i:1`, as mobile-mcp
//! turns the screen; `content query … --where "name='KEY'"`; `content delete`), over the
//! same settings as `settings` ([`super::settings`]): an insert prints nothing, a query
//! `Row: N _id=…, name=…, value=…` a row (`Content.java`'s format), or `No result found.`

use super::super::{Io, SimShell};
use super::settings::{Table, put};
use crate::stability::Clock;

/// `content insert|query|delete --uri content://settings/TABLE …`: the settings provider
/// as `Content.java` reaches it. `path` is the URI's path (`/system`).
pub(in crate::device::sim::shell) fn content<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    path: &str,
    io: &mut Io<'_>,
) -> u8 {
    let Some(table) = Table::parse(path.trim_matches('/')) else {
        io.complain(&format!(
            "Error while accessing provider:settings\njava.lang.IllegalArgumentException: \
             Invalid URI: content://settings{path}\n"
        ));
        return 0;
    };
    let value_of = |flag: &str| args.windows(2).find(|p| p[0] == flag).map(|p| p[1]);
    // `--bind name:s:user_rotation`: column, type letter, value.
    let bound = |column: &str| {
        args.windows(2)
            .filter(|p| p[0] == "--bind")
            .filter_map(|p| {
                let mut parts = p[1].splitn(3, ':');
                let name = parts.next()?;
                let _kind = parts.next()?;
                (name == column).then(|| parts.next().unwrap_or("").to_owned())
            })
            .next()
    };
    // `--where "name='user_rotation'"`: the one condition tools write.
    let wanted = value_of("--where").and_then(|w| {
        let (column, value) = w.split_once('=')?;
        (column.trim() == "name").then(|| value.trim().trim_matches(['\'', '"']).to_owned())
    });
    match args.first().copied() {
        Some("insert") => match (bound("name"), bound("value")) {
            (Some(key), Some(value)) => put(shell, table, &key, &value, "insert", io),
            _ => {
                io.complain(
                    "Error while accessing provider:settings\njava.lang.IllegalArgumentException: \
                     Name and value are required\n",
                );
                0
            }
        },
        Some("query") => {
            let rows: Vec<(String, String)> = shell
                .settings_of(table)
                .into_iter()
                .filter(|(key, _)| wanted.as_ref().is_none_or(|w| w == key))
                .collect();
            if rows.is_empty() {
                io.say("No result found.\n");
            }
            for (row, (key, value)) in rows.iter().enumerate() {
                let id = 1 + super::apps::hash(key) % 900;
                io.say(&format!("Row: {row} _id={id}, name={key}, value={value}\n"));
            }
            0
        }
        Some("delete") => {
            if let Some(key) = wanted {
                shell.store_setting(table, &key, None);
            }
            0
        }
        _ => {
            io.complain(
                "Error while accessing provider:settings\n\
                 java.lang.UnsupportedOperationException: the sim's settings provider takes \
                 insert, query and delete\n",
            );
            0
        }
    }
}
