//! Shell protocol v2 packets, `[id u8][length u32 LE][data]`: framed for output and
//! decoded incrementally from host input, which may split or join packets anywhere.

/// The packet kinds of AOSP's `shell_protocol.h` that this side reads or writes; the
/// host's window size changes (5) are read and dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum PacketId {
    Stdin = 0,
    Stdout = 1,
    Stderr = 2,
    Exit = 3,
    CloseStdin = 4,
}

pub(super) const HEADER_LEN: usize = 5;
/// Output is cut into packets of at most this much data, so a reader needs no more.
pub(super) const MAX_PACKET_DATA: usize = 64 * 1024;

/// Appends `data` as packets of kind `id`; nothing for empty data.
pub(super) fn frame(id: PacketId, data: &[u8], out: &mut Vec<u8>) {
    for piece in data.chunks(MAX_PACKET_DATA) {
        out.push(id as u8);
        out.extend_from_slice(&(piece.len() as u32).to_le_bytes());
        out.extend_from_slice(piece);
    }
}

/// What the host sent that the shell acts on. Window size changes, and kinds a host
/// should not send, are read and dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum HostEvent {
    Stdin(Vec<u8>),
    CloseStdin,
}

/// Decodes host packets from bytes as they arrive; stdin data is passed on as soon as it
/// comes, without waiting for the rest of its packet.
#[derive(Debug, Default)]
pub(super) struct Decoder {
    header: [u8; HEADER_LEN],
    header_len: usize,
    /// Data bytes of the current packet still to come.
    remaining: usize,
}

impl Decoder {
    pub(super) fn push(&mut self, mut bytes: &[u8], events: &mut Vec<HostEvent>) {
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
                let [_, a, b, c, d] = self.header;
                self.remaining = u32::from_le_bytes([a, b, c, d]) as usize;
                if self.id() == PacketId::CloseStdin as u8 {
                    events.push(HostEvent::CloseStdin);
                }
                continue;
            }
            let take = self.remaining.min(bytes.len());
            if self.id() == PacketId::Stdin as u8 {
                events.push(HostEvent::Stdin(bytes[..take].to_vec()));
            }
            self.remaining -= take;
            bytes = &bytes[take..];
        }
    }

    fn id(&self) -> u8 {
        self.header[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(bytes: &[u8], piece: usize) -> Vec<HostEvent> {
        let mut decoder = Decoder::default();
        let mut events = Vec::new();
        for chunk in bytes.chunks(piece) {
            decoder.push(chunk, &mut events);
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
        decoder.push(&[0, 4, 0, 0, 0, b'a', b'b'], &mut events);
        assert_eq!(events, [HostEvent::Stdin(b"ab".to_vec())]);
        events.clear();
        decoder.push(b"cd", &mut events);
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
}
