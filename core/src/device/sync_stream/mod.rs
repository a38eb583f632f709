//! A `sync:` stream read as it passes between a host and a device (the proxy's view):
//! which files were pulled, with the first bytes of each, and which were pushed, with
//! their size. Nothing is held but what is asked for: a push's data is only counted.
//!
//! The host's requests are `[id: 4 bytes][length u32 LE][data]` (AOSP `file_sync_protocol.h`);
//! each device reply has the shape its request gives it, so the decoder pairs them in
//! order. A stream it cannot follow (a kind it does not know) is given up on: every byte
//! still passes, none is read further.

use std::collections::VecDeque;

use super::adb_command::{SNIFF, may_hold_screen};

/// A request's or reply's 4-byte id as the protocol's little-endian word; shared with
/// the sim's `adbd`, which answers these.
const fn id(tag: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*tag)
}

pub(crate) const STAT: u32 = id(b"STAT");
pub(crate) const STAT_V2: u32 = id(b"STA2");
pub(crate) const LSTAT_V2: u32 = id(b"LST2");
pub(crate) const LIST: u32 = id(b"LIST");
pub(crate) const LIST_V2: u32 = id(b"LIS2");
pub(crate) const SEND: u32 = id(b"SEND");
const SEND_V2: u32 = id(b"SND2");
pub(crate) const RECV: u32 = id(b"RECV");
const RECV_V2: u32 = id(b"RCV2");
pub(crate) const QUIT: u32 = id(b"QUIT");
pub(crate) const DATA: u32 = id(b"DATA");
pub(crate) const DONE: u32 = id(b"DONE");
const OKAY: u32 = id(b"OKAY");
pub(crate) const FAIL: u32 = id(b"FAIL");

/// Longer paths than adbd accepts mean the stream is not what it seems.
const MAX_PATH: usize = 4096;
/// The longest FAIL reason read.
const MAX_REASON: usize = 4096;
/// A STAT reply; a STA2 or LST2 one; a LIST entry's fixed part; a LIS2 one's.
const STAT_V1_LEN: usize = 16;
const STAT_V2_LEN: usize = 72;
pub(crate) const DENT_V1_LEN: usize = 20;
pub(crate) const DENT_V2_LEN: usize = 76;

/// A transfer the stream made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transfer {
    /// A file read from the device.
    Pulled {
        path: String,
        /// Its whole size.
        size: u64,
        /// Its first bytes: up to the decoder's capture limit when they may hold a screen
        /// (`adb_command::may_hold_screen`), else its first [`SNIFF`].
        head: Vec<u8>,
        /// The device refused it: the reason.
        failed: Option<String>,
    },
    /// A file written to the device.
    Pushed {
        path: String,
        size: u64,
        failed: Option<String>,
    },
}

/// What the decoder waits for next from one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// An 8-byte frame header.
    Header,
    /// The path of the request whose id is given, `len` bytes.
    Path { request: u32, len: usize },
    /// The second header of RCV2 (8 bytes) or SND2 (12 bytes).
    Flags { request: u32, len: usize },
    /// `len` bytes of data to pass (DATA payloads).
    Data { len: usize },
    /// A FAIL's reason, `len` bytes.
    Reason { len: usize },
    /// The rest of a fixed-size reply or listing entry (its first 8 bytes read); an
    /// entry's last 4 bytes are its name's length.
    Rest { len: usize, named: bool },
    /// A listing entry's name.
    Name { len: usize },
    /// The stream could not be followed.
    Lost,
}

/// One direction's bytes, gathered until what is wanted is whole.
#[derive(Debug)]
struct Side {
    want: Want,
    buffer: Vec<u8>,
}

impl Side {
    fn new() -> Self {
        Self {
            want: Want::Header,
            buffer: Vec::new(),
        }
    }

    /// How many bytes the current want still needs, and whether they are gathered.
    fn needed(&self) -> (usize, bool) {
        match self.want {
            Want::Header => (8, true),
            Want::Path { len, .. }
            | Want::Flags { len, .. }
            | Want::Reason { len }
            | Want::Name { len } => (len, true),
            Want::Rest { len, .. } => (len, true),
            Want::Data { len } => (len, false),
            Want::Lost => (usize::MAX, false),
        }
    }
}

/// The request a device reply answers.
#[derive(Clone, Debug)]
enum Pending {
    Stat(usize),
    List { entry: usize },
    Recv { path: String },
    Send { path: String },
}

