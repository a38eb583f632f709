//! The dump scanner (`parse::xml_scan`) against quick-xml, a general XML reader, on the
//! same work: every tag's attributes read and their values decoded. The corpus's largest
//! uiautomator dumps when ../shared/corpus exists; a generated feed of 2,000 cards always.
//!
//! Run with `cargo bench -p tapscope-core --features measure --bench xml_scan`.

use std::hint::black_box;
use std::path::PathBuf;

use quick_xml::events::Event;
use tapscope_core::parse;

#[path = "common/mod.rs"]
mod common;

fn main() {
    divan::main();
}

/// A named dump; divan labels each run with the name.
struct Dump {
    name: String,
    text: String,
}

impl std::fmt::Display for Dump {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// The generated feed, and the corpus's three largest XML dumps.
fn dumps() -> Vec<Dump> {
    let mut dumps = vec![Dump {
        name: "generated feed, 2000 cards".into(),
        text: common::generated_feed(2000, ""),
    }];
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .filter_map(|p| Some((p.metadata().ok()?.len(), p)))
        .collect();
    found.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
    for (_, path) in found.into_iter().take(3) {
        let Some(text) = std::fs::read(&path)
            .ok()
            .and_then(|bytes| Some(parse::decode(&bytes).ok()?.into_owned()))
        else {
            continue;
        };
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into();
        dumps.push(Dump { name, text });
    }
    // Both readers see the same tags and values, or the comparison means nothing.
    for dump in &dumps {
        let ours = parse::measure_scan(&dump.text).expect("the scanner reads it");
        assert_eq!(ours, quick_xml_scan(&dump.text), "{}", dump.name);
    }
    dumps
}

/// quick-xml's reader and attribute iterator on the same work as `measure_scan`.
fn quick_xml_scan(text: &str) -> (usize, usize) {
    let mut reader = quick_xml::Reader::from_str(text);
    let (mut tags, mut length) = (0, 0);
    loop {
        match reader.read_event().expect("quick-xml reads it") {
            Event::Start(tag) | Event::Empty(tag) => {
                tags += 1;
                for attribute in tag.attributes() {
                    let attribute = attribute.expect("a well-formed attribute");
                    length += attribute
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .expect("decodable")
                        .len();
                }
            }
            Event::Eof => return (tags, length),
            _ => {}
        }
    }
}

#[divan::bench(args = dumps())]
fn scanner(bencher: divan::Bencher, dump: &Dump) {
    bencher
        .counter(divan::counter::BytesCount::of_str(&dump.text))
        .bench(|| parse::measure_scan(black_box(&dump.text)));
}

#[divan::bench(args = dumps())]
fn quick_xml(bencher: divan::Bencher, dump: &Dump) {
    bencher
        .counter(divan::counter::BytesCount::of_str(&dump.text))
        .bench(|| quick_xml_scan(black_box(&dump.text)));
}
