//! The escapes, groups and character classes of Go's regexp/syntax parser (`parse.go`:
//! `parsePerlFlags`, `parseEscape`, `parseClass`, `parseNamedClass`, `parseUnicodeClass`,
//! `parsePerlClassEscape`, and the backslash case of `parse`).

use super::rust;
use super::{
    before, error, Op, Parsed, Parser, DOT_NL, FOLD_CASE, INVALID_CHAR_RANGE, INVALID_ESCAPE,
    INVALID_NAMED_CAPTURE, INVALID_PERL_OP, MISSING_BRACKET, NON_GREEDY, ONE_LINE, PERL_X,
    TRAILING_BACKSLASH, UNICODE_GROUPS,
};

/// The POSIX classes of `posixGroup` (`[:alpha:]`, and negated `[:^alpha:]`).
const POSIX: &[&str] = &[
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// Go's `unicode.MaxRune`.
const MAX_RUNE: u32 = 0x10FFFF;

/// The first rune of `s` and the rest; Go's `utf8.RuneError` for an empty string.
fn next_rune(s: &str) -> (char, &str) {
    match s.chars().next() {
        Some(c) => (c, &s[c.len_utf8()..]),
        None => ('\u{FFFD}', s),
    }
}

fn unhex(c: char) -> Option<u32> {
    c.to_digit(16)
}

fn is_octal(s: &str) -> bool {
    s.as_bytes()
        .first()
        .is_some_and(|b| (b'0'..=b'7').contains(b))
}

impl<'a> Parser<'a> {
    /// The `\` case of `parse`: anchors, `\Q…\E`, Unicode and Perl classes, else an escape.
    pub(super) fn parse_backslash(&mut self, t: &'a str) -> Parsed<&'a str> {
        if self.flags & PERL_X != 0 && t.len() >= 2 {
            // Go's word boundaries are ASCII ones.
            let op = match t.as_bytes()[1] {
                b'A' => Some((Op::BeginText, r"\A")),
                b'b' => Some((Op::WordBoundary, r"(?-u:\b)")),
                b'B' => Some((Op::NoWordBoundary, r"(?-u:\B)")),
                b'z' => Some((Op::EndText, r"\z")),
                b'C' => return Err(error(INVALID_ESCAPE, &t[..2])),
                b'Q' => {
                    let (lit, rest) = t[2..].split_once(r"\E").unwrap_or((&t[2..], ""));
                    for c in lit.chars() {
                        self.literal(u32::from(c))?;
                        rust::literal(&mut self.out, u32::from(c));
                    }
                    return Ok(rest);
                }
                _ => None,
            };
            if let Some((op, text)) = op {
                self.op(op)?;
                self.out.push_str(text);
                return Ok(&t[2..]);
            }
        }
        // Go allocates the class before knowing whether it is one.
        let class = self.new_node(Op::CharClass);
        self.nodes[class].flags = self.flags;
        if let Some((rest, name, negated)) = self.parse_unicode_class(t)? {
            self.push(class)?;
            rust::unicode_class(&mut self.out, name, negated);
            return Ok(rest);
        }
        if let Some(rest) = self.parse_perl_class_escape(t) {
            self.push(class)?;
            self.out.push_str(rust::perl_class(t.as_bytes()[1], false));
            return Ok(rest);
        }
        self.reuse(class);
        let (c, rest) = parse_escape(t)?;
        self.literal(c)?;
        rust::literal(&mut self.out, c);
        Ok(rest)
    }

    /// `parsePerlFlags`: `(?P<name>`, `(?<name>`, `(?flags)` and `(?flags:`.
    pub(super) fn parse_perl_flags(&mut self, s: &'a str) -> Parsed<&'a str> {
        let b = s.as_bytes();
        let with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let with_name = b.len() > 3 && b[2] == b'<';
        if with_p || with_name {
            let start = if with_name { 3 } else { 4 };
            let Some(end) = s.find('>') else {
                return Err(error(INVALID_NAMED_CAPTURE, s));
            };
            let name = &s[start..end];
            let valid =
                !name.is_empty() && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
            if !valid {
                return Err(error(INVALID_NAMED_CAPTURE, &s[..=end]));
            }
            self.num_cap += 1;
            let id = self.op(Op::LeftParen)?;
            self.nodes[id].cap = self.num_cap;
            return Ok(&s[end + 1..]);
        }
        let mut t = &s[2..];
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        while let Some(c) = t.chars().next() {
            t = &t[c.len_utf8()..];
            match c {
                'i' | 'm' | 's' | 'U' => {
                    match c {
                        'i' => flags |= FOLD_CASE,
                        'm' => flags &= !ONE_LINE,
                        's' => flags |= DOT_NL,
                        _ => flags |= NON_GREEDY,
                    }
                    saw_flag = true;
                }
                '-' if !negated => {
                    negated = true;
                    flags = !flags;
                    saw_flag = false;
                }
                ':' | ')' if !negated || saw_flag => {
                    if negated {
                        flags = !flags;
                    }
                    if c == ':' {
                        self.op(Op::LeftParen)?;
                    }
                    self.flags = flags;
                    return Ok(t);
                }
                _ => break,
            }
        }
        Err(error(INVALID_PERL_OP, before(s, t)))
    }

    /// `parseUnicodeClass`: `\pL`, `\p{Greek}`, `\P{^Greek}`, with the rest, the name and
    /// whether the class is negated; `None` when `s` is none.
    fn parse_unicode_class(&self, s: &'a str) -> Parsed<Option<(&'a str, &'a str, bool)>> {
        let b = s.as_bytes();
        if self.flags & UNICODE_GROUPS == 0 || b.len() < 2 || b[0] != b'\\' {
            return Ok(None);
        }
        if b[1] != b'p' && b[1] != b'P' {
            return Ok(None);
        }
        let (c, mut t) = next_rune(&s[2..]);
        let (seq, mut name) = if c != '{' {
            let seq = before(s, t);
            (seq, &seq[2..])
        } else {
            let Some(end) = s.find('}') else {
                return Err(error(INVALID_CHAR_RANGE, s));
            };
            t = &s[end + 1..];
            (&s[..=end], &s[3..end])
        };
        let mut negated = b[1] == b'P';
        if let Some(rest) = name.strip_prefix('^') {
            name = rest;
            negated = !negated;
        }
        if !self.names.exists(name) {
            return Err(error(INVALID_CHAR_RANGE, seq));
        }
        Ok(Some((t, name, negated)))
    }

    /// `parsePerlClassEscape`: `\d`, `\s`, `\w` and their negations.
    fn parse_perl_class_escape(&self, s: &'a str) -> Option<&'a str> {
        let b = s.as_bytes();
        let perl = self.flags & PERL_X != 0 && b.len() >= 2 && b[0] == b'\\';
        (perl && b"dDsSwW".contains(&b[1])).then(|| &s[2..])
    }

    /// `parseClass`: a bracketed class, of which only the ranges and names can be wrong.
    pub(super) fn parse_class(&mut self, s: &'a str) -> Parsed<&'a str> {
        let mut t = &s[1..];
        let class = self.new_node(Op::CharClass);
        self.nodes[class].flags = self.flags;
        self.out.push('[');
        if let Some(rest) = t.strip_prefix('^') {
            t = rest;
            self.out.push('^');
        }
        let mut first = true;
        while t.is_empty() || !t.starts_with(']') || first {
            first = false;
            if t.len() > 2 && t.starts_with("[:") {
                if let Some(rest) = parse_named_class(t)? {
                    // POSIX classes are written alike (and are ASCII) in both.
                    self.out.push_str(before(t, rest));
                    t = rest;
                    continue;
                }
            }
            if let Some((rest, name, negated)) = self.parse_unicode_class(t)? {
                rust::unicode_class(&mut self.out, name, negated);
                t = rest;
                continue;
            }
            if let Some(rest) = self.parse_perl_class_escape(t) {
                self.out.push_str(rust::perl_class(t.as_bytes()[1], true));
                t = rest;
                continue;
            }
            let range = t;
            let lo;
            (lo, t) = parse_class_char(t, s)?;
            let mut hi = lo;
            if t.len() >= 2 && t.starts_with('-') && t.as_bytes()[1] != b']' {
                (hi, t) = parse_class_char(&t[1..], s)?;
                if hi < lo {
                    return Err(error(INVALID_CHAR_RANGE, before(range, t)));
                }
            }
            rust::class_range(&mut self.out, lo, hi);
        }
        self.out.push(']');
        self.push(class)?;
        Ok(&t[1..])
    }
}

/// `parseNamedClass`: `[:alpha:]`; `None` when `s` has no closing `:]`.
fn parse_named_class(s: &str) -> Parsed<Option<&str>> {
    let Some(i) = s[2..].find(":]") else {
        return Ok(None);
    };
    let (name, rest) = s.split_at(i + 4);
    let inner = &name[2..name.len() - 2];
    if !POSIX.contains(&inner.strip_prefix('^').unwrap_or(inner)) {
        return Err(error(INVALID_CHAR_RANGE, name));
    }
    Ok(Some(rest))
}

/// `parseClassChar`: one character of a class, escaped or not.
fn parse_class_char<'s>(s: &'s str, whole_class: &str) -> Parsed<(u32, &'s str)> {
    if s.is_empty() {
        return Err(error(MISSING_BRACKET, whole_class));
    }
    if s.starts_with('\\') {
        return parse_escape(s);
    }
    let (c, rest) = next_rune(s);
    Ok((u32::from(c), rest))
}

/// `parseEscape`: the rune of an escape sequence (as a number: `\x{D800}` is no `char`).
pub(super) fn parse_escape(s: &str) -> Parsed<(u32, &str)> {
    let mut t = &s[1..];
    if t.is_empty() {
        return Err(error(TRAILING_BACKSLASH, ""));
    }
    let c;
    (c, t) = next_rune(t);
    match c {
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => return Ok((u32::from(c), t)),
        '1'..='7' if !is_octal(t) => {}
        '0'..='7' => {
            let mut r = u32::from(c) - u32::from('0');
            for _ in 1..3 {
                if !is_octal(t) {
                    break;
                }
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            return Ok((r, t));
        }
        'x' if !t.is_empty() => {
            let c;
            (c, t) = next_rune(t);
            if c == '{' {
                let mut digits = 0;
                let mut r: u32 = 0;
                loop {
                    if t.is_empty() {
                        return Err(error(INVALID_ESCAPE, before(s, t)));
                    }
                    let c;
                    (c, t) = next_rune(t);
                    if c == '}' {
                        break;
                    }
                    let Some(v) = unhex(c) else {
                        return Err(error(INVALID_ESCAPE, before(s, t)));
                    };
                    r = r * 16 + v;
                    if r > MAX_RUNE {
                        return Err(error(INVALID_ESCAPE, before(s, t)));
                    }
                    digits += 1;
                }
                if digits > 0 {
                    return Ok((r, t));
                }
            } else {
                let x = unhex(c);
                let y;
                (y, t) = next_rune(t);
                if let (Some(x), Some(y)) = (x, unhex(y)) {
                    return Ok((x * 16 + y, t));
                }
            }
        }
        'a' => return Ok((7, t)),
        'f' => return Ok((12, t)),
        'n' => return Ok((10, t)),
        'r' => return Ok((13, t)),
        't' => return Ok((9, t)),
        'v' => return Ok((11, t)),
        _ => {}
    }
    Err(error(INVALID_ESCAPE, before(s, t)))
}
