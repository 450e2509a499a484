//! The `uri` and `email` formats, which kube-openapi checks with Go's standard library:
//! govalidator's `IsRequestURI` is `net/url.ParseRequestURI` succeeding, strfmt's `IsEmail` is
//! `net/mail.ParseAddress` succeeding with an address. Only whether Go accepts the string
//! matters here (the format error quotes the value, not Go's reason): the URI is parsed by
//! `go_url.rs`, the address by a recogniser that follows Go's parser step by step;
//! `testdata/formats/go_net.jsonl` holds the answers of Go itself for 963 strings, checked by the
//! tests below.

use super::go_url;
use std::net::IpAddr;

/// Go `net/url.ParseRequestURI` succeeding: an absolute URI or an absolute path (the parser of
/// `go_url.rs`, which the CEL URL library shares).
pub fn is_request_uri(raw: &str) -> bool {
    go_url::parse_request_uri(raw).is_ok()
}

/// Go `net/mail.ParseAddress` (message.go `parseSingleAddress`): one mailbox, as an addr-spec
/// or `display name <addr-spec>`, or a group of exactly one; comments allowed where Go skips
/// them.
pub fn is_mail_address(s: &str) -> bool {
    let mut p = Parser { s };
    matches!(p.address(true), Ok(n) if n == 1) && p.skip_cfws() && p.s.is_empty()
}

/// Go's `addrParser`: the unread rest of the input. Each method consumes what it recognises;
/// a failed `addr_spec` leaves the input as it found it.
struct Parser<'a> {
    s: &'a str,
}

/// A parse failure (Go's error values; their texts do not matter here).
struct Bad;

impl<'a> Parser<'a> {
    /// message.go `parseAddress`: how many addresses were read.
    fn address(&mut self, group: bool) -> Result<usize, Bad> {
        self.skip_space();
        if self.s.is_empty() {
            return Err(Bad);
        }
        if self.addr_spec().is_ok() {
            self.skip_space();
            if self.s.starts_with('(') {
                self.display_name_comment()?;
            }
            return Ok(1);
        }
        if !self.s.starts_with('<') {
            self.phrase()?;
        }
        self.skip_space();
        if group && self.consume(b':') {
            return self.group_list();
        }
        if !self.consume(b'<') {
            return Err(Bad);
        }
        self.addr_spec()?;
        if !self.consume(b'>') {
            return Err(Bad);
        }
        Ok(1)
    }

    /// message.go `consumeGroupList`.
    fn group_list(&mut self) -> Result<usize, Bad> {
        self.skip_space();
        if self.consume(b';') {
            return if self.skip_cfws() { Ok(0) } else { Err(Bad) };
        }
        let mut count = 0;
        loop {
            self.skip_space();
            count += self.address(false)?;
            if !self.skip_cfws() {
                return Err(Bad);
            }
            if self.consume(b';') {
                return if self.skip_cfws() {
                    Ok(count)
                } else {
                    Err(Bad)
                };
            }
            if !self.consume(b',') {
                return Err(Bad);
            }
        }
    }

    /// message.go `consumeAddrSpec`: local part (dot-atom or quoted string), `@`, domain
    /// (dot-atom or domain literal).
    fn addr_spec(&mut self) -> Result<(), Bad> {
        let start = self.s;
        let result = self.addr_spec_parts();
        if result.is_err() {
            self.s = start;
        }
        result
    }

    fn addr_spec_parts(&mut self) -> Result<(), Bad> {
        self.skip_space();
        if self.s.is_empty() {
            return Err(Bad);
        }
        if self.s.starts_with('"') {
            if self.quoted_string()?.is_empty() {
                return Err(Bad);
            }
        } else {
            self.atom(false)?;
        }
        if !self.consume(b'@') {
            return Err(Bad);
        }
        self.skip_space();
        if self.s.is_empty() {
            return Err(Bad);
        }
        if self.s.starts_with('[') {
            self.domain_literal()
        } else {
            self.atom(false).map(drop)
        }
    }

