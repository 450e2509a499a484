//! A DER reader with the strictness of golang.org/x/crypto/cryptobyte (`String.ReadASN1` and
//! its typed readers), which `crypto/x509`'s certificate parser is built on: one-byte tags,
//! minimal definite lengths, minimal integers, well-padded bit strings.

pub const BOOLEAN: u8 = 0x01;
pub const INTEGER: u8 = 0x02;
pub const BIT_STRING: u8 = 0x03;
pub const OCTET_STRING: u8 = 0x04;
pub const NULL: u8 = 0x05;
pub const OBJECT_IDENTIFIER: u8 = 0x06;
pub const UTF8_STRING: u8 = 0x0c;
pub const SEQUENCE: u8 = 0x30;
pub const SET: u8 = 0x31;
pub const NUMERIC_STRING: u8 = 0x12;
pub const PRINTABLE_STRING: u8 = 0x13;
pub const T61_STRING: u8 = 0x14;
pub const IA5_STRING: u8 = 0x16;
pub const UTC_TIME: u8 = 0x17;
pub const GENERALIZED_TIME: u8 = 0x18;
pub const BMP_STRING: u8 = 0x1e;

/// A context-specific tag, constructed or not (cryptobyte `Tag(n).ContextSpecific()`).
pub const fn context(n: u8, constructed: bool) -> u8 {
    0x80 | n | if constructed { 0x20 } else { 0 }
}

/// The input still to read.
#[derive(Clone, Copy, Debug)]
pub struct Der<'a>(pub &'a [u8]);

impl<'a> Der<'a> {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The next element: its tag, its contents and the whole element (cryptobyte `readASN1`).
    fn element(&mut self) -> Option<(u8, &'a [u8], &'a [u8])> {
        let input = self.0;
        let (&tag, rest) = input.split_first()?;
        let (&first, rest) = rest.split_first()?;
        // Long-form (multi-byte) tags are not supported.
        if tag & 0x1f == 0x1f {
            return None;
        }
        let (header, len) = if first & 0x80 == 0 {
            (2, first as usize)
        } else {
            let count = (first & 0x7f) as usize;
            if count == 0 || count > 4 || rest.len() < count {
                return None;
            }
            let len = rest[..count]
                .iter()
                .fold(0usize, |acc, b| (acc << 8) | *b as usize);
            // The fewest length octets: long form only from 128, no leading zero octet.
            if len < 128 || len >> ((count - 1) * 8) == 0 {
                return None;
            }
            (2 + count, len)
        };
        let end = header.checked_add(len)?;
        if input.len() < end {
            return None;
        }
        self.0 = &input[end..];
        Some((tag, &input[header..end], &input[..end]))
    }

    /// The contents of the next element and its tag (`ReadAnyASN1`).
    pub fn any(&mut self) -> Option<(u8, &'a [u8])> {
        self.element().map(|(tag, contents, _)| (tag, contents))
    }

    /// The next element whole, header included, and its tag (`ReadAnyASN1Element`).
    pub fn any_element(&mut self) -> Option<(u8, &'a [u8])> {
        self.element().map(|(tag, _, whole)| (tag, whole))
    }

