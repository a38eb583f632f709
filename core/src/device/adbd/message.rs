//! ADB transport messages: a 24-byte little-endian header (`command, arg0, arg1,
//! data_length, data_crc32, magic`) and its payload, read with every field checked and
//! written whole. The commands themselves, and their codes, are [`Command`]'s.

use std::io::{self, Read};

use super::command::Command;
use super::error::ProtocolError;

/// The oldest protocol version: the receiver checks the data checksum.
pub(super) const VERSION_MIN: u32 = 0x0100_0000;
/// What this device speaks: from this version on the receiver skips the checksum.
pub(super) const VERSION: u32 = 0x0100_0001;
/// The payload limit of the first hosts; a host offering less could not send a banner.
pub(super) const MIN_PEER_PAYLOAD: u32 = 4096;
pub(super) const HEADER_LEN: usize = 24;

/// One message as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Message {
    pub(super) command: Command,
    pub(super) arg0: u32,
    pub(super) arg1: u32,
    pub(super) data: Vec<u8>,
}

/// A header's fields, checked for magic and a known command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    command: Command,
    arg0: u32,
    arg1: u32,
    length: u32,
    checksum: u32,
}

/// The old "CRC": a plain sum of the data bytes.
pub(super) fn checksum(data: &[u8]) -> u32 {
    data.iter()
        .fold(0u32, |sum, byte| sum.wrapping_add(u32::from(*byte)))
}

/// A whole message as bytes. The checksum is always filled in, so old hosts that check
/// it accept us too.
pub(super) fn encode(command: Command, arg0: u32, arg1: u32, data: &[u8]) -> Vec<u8> {
    // Payloads are cut to the negotiated maximum (at most 1 MiB) before they get here.
    let length = data.len() as u32;
    let code = command.code();
    let mut bytes = Vec::with_capacity(HEADER_LEN + data.len());
    for field in [code, arg0, arg1, length, checksum(data), !code] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    bytes.extend_from_slice(data);
    bytes
}

fn decode_header(bytes: &[u8; HEADER_LEN]) -> Result<Header, ProtocolError> {
    let field = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let (code, magic) = (field(0), field(20));
    if magic != !code {
        return Err(ProtocolError::BadMagic {
            command: code,
            magic,
        });
    }
    let command = Command::from_code(code).ok_or(ProtocolError::UnknownCommand(code))?;
    Ok(Header {
        command,
        arg0: field(4),
        arg1: field(8),
        length: field(12),
        checksum: field(16),
    })
}