/// Both directions of one `sync:` stream.
#[derive(Debug)]
pub struct SyncDecoder {
    host: Side,
    device: Side,
    /// How many bytes of each pulled file to keep.
    capture: usize,
    /// Requests sent whose replies have not begun.
    pending: VecDeque<Pending>,
    /// A push whose data is coming from the host: its path and bytes so far.
    pushing: Option<(String, u64)>,
    /// Pushes whose data ended, awaiting the device's OKAY or FAIL.
    pushed: VecDeque<(String, u64)>,
    /// The pull whose reply is coming: path, size so far, head.
    pulling: Option<(String, u64, Vec<u8>)>,
    /// What the reply being read answers, once its header came.
    replying: Option<Pending>,
    done: Vec<Transfer>,
}

impl SyncDecoder {
    /// A decoder keeping the first `capture` bytes of each pulled file.
    pub fn new(capture: usize) -> Self {
        Self {
            host: Side::new(),
            device: Side::new(),
            capture,
            pending: VecDeque::new(),
            pushing: None,
            pushed: VecDeque::new(),
            pulling: None,
            replying: None,
            done: Vec::new(),
        }
    }

    /// Whether the stream was given up on.
    pub fn lost(&self) -> bool {
        self.host.want == Want::Lost || self.device.want == Want::Lost
    }

    /// The transfers finished since the last call.
    pub fn take(&mut self) -> Vec<Transfer> {
        std::mem::take(&mut self.done)
    }

    /// Bytes the host sent.
    pub fn from_host(&mut self, bytes: &[u8]) {
        self.feed(bytes, true);
    }

    /// Bytes the device sent.
    pub fn from_device(&mut self, bytes: &[u8]) {
        self.feed(bytes, false);
    }

    fn side(&mut self, host: bool) -> &mut Side {
        if host {
            &mut self.host
        } else {
            &mut self.device
        }
    }

    fn feed(&mut self, mut bytes: &[u8], host: bool) {
        while !bytes.is_empty() {
            let (needed, gathered) = self.side(host).needed();
            if self.side(host).want == Want::Lost {
                return;
            }
            if !gathered {
                let take = needed.min(bytes.len());
                self.data(&bytes[..take], host);
                bytes = &bytes[take..];
                let side = self.side(host);
                if let Want::Data { len } = &mut side.want {
                    *len -= take;
                    if *len == 0 {
                        side.want = Want::Header;
                    }
                }
                continue;
            }
            let side = self.side(host);
            let take = (needed - side.buffer.len()).min(bytes.len());
            side.buffer.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if side.buffer.len() < needed {
                return;
            }
            let whole = std::mem::take(&mut side.buffer);
            let want = side.want;
            let next = if host {
                self.host_part(want, &whole)
            } else {
                self.device_part(want, &whole)
            };
            self.side(host).want = next;
        }
    }

    /// Passing data: a push's is counted, a pull's kept up to the capture limit.
    fn data(&mut self, bytes: &[u8], host: bool) {
        if host {
            if let Some((_, size)) = &mut self.pushing {
                *size += bytes.len() as u64;
            }
        } else if let Some((_, size, head)) = &mut self.pulling {
            *size += bytes.len() as u64;
            // A file that starts as no screen does is kept no further than that start.
            let limit = if head.len() >= SNIFF && !may_hold_screen(&head[..SNIFF]) {
                SNIFF
            } else {
                self.capture
            };
            let room = limit.saturating_sub(head.len());
            head.extend_from_slice(&bytes[..room.min(bytes.len())]);
        }
    }

