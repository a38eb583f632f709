//! Shell protocol v2 packets, `[id u8][length u32 LE][data]` (AOSP `shell_protocol.h`):
//! framed for output, and decoded incrementally from bytes that may split or join packets
//! anywhere. The sim's `adbd` reads a host's input with it, tapscope's ADB client a
//! command's output, and the proxy both directions as they pass.

/// The packet kinds of `shell_protocol.h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketId {
    Stdin = 0,
    Stdout = 1,
    Stderr = 2,
    Exit = 3,
    CloseStdin = 4,
    WindowSizeChange = 5,
}

impl PacketId {
    /// The kind of a packet's id byte; `None` for an id no side sends.
    pub fn of(id: u8) -> Option<PacketId> {
        Some(match id {
            0 => PacketId::Stdin,
            1 => PacketId::Stdout,
            2 => PacketId::Stderr,
            3 => PacketId::Exit,
            4 => PacketId::CloseStdin,
            5 => PacketId::WindowSizeChange,
            _ => return None,
        })
    }
}

pub const HEADER_LEN: usize = 5;
/// Output is cut into packets of at most this much data, so a reader needs no more.
pub const MAX_PACKET_DATA: usize = 64 * 1024;

/// Appends `data` as packets of kind `id`; nothing for empty data.
pub fn frame(id: PacketId, data: &[u8], out: &mut Vec<u8>) {
    for piece in data.chunks(MAX_PACKET_DATA) {
        out.push(id as u8);
        out.extend_from_slice(&(piece.len() as u32).to_le_bytes());
        out.extend_from_slice(piece);
    }
}

/// What the bytes pushed so far held, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A packet's header: its id byte and how much data follows.
    Start { id: u8, length: u32 },
    /// Some of the current packet's data, handed on as soon as it comes.
    Data { id: u8, data: &'a [u8] },
}

/// Decodes packets from bytes as they arrive.
#[derive(Debug, Default)]
pub struct Decoder {
    header: [u8; HEADER_LEN],
    header_len: usize,
    /// Data bytes of the current packet still to come.
    remaining: usize,
}

impl Decoder {
    /// Decodes `bytes`, handing each header and each piece of data to `each`.
    pub fn push<'a>(&mut self, mut bytes: &'a [u8], mut each: impl FnMut(Event<'a>)) {
        while !bytes.is_empty() {
            if self.remaining == 0 {
                let take = (HEADER_LEN - self.header_len).min(bytes.len());
                self.header[self.header_len..self.header_len + take]
                    .copy_from_slice(&bytes[..take]);
                self.header_len += take;
                bytes = &bytes[take..];
                if self.header_len < HEADER_LEN {
                    return;
                }
                self.header_len = 0;
                let [id, a, b, c, d] = self.header;
                let length = u32::from_le_bytes([a, b, c, d]);
                self.remaining = length as usize;
                each(Event::Start { id, length });
                continue;
            }
            let take = self.remaining.min(bytes.len());
            each(Event::Data {
                id: self.header[0],
                data: &bytes[..take],
            });
            self.remaining -= take;
            bytes = &bytes[take..];
        }
    }
}

/// What a host sent that a shell acts on: its input, and the end of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEvent {
    Stdin(Vec<u8>),
    CloseStdin,
}

/// The host's packets in `bytes` that a shell acts on; window size changes, and kinds a
/// host should not send, are read and dropped.
pub fn host_events(decoder: &mut Decoder, bytes: &[u8], events: &mut Vec<HostEvent>) {
    decoder.push(bytes, |event| match event {
        Event::Start { id, .. } if id == PacketId::CloseStdin as u8 => {
            events.push(HostEvent::CloseStdin);
        }
        Event::Data { id, data } if id == PacketId::Stdin as u8 => {
            events.push(HostEvent::Stdin(data.to_vec()));
        }
        _ => {}
    });
}

/// What a command printed and how it ended, from a whole shell v2 stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Its exit status; `None` when the stream ended before saying it.
    pub status: Option<u8>,
}

impl Output {
    /// A device's whole stream decoded; a packet cut short by its end keeps what arrived.
    pub fn of(bytes: &[u8]) -> Output {
        let mut output = Output::default();
        Decoder::default().push(bytes, |event| output.take(event));
        output
    }