    /// The contents of the next element, which must carry `tag` (`ReadASN1`).
    pub fn read(&mut self, tag: u8) -> Option<&'a [u8]> {
        self.any().filter(|(t, _)| *t == tag).map(|(_, c)| c)
    }

    /// The next element whole, which must carry `tag` (`ReadASN1Element`).
    pub fn read_element(&mut self, tag: u8) -> Option<&'a [u8]> {
        self.any_element()
            .filter(|(t, _)| *t == tag)
            .map(|(_, c)| c)
    }

    pub fn peek_tag(&self) -> Option<u8> {
        self.0.first().copied()
    }

    /// An optional element: `Some(None)` when the next tag is another one (`ReadOptionalASN1`).
    pub fn optional(&mut self, tag: u8) -> Option<Option<&'a [u8]>> {
        if self.peek_tag() != Some(tag) {
            return Some(None);
        }
        self.read(tag).map(Some)
    }

    /// The two's-complement bytes of an INTEGER in its minimal encoding (`checkASN1Integer`).
    pub fn integer(&mut self) -> Option<&'a [u8]> {
        let bytes = self.read(INTEGER)?;
        match bytes {
            [] => None,
            [0x00, next, ..] if next & 0x80 == 0 => None,
            [0xff, next, ..] if next & 0x80 != 0 => None,
            _ => Some(bytes),
        }
    }

    /// An INTEGER that fits an `int64`.
    pub fn small_integer(&mut self) -> Option<i64> {
        let bytes = self.integer()?;
        if bytes.len() > 8 {
            return None;
        }
        let negative = bytes[0] & 0x80 != 0;
        let start: i64 = if negative { -1 } else { 0 };
        Some(
            bytes
                .iter()
                .fold(start, |acc, b| (acc << 8) | i64::from(*b)),
        )
    }

    /// A BIT STRING's bytes, right-aligned (`ReadASN1BitString`, then `RightAlign`).
    pub fn bit_string(&mut self) -> Option<Vec<u8>> {
        let (&padding, bytes) = self.read(BIT_STRING)?.split_first()?;
        let last_bits_set = bytes
            .last()
            .is_some_and(|b| u32::from(*b) & ((1u32 << padding.min(8)) - 1) != 0);
        if padding > 7 || (bytes.is_empty() && padding != 0) || last_bits_set {
            return None;
        }
        if padding == 0 {
            return Some(bytes.to_vec());
        }
        let mut out = vec![0u8; bytes.len()];
        out[0] = bytes[0] >> padding;
        for i in 1..bytes.len() {
            out[i] = (bytes[i - 1] << (8 - padding)) | (bytes[i] >> padding);
        }
        Some(out)
    }

    /// An OBJECT IDENTIFIER's components (`ReadASN1ObjectIdentifier`: at most 31-bit
    /// subidentifiers in minimal base-128).
    pub fn oid(&mut self) -> Option<Vec<u64>> {
        let mut bytes = self.read(OBJECT_IDENTIFIER)?;
        if bytes.is_empty() {
            return None;
        }
        let mut components = Vec::new();
        while !bytes.is_empty() {
            let (value, rest) = base128(bytes)?;
            if components.is_empty() {
                let (a, b) = if value < 80 {
                    (value / 40, value % 40)
                } else {
                    (2, value - 80)
                };
                components.extend([a, b]);
            } else {
                components.push(value);
            }
            bytes = rest;
        }
        Some(components)
    }

    /// A BOOLEAN: one octet, `0x00` or `0xff`.
    pub fn boolean(&mut self) -> Option<bool> {
        match self.read(BOOLEAN)? {
            [0x00] => Some(false),
            [0xff] => Some(true),
            _ => None,
        }
    }
}

/// One base-128 subidentifier and the bytes after it.
fn base128(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut value = 0u64;
    for (i, b) in bytes.iter().enumerate() {
        if i == 5 || value >= 1 << (31 - 7) || (i == 0 && *b == 0x80) {
            return None;
        }
        value = (value << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some((value, &bytes[i + 1..]));
        }
    }
    None
}

/// An OID in Go's dotted form (`asn1.ObjectIdentifier.String`).
pub fn dotted(oid: &[u64]) -> String {
    oid.iter().map(u64::to_string).collect::<Vec<_>>().join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_integers_must_be_minimal() {
        assert_eq!(Der(&[0x02, 0x01, 0x05]).integer(), Some(&[5u8][..]));
        assert_eq!(Der(&[0x02, 0x02, 0x00, 0x05]).integer(), None);
        assert_eq!(
            Der(&[0x02, 0x02, 0x00, 0x85]).integer().map(<[u8]>::len),
            Some(2)
        );
        assert_eq!(Der(&[0x02, 0x81, 0x01, 0x05]).integer(), None);
        assert_eq!(Der(&[0x02, 0x80, 0x05, 0x00, 0x00]).integer(), None);
        assert_eq!(Der(&[0x02, 0x01, 0xff]).small_integer(), Some(-1));
    }

    #[test]
    fn oids_and_bit_strings() {
        let rsa = [
            0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
        ];
        assert_eq!(dotted(&Der(&rsa).oid().unwrap()), "1.2.840.113549.1.1.1");
        assert_eq!(Der(&[0x06, 0x02, 0x80, 0x01]).oid(), None);
        assert_eq!(
            Der(&[0x03, 0x02, 0x01, 0x02]).bit_string(),
            Some(vec![0x01])
        );
        assert_eq!(Der(&[0x03, 0x02, 0x01, 0x01]).bit_string(), None);
        assert_eq!(Der(&[0x03, 0x01, 0x01]).bit_string(), None);
    }
}