/// Reads one message: `None` when the peer closed the connection between messages.
/// Payloads over `max_data` are refused before they are read.
pub(super) fn read(
    reader: &mut impl Read,
    max_data: usize,
    verify_checksum: bool,
) -> Result<Option<Message>, ProtocolError> {
    let mut bytes = [0u8; HEADER_LEN];
    let mut filled = 0;
    while filled < HEADER_LEN {
        match reader.read(&mut bytes[filled..]) {
            Ok(0) if filled == 0 => return Ok(None),
            Ok(0) => return Err(ProtocolError::Truncated),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    let header = decode_header(&bytes)?;
    if header.length as usize > max_data {
        return Err(ProtocolError::TooLarge {
            length: header.length,
            max: max_data,
        });
    }
    let mut data = vec![0; header.length as usize];
    reader.read_exact(&mut data).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => ProtocolError::Truncated,
        _ => e.into(),
    })?;
    let sum = checksum(&data);
    if verify_checksum && sum != header.checksum {
        return Err(ProtocolError::Checksum {
            got: header.checksum,
            expected: sum,
        });
    }
    Ok(Some(Message {
        command: header.command,
        arg0: header.arg0,
        arg1: header.arg1,
        data,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CNXN Debian's adb 1.0.41 (29.0.6) sent on `adb connect`, captured byte for byte.
    const HOST_CNXN_HEADER: [u8; 24] = [
        0x43, 0x4e, 0x58, 0x4e, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x10, 0x00, 0x77, 0x00, 0x00,
        0x00, 0x40, 0x2e, 0x00, 0x00, 0xbc, 0xb1, 0xa7, 0xb1,
    ];
    const HOST_BANNER: &[u8] = b"host::features=remount_shell,abb_exec,abb,apex,fixed_push_mkdir,\
ls_v2,stat_v2,fixed_push_symlink_timestamp,cmd,shell_v2";

    fn captured_cnxn() -> Vec<u8> {
        [&HOST_CNXN_HEADER[..], HOST_BANNER].concat()
    }

    #[test]
    fn a_captured_host_cnxn_decodes_and_encodes_back_byte_for_byte() {
        let bytes = captured_cnxn();
        let message = read(&mut &bytes[..], 256 * 1024, true).unwrap().unwrap();
        assert_eq!(message.command, Command::Connect);
        assert_eq!(message.arg0, VERSION);
        assert_eq!(message.arg1, 1024 * 1024);
        assert_eq!(message.data, HOST_BANNER);
        assert_eq!(
            encode(message.command, message.arg0, message.arg1, &message.data),
            bytes
        );
    }

    #[test]
    fn an_empty_okay_is_24_bytes_with_its_magic() {
        let bytes = encode(Command::Okay, 7, 0x1234_5678, &[]);
        assert_eq!(
            bytes,
            [
                b'O', b'K', b'A', b'Y', 7, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0, 0, 0, 0, 0,
                0xb0, 0xb4, 0xbe, 0xa6
            ]
        );
        let back = read(&mut &bytes[..], 0, true).unwrap().unwrap();
        assert_eq!(
            (back.command, back.arg0, back.arg1),
            (Command::Okay, 7, 0x1234_5678)
        );
    }

    #[test]
    fn every_command_round_trips() {
        for command in Command::ALL {
            let bytes = encode(command, 1, 2, b"xyz");
            let back = read(&mut &bytes[..], 3, true).unwrap().unwrap();
            assert_eq!(
                back,
                Message {
                    command,
                    arg0: 1,
                    arg1: 2,
                    data: b"xyz".to_vec()
                }
            );
        }
        assert_eq!(Command::Write.to_string(), "WRTE");
    }

    #[test]
    fn a_clean_end_between_messages_is_none_and_a_cut_one_is_truncated() {
        assert_eq!(read(&mut &[][..], 10, false).unwrap(), None);
        let bytes = captured_cnxn();
        for cut in [1, 23, 24, 100] {
            let err = read(&mut &bytes[..cut], 1 << 20, false).unwrap_err();
            assert!(matches!(err, ProtocolError::Truncated), "{cut}: {err}");
        }
    }

    #[test]
    fn wrong_magic_unknown_commands_and_big_payloads_are_refused() {
        let mut bytes = captured_cnxn();
        bytes[20] ^= 1;
        let err = read(&mut &bytes[..], 1 << 20, false).unwrap_err();
        assert!(matches!(err, ProtocolError::BadMagic { .. }), "{err}");

        let mut unknown = encode(Command::Okay, 0, 0, &[]);
        unknown[..4].copy_from_slice(b"HELO");
        let magic = !u32::from_le_bytes(*b"HELO");
        unknown[20..].copy_from_slice(&magic.to_le_bytes());
        let err = read(&mut &unknown[..], 10, false).unwrap_err();
        assert!(matches!(err, ProtocolError::UnknownCommand(_)), "{err}");

        let err = read(&mut &captured_cnxn()[..], 118, false).unwrap_err();
        assert!(
            err.to_string()
                .contains("119-byte payload is over the 118-byte"),
            "{err}"
        );
    }

    #[test]
    fn checksums_are_checked_only_when_asked() {
        let mut bytes = encode(Command::Write, 1, 2, b"ab");
        assert_eq!(&bytes[16..20], &(97u32 + 98).to_le_bytes());
        bytes[16] = 0;
        assert!(read(&mut &bytes[..], 10, false).is_ok());
        let err = read(&mut &bytes[..], 10, true).unwrap_err();
        assert!(
            matches!(err, ProtocolError::Checksum { expected: 195, .. }),
            "{err}"
        );
    }
}