    fn host_part(&mut self, want: Want, whole: &[u8]) -> Want {
        match want {
            Want::Header => {
                let (request, len) = split(whole);
                let len = len as usize;
                match request {
                    STAT | STAT_V2 | LSTAT_V2 | LIST | LIST_V2 | RECV | RECV_V2 | SEND
                    | SEND_V2
                        if len <= MAX_PATH =>
                    {
                        Want::Path { request, len }
                    }
                    DATA if self.pushing.is_some() => Want::Data { len },
                    DONE if self.pushing.is_some() => {
                        self.pushed.extend(self.pushing.take());
                        Want::Header
                    }
                    QUIT => Want::Header,
                    _ => Want::Lost,
                }
            }
            Want::Path { request, .. } => {
                let path = String::from_utf8_lossy(whole).into_owned();
                match request {
                    STAT => self.pending.push_back(Pending::Stat(STAT_V1_LEN)),
                    STAT_V2 | LSTAT_V2 => self.pending.push_back(Pending::Stat(STAT_V2_LEN)),
                    LIST => self.pending.push_back(Pending::List { entry: DENT_V1_LEN }),
                    LIST_V2 => self.pending.push_back(Pending::List { entry: DENT_V2_LEN }),
                    RECV => self.pending.push_back(Pending::Recv { path }),
                    RECV_V2 => {
                        self.pending.push_back(Pending::Recv { path });
                        return Want::Flags { request, len: 8 };
                    }
                    SEND | SEND_V2 => {
                        // SEND's is "path,mode"; SND2 gives the mode in its second header.
                        let path = match path.rsplit_once(',') {
                            Some((path, _)) if request == SEND => path.to_owned(),
                            _ => path,
                        };
                        self.pending.push_back(Pending::Send { path: path.clone() });
                        self.pushing = Some((path, 0));
                        if request == SEND_V2 {
                            return Want::Flags { request, len: 12 };
                        }
                    }
                    _ => {}
                }
                Want::Header
            }
            Want::Flags { .. } => Want::Header,
            _ => Want::Lost,
        }
    }

    fn device_part(&mut self, want: Want, whole: &[u8]) -> Want {
        match want {
            Want::Header => self.reply_header(whole),
            Want::Rest { named: false, .. } => {
                self.replying = None;
                Want::Header
            }
            Want::Rest { named: true, .. } => {
                let at = whole.len() - 4;
                let name =
                    u32::from_le_bytes([whole[at], whole[at + 1], whole[at + 2], whole[at + 3]])
                        as usize;
                match name {
                    0 => Want::Header,
                    n if n <= MAX_PATH => Want::Name { len: n },
                    _ => Want::Lost,
                }
            }
            Want::Name { .. } => Want::Header,
            Want::Reason { .. } => {
                let reason = String::from_utf8_lossy(whole).into_owned();
                self.finish(Some(reason));
                Want::Header
            }
            _ => Want::Lost,
        }
    }

    /// The first 8 bytes of a reply: what it is depends on the request it answers.
    fn reply_header(&mut self, header: &[u8]) -> Want {
        let (kind, value) = split(header);
        if self.replying.is_none() {
            self.replying = self.pending.pop_front();
            if let Some(Pending::Recv { path }) = &self.replying {
                self.pulling = Some((path.clone(), 0, Vec::new()));
            }
        }
        match self.replying.clone() {
            Some(Pending::Stat(len)) => Want::Rest {
                len: len - 8,
                named: false,
            },
            Some(Pending::List { entry }) => {
                if kind == DONE {
                    self.replying = None;
                }
                Want::Rest {
                    len: entry - 8,
                    named: true,
                }
            }
            Some(Pending::Recv { .. }) => match kind {
                DATA => Want::Data {
                    len: value as usize,
                },
                DONE => {
                    self.finish(None);
                    Want::Header
                }
                FAIL if (value as usize) <= MAX_REASON => Want::Reason {
                    len: value as usize,
                },
                _ => Want::Lost,
            },
            Some(Pending::Send { .. }) => match kind {
                OKAY => {
                    self.finish(None);
                    Want::Header
                }
                FAIL if (value as usize) <= MAX_REASON => Want::Reason {
                    len: value as usize,
                },
                _ => Want::Lost,
            },
            None => Want::Lost,
        }
    }

    /// The reply being read is complete: a pull or push is done.
    fn finish(&mut self, failed: Option<String>) {
        match self.replying.take() {
            Some(Pending::Recv { .. }) => {
                if let Some((path, size, head)) = self.pulling.take() {
                    self.done.push(Transfer::Pulled {
                        path,
                        size,
                        head,
                        failed,
                    });
                }
            }
            Some(Pending::Send { path }) => {
                let size = match self.pushed.pop_front() {
                    Some((_, size)) => size,
                    // A refusal before the data ended.
                    None => self.pushing.take().map_or(0, |(_, size)| size),
                };
                self.done.push(Transfer::Pushed { path, size, failed });
            }
            _ => {}
        }
    }
}

fn split(header: &[u8]) -> (u32, u32) {
    let word = |at: usize| {
        u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    (word(0), word(4))
}

#[cfg(test)]
mod tests;
