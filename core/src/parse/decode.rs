//! Turns dump bytes into text: UTF-8 (with or without BOM) and UTF-16 LE/BE.

use std::borrow::Cow;

use crate::error::{Error, Result};

/// Decodes dump bytes to text.
///
/// UTF-16 is recognised by its byte-order mark, or, without one, by the NUL bytes
/// of an ASCII first character (`<\0` or `\0<`), as Windows shells write redirected dumps.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>> {
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8(rest, 3),
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes, "UTF-16LE", 2),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes, "UTF-16BE", 2),
        [first, 0, ..] if first.is_ascii() && *first != 0 => {
            utf16(bytes, u16::from_le_bytes, "UTF-16LE", 0)
        }
        [0, second, ..] if second.is_ascii() && *second != 0 => {
            utf16(bytes, u16::from_be_bytes, "UTF-16BE", 0)
        }
        _ => utf8(bytes, 0),
    }
}

fn utf8(bytes: &[u8], skipped: usize) -> Result<Cow<'_, str>> {
    std::str::from_utf8(bytes)
        .map(Cow::Borrowed)
        .map_err(|e| Error::Encoding {
            encoding: "UTF-8",
            offset: skipped + e.valid_up_to(),
        })
}

fn utf16(
    bytes: &[u8],
    unit: fn([u8; 2]) -> u16,
    encoding: &'static str,
    skipped: usize,
) -> Result<Cow<'static, str>> {
    if !bytes.len().is_multiple_of(2) {
        return Err(Error::Encoding {
            encoding,
            offset: skipped + bytes.len() - 1,
        });
    }
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    let mut text = String::with_capacity(bytes.len() / 2);
    for (index, decoded) in char::decode_utf16(units).enumerate() {
        match decoded {
            Ok(c) => text.push(c),
            Err(_) => {
                return Err(Error::Encoding {
                    encoding,
                    offset: skipped + index * 2,
                });
            }
        }
    }
    Ok(Cow::Owned(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16_bytes(text: &str, bom: bool, little: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let units = bom
            .then_some(0xFEFF_u16)
            .into_iter()
            .chain(text.encode_utf16());
        for u in units {
            out.extend(if little {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            });
        }
        out
    }

    #[test]
    fn decodes_every_dump_encoding_to_the_same_text() {
        let text = "<hierarchy>😀 Привет</hierarchy>";
        assert_eq!(decode(text.as_bytes()).unwrap(), text);
        let with_bom = [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat();
        assert_eq!(decode(&with_bom).unwrap(), text);
        for (bom, little) in [(true, true), (true, false), (false, true), (false, false)] {
            assert_eq!(
                decode(&utf16_bytes(text, bom, little)).unwrap(),
                text,
                "bom={bom} le={little}"
            );
        }
    }

    #[test]
    fn reports_where_the_encoding_breaks() {
        let err = decode(b"<a>\xff</a>").unwrap_err();
        assert!(
            matches!(
                err,
                Error::Encoding {
                    encoding: "UTF-8",
                    offset: 3
                }
            ),
            "{err}"
        );
        let odd = [0xFF, 0xFE, b'<', 0, b'a'];
        assert!(matches!(
            decode(&odd).unwrap_err(),
            Error::Encoding {
                encoding: "UTF-16LE",
                offset: 4
            }
        ));
        let lone_surrogate = [0xFF, 0xFE, 0x00, 0xD8, b'a', 0];
        assert!(matches!(
            decode(&lone_surrogate).unwrap_err(),
            Error::Encoding { offset: 2, .. }
        ));
    }
}