    /// Adds one decoded event of a device's stream.
    pub fn take(&mut self, event: Event<'_>) {
        let Event::Data { id, data } = event else {
            return;
        };
        match PacketId::of(id) {
            Some(PacketId::Stdout) => self.stdout.extend_from_slice(data),
            Some(PacketId::Stderr) => self.stderr.extend_from_slice(data),
            Some(PacketId::Exit) => self.status = data.first().copied(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(bytes: &[u8], piece: usize) -> Vec<HostEvent> {
        let mut decoder = Decoder::default();
        let mut events = Vec::new();
        for chunk in bytes.chunks(piece) {
            host_events(&mut decoder, chunk, &mut events);
        }
        events
    }

    /// Joins consecutive stdin pieces, which the decoder may hand over split.
    fn joined(events: Vec<HostEvent>) -> Vec<HostEvent> {
        let mut out: Vec<HostEvent> = Vec::new();
        for event in events {
            match (out.last_mut(), event) {
                (Some(HostEvent::Stdin(last)), HostEvent::Stdin(more)) => last.extend(more),
                (_, event) => out.push(event),
            }
        }
        out
    }

    #[test]
    fn frames_are_id_length_data() {
        let mut out = Vec::new();
        frame(PacketId::Stdout, b"hi\n", &mut out);
        frame(PacketId::Exit, &[3], &mut out);
        frame(PacketId::Stderr, b"", &mut out);
        assert_eq!(out, [1, 3, 0, 0, 0, b'h', b'i', b'\n', 3, 1, 0, 0, 0, 3]);
    }

    #[test]
    fn long_output_is_cut_into_bounded_packets() {
        let data = vec![7u8; MAX_PACKET_DATA * 2 + 10];
        let mut out = Vec::new();
        frame(PacketId::Stdout, &data, &mut out);
        assert_eq!(out.len(), data.len() + 3 * HEADER_LEN);
        assert_eq!(&out[1..5], &(MAX_PACKET_DATA as u32).to_le_bytes());
        let last = 2 * (HEADER_LEN + MAX_PACKET_DATA);
        assert_eq!(&out[last..last + 5], &[1, 10, 0, 0, 0]);
    }

    #[test]
    fn host_packets_decode_however_they_are_split() {
        // What `echo ls | adb shell` sends: stdin, then close-stdin; a window size between.
        let mut bytes = vec![0, 3, 0, 0, 0, b'l', b's', b'\n'];
        bytes.extend_from_slice(&[5, 9, 0, 0, 0]);
        bytes.extend_from_slice(b"24x80,0x0");
        bytes.extend_from_slice(&[4, 0, 0, 0, 0]);
        let expected = vec![HostEvent::Stdin(b"ls\n".to_vec()), HostEvent::CloseStdin];
        for piece in [1, 2, 3, 5, 7, bytes.len()] {
            assert_eq!(joined(decode_in_pieces(&bytes, piece)), expected, "{piece}");
        }
    }

    #[test]
    fn stdin_data_is_passed_on_before_its_packet_ends() {
        let mut decoder = Decoder::default();
        let mut events = Vec::new();
        host_events(&mut decoder, &[0, 4, 0, 0, 0, b'a', b'b'], &mut events);
        assert_eq!(events, [HostEvent::Stdin(b"ab".to_vec())]);
        events.clear();
        host_events(&mut decoder, b"cd", &mut events);
        assert_eq!(events, [HostEvent::Stdin(b"cd".to_vec())]);
    }

    #[test]
    fn output_kinds_from_the_host_are_skipped() {
        let mut bytes = Vec::new();
        frame(PacketId::Stdout, b"ignored", &mut bytes);
        frame(PacketId::Exit, &[9], &mut bytes);
        frame(PacketId::Stdin, b"kept", &mut bytes);
        assert_eq!(
            joined(decode_in_pieces(&bytes, 4)),
            [HostEvent::Stdin(b"kept".to_vec())]
        );
    }

    #[test]
    fn a_device_stream_keeps_output_errors_and_status_apart() {
        // Captured from a shell v2 stream: "hi\n" on stdout, "oops\n" on stderr, exit 3.
        let bytes = b"\x01\x03\x00\x00\x00hi\n\x02\x05\x00\x00\x00oops\n\x03\x01\x00\x00\x00\x03";
        assert_eq!(
            Output::of(bytes),
            Output {
                stdout: b"hi\n".to_vec(),
                stderr: b"oops\n".to_vec(),
                status: Some(3),
            }
        );
        // Cut short: what arrived is kept, the status is unknown.
        let cut = Output::of(&bytes[..6]);
        assert_eq!((cut.stdout, cut.status), (b"h".to_vec(), None));
        assert_eq!(Output::of(b""), Output::default());
        // Split anywhere, decoded incrementally, it is the same.
        for piece in [1, 4, 7] {
            let mut decoder = Decoder::default();
            let mut output = Output::default();
            for chunk in bytes.chunks(piece) {
                decoder.push(chunk, |event| output.take(event));
            }
            assert_eq!(output, Output::of(bytes), "{piece}");
        }
    }
}
