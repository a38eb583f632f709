//! `pm install` as Android 14 answers it, from a file the host pushed (`adb install` on the
//! sim's banner, which offers no `cmd`: a push to `/data/local/tmp/NAME.apk`, then `pm
//! 'install' … '/data/local/tmp/NAME.apk'`, then `rm -f`) or from stdin with `-S SIZE` (a
//! streamed install).
//!
//! From a file, `PackageManagerShellCommand.setParamsSize` parses the APK before any
//! session: a file that is no zip fails there, and the `IllegalArgumentException`
//! (`Error: Failed to parse APK file: PATH: Failed to parse PATH`, caused by the
//! `IOException` `Failed to load asset path PATH`) is printed by `BasicShellCommandHandler`
//! on stderr, exit 255: no `Failure [...]` line. Streamed, the parse happens at the
//! session's commit: `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse
//! /data/app/vmdlN.tmp/base.apk: Failed to load asset path /data/app/vmdlN.tmp/base.apk]`
//! on stdout, exit 1. A zip with a manifest would install on a phone; the sim runs no APKs,
//! so its commit fails with `Failure [INSTALL_FAILED_USER_RESTRICTED: …]` saying so: the
//! code phones give when the device itself refuses installs (Install via USB off, a
//! `DISALLOW_INSTALL_APPS` policy), which callers treat as final, where
//! `INSTALL_FAILED_INTERNAL_ERROR` would read as a fault worth retrying.

use super::super::{Io, SimShell};
use super::apps::hash;
use crate::stability::Clock;

/// A zip's local file header: every APK starts with one.
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const MANIFEST: &[u8] = b"AndroidManifest.xml";
/// Why the sim refuses an APK that would otherwise install.
const REFUSAL: &str = "INSTALL_FAILED_USER_RESTRICTED: tapscope's simulated phone runs no APKs; \
    it has only its own apps (pm list packages)";

/// Options of `pm install` that take a value.
const VALUED: [&str; 12] = [
    "-i",
    "-p",
    "-S",
    "--user",
    "--install-location",
    "--install-reason",
    "--originating-uri",
    "--referrer",
    "--abi",
    "--pkg",
    "--force-uuid",
    "--update-ownership",
];
/// Options that stand alone.
const FLAGS: [&str; 20] = [
    "-r",
    "-t",
    "-g",
    "-d",
    "-f",
    "-l",
    "-R",
    "--dont-kill",
    "--full",
    "--instant",
    "--ephemeral",
    "--apex",
    "--staged",
    "--force-queryable",
    "--restrict-permissions",
    "--force-sdk",
    "--skip-verification",
    "--bypass-low-target-sdk-block",
    "--enable-rollback",
    "--wait",
];

/// What an install was given: a file, or stdin of a declared size.
enum Source {
    File(String),
    Stdin(Option<u64>),
}

/// `pm install [OPTIONS] PATH|-`.
pub(super) fn install<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let mut size = None;
    let mut paths = Vec::new();
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        if VALUED.contains(&word) {
            let value = words.next();
            if word == "-S" {
                size = value.and_then(|v| v.parse::<u64>().ok());
            }
        } else if FLAGS.contains(&word) {
        } else if word.starts_with('-') && word != "-" {
            return exception(io, &format!("Unknown option {word}"), None);
        } else {
            paths.push(word);
        }
    }
    let source = match paths.first() {
        None | Some(&"-") => Source::Stdin(size),
        Some(path) => Source::File((*path).to_owned()),
    };
    match source {
        Source::Stdin(None) => {
            io.say("Error: must either specify a package size or an APK file\n");
            1
        }
        Source::Stdin(Some(size)) => match usize::try_from(size) {
            Ok(size) if size <= shell.file_limits.file => {
                let bytes = io.read_stdin(size);
                commit(&bytes, io)
            }
            _ => {
                io.say(&format!(
                    "Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE: the sim takes APKs of up to \
                     {}]\n",
                    super::super::push::size(shell.file_limits.file)
                ));
                1
            }
        },
        Source::File(path) => {
            let Some(parsed) = shell.with_file(&path, parse) else {
                io.complain(&format!("Error: Unable to open file: {path}\n"));
                if !path.starts_with("/data/local/tmp/") {
                    io.complain("Consider using a file under /data/local/tmp/\n");
                }
                io.complain(&format!("Error: Can't open file: {path}\n"));
                return exception(io, &format!("Error: Can't open file: {path}"), None);
            };
            match parsed {
                Parsed::NotZip => exception(
                    io,
                    &format!("Error: Failed to parse APK file: {path}: Failed to parse {path}"),
                    Some(format!(
                        "java.io.IOException: Failed to load asset path {path}"
                    )),
                ),
                Parsed::NoManifest => exception(
                    io,
                    &format!("Error: Failed to parse APK file: {path}: Failed to parse {path}"),
                    Some("java.io.FileNotFoundException: AndroidManifest.xml".to_owned()),
                ),
                Parsed::Apk => {
                    io.say(&format!("Failure [{REFUSAL}]\n"));
                    1
                }
            }
        }
    }
}

/// What parsing the APK finds.
enum Parsed {
    NotZip,
    /// A zip, but no `AndroidManifest.xml` in it.
    NoManifest,
    Apk,
}

fn parse(bytes: &[u8]) -> Parsed {
    if !bytes.starts_with(ZIP_MAGIC) {
        Parsed::NotZip
    } else if bytes.windows(MANIFEST.len()).any(|w| w == MANIFEST) {
        Parsed::Apk
    } else {
        Parsed::NoManifest
    }
}

/// A streamed install's commit: the session's copy is parsed there.
fn commit(bytes: &[u8], io: &mut Io<'_>) -> u8 {
    // A session id is a random positive int; the sim's follows from the bytes.
    let session = hash(&String::from_utf8_lossy(bytes)) & 0x7fff_ffff;
    let staged = format!("/data/app/vmdl{session}.tmp/base.apk");
    let failure = match parse(bytes) {
        Parsed::NotZip => format!(
            "INSTALL_PARSE_FAILED_NOT_APK: Failed to parse {staged}: Failed to load asset path \
             {staged}"
        ),
        Parsed::NoManifest => format!(
            "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: Failed to parse {staged}: \
             AndroidManifest.xml"
        ),
        Parsed::Apk => REFUSAL.to_owned(),
    };
    io.say(&format!("Failure [{failure}]\n"));
    1
}

/// An exception out of `install`, as `BasicShellCommandHandler.exec` prints it (the frames
/// are Android 14's; their line numbers vary by build).
fn exception(io: &mut Io<'_>, message: &str, cause: Option<String>) -> u8 {
    let mut text = format!(
        "\nException occurred while executing 'install':\njava.lang.IllegalArgumentException: \
         {message}\n\tat com.android.server.pm.PackageManagerShellCommand.setParamsSize(PackageManagerShellCommand.java:622)\n\
         \tat com.android.server.pm.PackageManagerShellCommand.doRunInstall(PackageManagerShellCommand.java:1557)\n\
         \tat com.android.server.pm.PackageManagerShellCommand.runInstall(PackageManagerShellCommand.java:1517)\n\
         \tat com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:222)\n\
         \tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\
         \tat android.os.ShellCommand.exec(ShellCommand.java:38)\n"
    );
    if let Some(cause) = cause {
        text.push_str(&format!(
            "Caused by: {cause}\n\tat android.content.res.ApkAssets.nativeLoadFd(Native Method)\n\
             \tat android.content.res.ApkAssets.loadFromFd(ApkAssets.java:216)\n\t... 6 more\n"
        ));
    }
    io.complain(&text);
    255
}