    /// message.go `consumePhrase`: words (atoms, quoted strings, encoded words); an error after
    /// the first word ends the phrase instead of failing it.
    fn phrase(&mut self) -> Result<String, Bad> {
        let mut words: Vec<String> = Vec::new();
        loop {
            if !words.is_empty() && !self.skip_cfws() {
                return Err(Bad);
            }
            self.skip_space();
            if self.s.is_empty() {
                break;
            }
            let word = if self.s.starts_with('"') {
                self.quoted_string()
            } else {
                self.atom(true)
                    .and_then(|w| encoded_word_charset_ok(w).then(|| w.to_owned()).ok_or(Bad))
            };
            match word {
                Ok(w) => words.push(w),
                Err(_) if words.is_empty() => return Err(Bad),
                Err(_) => break,
            }
        }
        Ok(words.join(" "))
    }

    /// message.go `consumeQuotedString`: the content of `"…"` with `\` escapes.
    fn quoted_string(&mut self) -> Result<String, Bad> {
        let mut content = String::new();
        let mut escaped = false;
        let mut chars = self.s.char_indices().skip(1);
        loop {
            let (i, c) = chars.next().ok_or(Bad)?;
            if escaped {
                if !is_vchar(c) && !is_wsp(c) {
                    return Err(Bad);
                }
                content.push(c);
                escaped = false;
            } else if is_qtext(c) || is_wsp(c) {
                content.push(c);
            } else if c == '"' {
                self.s = &self.s[i + 1..];
                return Ok(content);
            } else if c == '\\' {
                escaped = true;
            } else {
                return Err(Bad);
            }
        }
    }

    /// message.go `consumeAtom` with dots allowed; `permissive` accepts leading, trailing and
    /// doubled dots.
    fn atom(&mut self, permissive: bool) -> Result<&'a str, Bad> {
        let end = self
            .s
            .char_indices()
            .find(|&(_, c)| !is_atext(c))
            .map_or(self.s.len(), |(i, _)| i);
        if end == 0 {
            return Err(Bad);
        }
        let (atom, rest) = self.s.split_at(end);
        if !permissive && (atom.starts_with('.') || atom.ends_with('.') || atom.contains("..")) {
            return Err(Bad);
        }
        self.s = rest;
        Ok(atom)
    }

    /// message.go `consumeDomainLiteral`: `[IPv4]` or `[IPv6:address]`.
    fn domain_literal(&mut self) -> Result<(), Bad> {
        self.consume(b'[');
        let end = self.s.find(']').ok_or(Bad)?;
        let text = &self.s[..end];
        if !text
            .chars()
            .all(|c| is_vchar(c) && !matches!(c, '[' | '\\'))
        {
            return Err(Bad);
        }
        self.s = &self.s[end + 1..];
        let ok = match text.strip_prefix("IPv6:") {
            // Go's 16-byte form holds IPv4 addresses too.
            Some(v6) => go_parse_ip(v6).is_some(),
            None => go_parse_ip(text).is_some_and(|ip| match ip {
                IpAddr::V4(_) => true,
                IpAddr::V6(v6) => v6.to_ipv4_mapped().is_some(),
            }),
        };
        if ok {
            Ok(())
        } else {
            Err(Bad)
        }
    }

    /// message.go `consumeDisplayNameComment`: a comment after an addr-spec, whose words may
    /// be encoded words in a charset Go decodes.
    fn display_name_comment(&mut self) -> Result<(), Bad> {
        self.consume(b'(');
        let comment = self.comment().ok_or(Bad)?;
        if comment
            .split([' ', '\t'])
            .all(|w| w.is_empty() || encoded_word_charset_ok(w))
        {
            Ok(())
        } else {
            Err(Bad)
        }
    }

    /// message.go `skipCFWS`: spaces and comments; `false` on an unclosed comment.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume(b'(') {
            if self.comment().is_none() {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// message.go `consumeComment` after its `(`: nested parentheses, `\` escapes.
    fn comment(&mut self) -> Option<String> {
        let mut depth = 1;
        let mut text = Vec::new();
        let b = self.s.as_bytes();
        let mut i = 0;
        while i < b.len() && depth > 0 {
            if b[i] == b'\\' && b.len() - i > 1 {
                i += 1;
            } else if b[i] == b'(' {
                depth += 1;
            } else if b[i] == b')' {
                depth -= 1;
            }
            if depth > 0 {
                text.push(b[i]);
            }
            i += 1;
        }
        self.s = &self.s[i..];
        (depth == 0).then(|| String::from_utf8_lossy(&text).into_owned())
    }

    fn consume(&mut self, c: u8) -> bool {
        match self.s.as_bytes().first() {
            Some(&first) if first == c => {
                self.s = &self.s[1..];
                true
            }
            _ => false,
        }
    }

    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }
}

