//! The pattern in the `regex` crate's syntax with Go's meaning, written as the parser goes:
//! Go's `\d`, `\s`, `\w` and `\b` are ASCII (the crate's are Unicode), Go knows octal escapes
//! and `\Q…\E`, reads `\<` as `<` and `[[a]]` as a class followed by `]`, and has no class set
//! operations (`&&`, `--`, `~~`); literals are escaped so that none of those differences show.

/// Go's `perlGroup` classes as ASCII classes of the crate: the class outside brackets, and its
/// items inside one (a negated one nested, as the crate allows).
pub(super) fn perl_class(letter: u8, in_class: bool) -> &'static str {
    match (letter, in_class) {
        (b'd', false) => "[0-9]",
        (b'd', true) => "0-9",
        (b'D', _) => "[^0-9]",
        (b's', false) => r"[\t\n\x0C\r ]",
        (b's', true) => r"\t\n\x0C\r ",
        (b'S', _) => r"[^\t\n\x0C\r ]",
        (b'w', false) => "[0-9A-Za-z_]",
        (b'w', true) => "0-9A-Za-z_",
        _ => "[^0-9A-Za-z_]",
    }
}

/// A Unicode class by name (the crate matches names loosely, as Go 1.25 does).
pub(super) fn unicode_class(out: &mut String, name: &str, negated: bool) {
    out.push_str(if negated { r"\P{" } else { r"\p{" });
    out.push_str(name);
    out.push('}');
}

/// Matches nothing: Go's literal surrogate, which no decoded text holds.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";

/// One literal rune.
pub(super) fn literal(out: &mut String, r: u32) {
    match char::from_u32(r) {
        Some(c) => out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        None => out.push_str(NOTHING),
    }
}

/// A range of a bracketed class, its surrogates left out.
pub(super) fn class_range(out: &mut String, lo: u32, hi: u32) {
    let lo = if (0xD800..=0xDFFF).contains(&lo) {
        0xE000
    } else {
        lo
    };
    let hi = if (0xD800..=0xDFFF).contains(&hi) {
        0xD7FF
    } else {
        hi
    };
    if lo > hi {
        return;
    }
    if lo < 0xD800 && hi > 0xDFFF {
        class_range(out, lo, 0xD7FF);
        class_range(out, 0xE000, hi);
        return;
    }
    class_char(out, lo);
    if hi != lo {
        out.push('-');
        class_char(out, hi);
    }
}

fn class_char(out: &mut String, r: u32) {
    match char::from_u32(r) {
        Some(c) if c.is_ascii_alphanumeric() => out.push(c),
        _ => out.push_str(&format!(r"\x{{{r:X}}}")),
    }
}
