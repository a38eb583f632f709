//! What a device service's bytes say as they pass: a shell's or `exec:`'s output (kept only
//! when it may hold a screen: a dump's XML, a screenshot's PNG) and exit status, a sync
//! stream's pulls and pushes. Everything else is only counted.

use parking_lot::{Mutex, MutexGuard};
use tapscope_core::device::adb_command::{SNIFF, Seen, may_hold_screen, seen};
use tapscope_core::device::host_service::DeviceService;
use tapscope_core::device::shell_v2::{Decoder, Output};
use tapscope_core::device::sync_stream::{SyncDecoder, Transfer};

/// The most of one output or pulled file kept: as much as a dump may be (`prune`'s limit).
pub const KEPT: usize = 64 << 20;

/// A screen that passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    Dump(String),
    Png(Vec<u8>),
}

impl Screen {
    fn of(output: &[u8]) -> Option<Screen> {
        match seen(output)? {
            Seen::Dump(xml) => Some(Screen::Dump(xml.to_owned())),
            Seen::Png(png) => Some(Screen::Png(png.to_vec())),
        }
    }
}

/// A screen that passed, and the file it was pulled from (`None`: a command printed it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub screen: Screen,
    pub pulled: Option<String>,
}

impl Shown {
    fn printed(output: &[u8]) -> Option<Shown> {
        Screen::of(output).map(|screen| Shown {
            screen,
            pulled: None,
        })
    }
}

/// What passed on one service, once it ended.
#[derive(Debug, Default)]
pub struct Passed {
    /// The screens in its output, or in the files it pulled.
    pub screens: Vec<Shown>,
    pub exit: Option<u8>,
    /// Files pushed, and pulled files that were no screen.
    pub transfers: Vec<Transfer>,
    /// Bytes of output, stdout and stderr together.
    pub output_bytes: u64,
}

/// The start of an output, and all of it while it may hold a screen.
#[derive(Debug, Default)]
struct Kept {
    bytes: Vec<u8>,
    total: u64,
}

impl Kept {
    /// Keeps the first [`SNIFF`] bytes, and the rest up to [`KEPT`] when they may hold a
    /// screen.
    fn push(&mut self, more: &[u8]) {
        self.total += more.len() as u64;
        let sniffed = (SNIFF.saturating_sub(self.bytes.len())).min(more.len());
        self.bytes.extend_from_slice(&more[..sniffed]);
        let rest = &more[sniffed..];
        if !rest.is_empty() && may_hold_screen(&self.bytes[..SNIFF]) {
            let room = KEPT.saturating_sub(self.bytes.len());
            self.bytes.extend_from_slice(&rest[..room.min(rest.len())]);
        }
    }
}

#[derive(Debug)]
enum State {
    /// `shell:` and `exec:` output, one stream.
    Raw(Kept),
    /// Shell protocol v2: stdout kept, the exit status read, stderr counted.
    Packets {
        decoder: Decoder,
        stdout: Kept,
        output: Output,
    },
    Sync(Box<SyncDecoder>),
    Counted,
}

/// The watcher of one service, shared by both directions' threads.
#[derive(Debug)]
pub struct Watch(Mutex<State>);

impl Watch {
    pub fn of(service: DeviceService<'_>) -> Watch {
        Watch(Mutex::new(match service {
            DeviceService::Shell { packets: true, .. } => State::Packets {
                decoder: Decoder::default(),
                stdout: Kept::default(),
                output: Output::default(),
            },
            DeviceService::Shell { .. } | DeviceService::Exec(_) => State::Raw(Kept::default()),
            DeviceService::Sync => State::Sync(Box::new(SyncDecoder::new(KEPT))),
            DeviceService::Other(_) => State::Counted,
        }))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.lock()
    }

    /// Bytes on their way from the client to the device.
    pub fn to_device(&self, bytes: &[u8]) {
        if let State::Sync(sync) = &mut *self.state() {
            sync.from_host(bytes);
        }
    }