/// Whether an RFC 2047 encoded word leaves the address parseable: Go's `mime.WordDecoder`
/// decodes utf-8, us-ascii and iso-8859-1 itself and `net/mail` fails on any other charset of a
/// well-formed word (message.go `decodeRFC2047Word`); malformed words are plain text.
fn encoded_word_charset_ok(word: &str) -> bool {
    let Some(inner) = word
        .strip_prefix("=?")
        .and_then(|w| w.strip_suffix("?="))
        .filter(|_| word.len() >= 8 && word.matches('?').count() == 4)
    else {
        return true;
    };
    let mut parts = inner.splitn(3, '?');
    let (charset, encoding, text) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    if charset.is_empty() || encoding.len() != 1 || !decodes(encoding.as_bytes()[0], text) {
        return true;
    }
    ["utf-8", "us-ascii", "iso-8859-1"]
        .iter()
        .any(|known| charset.eq_ignore_ascii_case(known))
}

/// mime `decode`: base64 (standard, padded) for `B`, quoted-printable words for `Q`.
fn decodes(encoding: u8, text: &str) -> bool {
    match encoding {
        b'B' | b'b' => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .is_ok()
        }
        b'Q' | b'q' => {
            let b = text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b'=' => {
                        if i + 2 >= b.len()
                            || !b[i + 1].is_ascii_hexdigit()
                            || !b[i + 2].is_ascii_hexdigit()
                        {
                            return false;
                        }
                        i += 2;
                    }
                    b'_' | b' '..=b'~' | b'\n' | b'\r' | b'\t' => {}
                    _ => return false,
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

/// Go's `net.ParseIP`: dotted IPv4 or IPv6 (including an IPv4 tail), no zone.
fn go_parse_ip(s: &str) -> Option<IpAddr> {
    if s.contains('%') {
        return None;
    }
    s.parse().ok()
}

fn is_atext(c: char) -> bool {
    !"()<>[]:;@\\,\"".contains(c) && is_vchar(c)
}

fn is_qtext(c: char) -> bool {
    c != '\\' && c != '"' && is_vchar(c)
}

fn is_vchar(c: char) -> bool {
    ('!'..='~').contains(&c) || c as u32 >= 0x80
}

fn is_wsp(c: char) -> bool {
    c == ' ' || c == '\t'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's answers (go1.27 standard library, module declaring go 1.22) for hand-picked strings
    /// and random one-byte edits of them.
    #[test]
    fn go_accepts_what_go_accepts() {
        let vectors = include_str!("../../../testdata/formats/go_net.jsonl");
        let mut wrong = Vec::new();
        let mut count = 0;
        for line in vectors.lines() {
            let (format, input, valid): (String, String, bool) =
                serde_json::from_str(line).expect("vector line");
            let got = match format.as_str() {
                "uri" => is_request_uri(&input),
                "email" => is_mail_address(&input),
                other => panic!("unknown format {other}"),
            };
            count += 1;
            if got != valid {
                wrong.push(format!("{format} {input:?}: Go says {valid}"));
            }
        }
        assert!(count > 900, "{count} vectors");
        assert!(
            wrong.is_empty(),
            "{} differ:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    proptest::proptest! {
        #[test]
        fn answer_any_string(s in "[ -~é\\t]{0,40}|\\PC{0,20}") {
            let _ = is_request_uri(&s);
            let _ = is_mail_address(&s);
        }
    }
}
