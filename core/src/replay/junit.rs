//! JUnit XML for CI: one test suite per replayed recording, one test case per step, the
//! divergence as its failure, a changed screen as its output, unplayed steps skipped.

use std::fmt::Write;

use super::{Report, Verdict};
use crate::render::xml_escape as escape;

/// The reports as one `<testsuites>` document.
pub fn junit(reports: &[Report], strict: bool) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failures: usize = reports.iter().map(|r| failed(r, strict)).sum();
    let tests: usize = reports.iter().map(|r| r.steps.len() + r.not_run).sum();
    let _ = writeln!(
        xml,
        "<testsuites name=\"tapscope replay\" tests=\"{tests}\" failures=\"{failures}\">"
    );
    for report in reports {
        suite(&mut xml, report, strict);
    }
    xml.push_str("</testsuites>\n");
    xml
}

fn failed(report: &Report, strict: bool) -> usize {
    report
        .steps
        .iter()
        .filter(|s| match s.verdict {
            Verdict::Same => false,
            Verdict::Changed(_) => strict,
            Verdict::Diverged(_) => true,
        })
        .count()
}

fn suite(xml: &mut String, report: &Report, strict: bool) {
    let name = escape(&report.recording);
    let time: u64 = report.steps.iter().filter_map(|s| s.settle_ms.now).sum();
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
        report.steps.len() + report.not_run,
        failed(report, strict),
        report.not_run,
        time as f64 / 1000.0
    );
    let _ = writeln!(
        xml,
        "    <properties><property name=\"device\" value=\"{}\"/></properties>",
        escape(&report.device)
    );
    for step in &report.steps {
        let time = step.settle_ms.now.unwrap_or(0) as f64 / 1000.0;
        let _ = write!(
            xml,
            "    <testcase classname=\"{name}\" name=\"{}\" time=\"{time:.3}\">",
            escape(&step.title())
        );
        match &step.verdict {
            Verdict::Diverged(why) => {
                let _ = write!(
                    xml,
                    "<failure message=\"{}\" type=\"diverged\">{}</failure>",
                    escape(&why.sentence()),
                    escape(&step.line())
                );
            }
            Verdict::Changed(changes) if strict => {
                let _ = write!(
                    xml,
                    "<failure message=\"{}\" type=\"changed\">{}</failure>",
                    escape(&changes.sentence()),
                    escape(&step.line())
                );
            }
            Verdict::Changed(_) | Verdict::Same => {
                let _ = write!(xml, "<system-out>{}</system-out>", escape(&step.line()));
            }
        }
        xml.push_str("</testcase>\n");
    }
    for k in 0..report.not_run {
        let _ = writeln!(
            xml,
            "    <testcase classname=\"{name}\" name=\"not run {}\"><skipped message=\"the replay stopped at the divergence before it\"/></testcase>",
            k + 1
        );
    }
    for note in &report.notes {
        let _ = writeln!(xml, "    <system-err>{}</system-err>", escape(note));
    }
    xml.push_str("  </testsuite>\n");
}