    /// Bytes on their way from the device to the client.
    pub fn to_client(&self, bytes: &[u8]) {
        match &mut *self.state() {
            State::Raw(kept) => kept.push(bytes),
            State::Packets {
                decoder,
                stdout,
                output,
            } => decoder.push(bytes, |event| {
                use tapscope_core::device::shell_v2::{Event, PacketId};
                match event {
                    Event::Data { id, data } if id == PacketId::Stdout as u8 => stdout.push(data),
                    Event::Data { id, data } if id == PacketId::Stderr as u8 => {
                        stdout.total += data.len() as u64;
                    }
                    other => output.take(other),
                }
            }),
            State::Sync(sync) => sync.from_device(bytes),
            State::Counted => {}
        }
    }

    /// What passed, once the service ended.
    pub fn passed(self) -> Passed {
        match self.0.into_inner() {
            State::Raw(kept) => Passed {
                screens: Shown::printed(&kept.bytes).into_iter().collect(),
                output_bytes: kept.total,
                ..Passed::default()
            },
            State::Packets { stdout, output, .. } => Passed {
                screens: Shown::printed(&stdout.bytes).into_iter().collect(),
                exit: output.status,
                output_bytes: stdout.total,
                ..Passed::default()
            },
            State::Sync(mut sync) => {
                // A pulled dump or screenshot is a screen; any other file a transfer.
                let (mut screens, mut transfers) = (Vec::new(), Vec::new());
                for transfer in sync.take() {
                    match &transfer {
                        Transfer::Pulled {
                            head,
                            failed: None,
                            path,
                            ..
                        } if let Some(screen) = Screen::of(head) => screens.push(Shown {
                            screen,
                            pulled: Some(path.clone()),
                        }),
                        _ => transfers.push(transfer),
                    }
                }
                Passed {
                    screens,
                    transfers,
                    ..Passed::default()
                }
            }
            State::Counted => Passed::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use tapscope_core::device::shell_v2::{PacketId, frame};

    use super::*;

    const XML: &str = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node text=\"Play\" bounds=\"[0,0][10,10]\"/></hierarchy>";

    #[test]
    fn a_v2_dump_gives_its_screen_and_exit_status_split_anywhere() {
        let mut stream = Vec::new();
        frame(PacketId::Stdout, XML.as_bytes(), &mut stream);
        frame(
            PacketId::Stdout,
            b"UI hierchary dumped to: /dev/tty\n",
            &mut stream,
        );
        frame(PacketId::Exit, &[0], &mut stream);
        for piece in [1, 5, 64, stream.len()] {
            let watch = Watch::of(DeviceService::parse(
                "shell,v2,raw:uiautomator dump /dev/tty",
            ));
            for chunk in stream.chunks(piece) {
                watch.to_client(chunk);
            }
            let passed = watch.passed();
            assert_eq!(
                passed.screens,
                [Shown::printed(XML.as_bytes()).unwrap()],
                "{piece}"
            );
            assert_eq!(passed.screens[0].screen, Screen::Dump(XML.into()));
            assert_eq!(passed.exit, Some(0));
        }
    }

    #[test]
    fn output_that_holds_no_screen_is_counted_not_kept() {
        let watch = Watch::of(DeviceService::parse("exec:cat /sdcard/big"));
        let noise = vec![b'x'; 3 * SNIFF];
        watch.to_client(&noise);
        watch.to_client(&noise);
        let State::Raw(kept) = &*watch.state() else {
            panic!("raw")
        };
        assert_eq!((kept.bytes.len(), kept.total), (SNIFF, 6 * SNIFF as u64));
    }

    #[test]
    fn a_screenshot_is_kept_whole() {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.resize(100_000, 7);
        let watch = Watch::of(DeviceService::parse("exec:screencap -p"));
        for chunk in png.chunks(1000) {
            watch.to_client(chunk);
        }
        let passed = watch.passed();
        assert_eq!(passed.screens[0].screen, Screen::Png(png));
        assert_eq!(passed.exit, None);
    }
}
