//! Go's `net/url` parser with its error texts and the accessors of its `URL` (url.go `Parse`,
//! `ParseRequestURI`, `parse`, `EscapedPath`, `Hostname`, `Port`, `Query`), for the Kubernetes
//! CEL URL library, which hands Go's values and errors to rules (`cel_url.rs`), and for the `uri`
//! format (`go_net.rs`). `testdata/formats/go_url.jsonl` holds Go's own parts and errors for the
//! CEL functions, `go_net.jsonl` Go's verdicts for the format.

use super::go_netip::{parse_addr, Family};
use crate::validate::goprint::go_quote;

/// The parts of a Go `url.URL` the CEL library reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoUrl {
    pub scheme: String,
    pub opaque: String,
    /// The userinfo as written, when there is one.
    pub userinfo: Option<String>,
    pub host: String,
    /// Unescaped.
    pub path: String,
    /// The path as written, when it differs from Go's escaping of `path`.
    pub raw_path: String,
    pub raw_query: String,
    pub fragment: String,
}

/// Why Go refuses a string: its `*url.Error` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlError(pub String);

/// `url.ParseRequestURI`: an absolute URI or an absolute path; a `#` stays in the path or query.
pub fn parse_request_uri(raw: &str) -> Result<GoUrl, UrlError> {
    parse(raw, true).map_err(|e| e.wrapped(raw))
}

/// `url.Parse`: any URI reference, the fragment cut off at the first `#`.
pub fn parse_reference(raw: &str) -> Result<GoUrl, UrlError> {
    let (u, fragment) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse(u, false).map_err(|e| e.wrapped(u))?;
    url.fragment = unescape(fragment, Mode::Fragment).map_err(|e| e.wrapped(raw))?;
    Ok(url)
}

/// An error of `parse`, before `url.Error` adds the operation and the string.
struct Inner(String);

impl Inner {
    fn text(s: impl Into<String>) -> Inner {
        Inner(s.into())
    }

    /// `url.Error.Error()`: `parse "<url>": <err>`.
    fn wrapped(self, raw: &str) -> UrlError {
        UrlError(format!("parse {}: {}", go_quote(raw), self.0))
    }
}

/// url.go `parse`.
fn parse(raw: &str, via_request: bool) -> Result<GoUrl, Inner> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err(Inner::text("net/url: invalid control character in URL"));
    }
    if raw.is_empty() && via_request {
        return Err(Inner::text("empty url"));
    }
    let mut url = GoUrl::default();
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = match rest.strip_suffix('?') {
        Some(r) if !r.contains('?') => r,
        _ => match rest.split_once('?') {
            Some((before, query)) => {
                url.raw_query = query.to_string();
                before
            }
            None => rest,
        },
    };
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_string();
            return Ok(url);
        }
        if via_request {
            return Err(Inner::text("invalid URI for request"));
        }
        if rest.split('/').next().is_some_and(|s| s.contains(':')) {
            return Err(Inner::text(
                "first path segment in URL cannot contain colon",
            ));
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let authority_and_path = &rest[2..];
        let (authority, path) = match authority_and_path.find('/') {
            Some(i) => authority_and_path.split_at(i),
            None => (authority_and_path, ""),
        };
        (url.userinfo, url.host) = parse_authority(authority)?;
        rest = path;
    }
    url.path = unescape(rest, Mode::Path)?;
    if escape_path(&url.path) != rest {
        url.raw_path = rest.to_string();
    }
    Ok(url)
}

/// url.go `getScheme`: `:` first is an error; no scheme when a character outside
/// `[a-zA-Z][a-zA-Z0-9+.-]*` comes before any `:`.
fn scheme(raw: &str) -> Result<(&str, &str), Inner> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err(Inner::text("missing protocol scheme")),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// url.go `parseAuthority`: `[userinfo@]host`, the userinfo up to the last `@` (kept as written:
/// the CEL library reads it only when comparing URLs).
fn parse_authority(authority: &str) -> Result<(Option<String>, String), Inner> {
    let (user, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let host = parse_host(host)?;
    if let Some(user) = user {
        let valid = user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c));
        if !valid {
            return Err(Inner::text("net/url: invalid userinfo"));
        }
        let (name, password) = user.split_once(':').unwrap_or((user, ""));
        unescape(name, Mode::UserInfo)?;
        unescape(password, Mode::UserInfo)?;
    }
    Ok((user.map(str::to_string), host))
}

/// url.go `parseHost`: a bracketed IPv6 literal (an optional `%25` zone) and port, or a name whose
/// last `:` starts a numeric port. Go releases before 1.26 take the last colon for every scheme;
/// 1.26 is stricter for http(s) only behind the `urlstrictcolons` setting, which a module
/// declaring an older Go keeps off.
fn parse_host(host: &str) -> Result<String, Inner> {
    match host.rfind('[') {
        Some(0) => {
            let close = host
                .rfind(']')
                .ok_or_else(|| Inner::text("missing ']' in host"))?;
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(Inner::text(format!(
                    "invalid port {} after host",
                    go_quote(colon_port)
                )));
            }
            let inside = &host[1..close];
            let address = match inside.find("%25") {
                Some(z) => {
                    unescape(&inside[..z], Mode::Host)? + &unescape(&inside[z..], Mode::Zone)?
                }
                None => unescape(inside, Mode::Host)?,
            };
            // Only an IPv6 address may be bracketed (an IPv4-mapped one included).
            match parse_addr(&address) {
                Ok(Family::V6) => Ok(format!("[{address}]{colon_port}")),
                Ok(Family::V4) => Err(Inner::text("invalid IP-literal")),
                Err(e) => Err(Inner::text(format!("invalid host: {e}"))),
            }
        }
        Some(_) => Err(Inner::text("invalid IP-literal")),
        None => {
            if let Some(colon) = host.rfind(':') {
                let colon_port = &host[colon..];
                if !valid_optional_port(colon_port) {
                    return Err(Inner::text(format!(
                        "invalid port {} after host",
                        go_quote(colon_port)
                    )));
                }
            }
            unescape(host, Mode::Host)
        }
    }
}

/// url.go `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// The part of a URL being unescaped (url.go `encoding`).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Path,
    UserInfo,
    Host,
    Zone,
    Fragment,
    QueryComponent,
}

/// url.go `unescape`: `%XX` decoded (`+` as a space in a query component); a host may escape only
/// non-ASCII bytes (and `%25`) and holds only host characters.
fn unescape(s: &str, mode: Mode) -> Result<String, Inner> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |j: usize| b.get(j).and_then(|c| (*c as char).to_digit(16));
                let (Some(hi), Some(lo)) = (hex(i + 1), hex(i + 2)) else {
                    let end = (i + 3).min(b.len());
                    return Err(escape_error(&b[i..end]));
                };
                let byte = (hi << 4 | lo) as u8;
                let is_percent = &b[i..i + 3] == b"%25";
                let refused = match mode {
                    Mode::Host => hi < 8 && !is_percent,
                    Mode::Zone => !is_percent && byte != b' ' && !host_byte(byte),
                    _ => false,
                };
                if refused {
                    return Err(escape_error(&b[i..i + 3]));
                }
                out.push(byte);
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && !host_byte(c) {
                    let shown = String::from_utf8_lossy(&b[i..i + 1]).into_owned();
                    return Err(Inner::text(format!(
                        "invalid character {} in host name",
                        go_quote(&shown)
                    )));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    // Go strings hold any bytes; a rule only reads valid UTF-8 back (invalid bytes would be
    // replaced by the CEL string conversion as well).
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// url.go `EscapeError`: `invalid URL escape "%zz"`.
fn escape_error(bytes: &[u8]) -> Inner {
    Inner::text(format!(
        "invalid URL escape {}",
        go_quote(&String::from_utf8_lossy(bytes))
    ))
}

/// The ASCII bytes a host holds unescaped (url.go `shouldEscape` in host mode is false).
fn host_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c)
}

/// The bytes a path holds unescaped (url.go `shouldEscape` in path mode is false).
fn path_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-_.~$&+,/:;=@".contains(&c)
}

/// url.go `escape` in path mode: `%XX` in upper case for every other byte.
fn escape_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &c in path.as_bytes() {
        if path_byte(c) {
            out.push(c as char);
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    out
}

impl GoUrl {
    /// `URL.EscapedPath`: the path as written when it is a valid escaping of the path, else
    /// Go's own escaping.
    pub fn escaped_path(&self) -> String {
        let valid_encoded = |s: &str| {
            s.bytes()
                .all(|c| path_byte(c) || b"!$&'()*+,;=:@[]%".contains(&c))
        };
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape_path(&self.path)
    }

    /// `URL.Hostname`: the host without a valid port and without IPv6 brackets.
    pub fn hostname(&self) -> &str {
        let host = split_host_port(&self.host).0;
        host.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host)
    }

    /// `URL.Port`: the digits after the host's last colon, or nothing.
    pub fn port(&self) -> &str {
        split_host_port(&self.host).1
    }

    /// `URL.Query` (`ParseQuery`): keys in first-seen order with their values; pairs with a `;`
    /// or a bad escape are left out.
    pub fn query(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for pair in self.raw_query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(key), Ok(value)) = (
                unescape(key, Mode::QueryComponent),
                unescape(value, Mode::QueryComponent),
            ) else {
                continue;
            };
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, values)) => values.push(value),
                None => out.push((key, vec![value])),
            }
        }
        out
    }
}

/// url.go `splitHostPort`: the host and the port after its last colon when that is a valid
/// optional port.
fn split_host_port(host_port: &str) -> (&str, &str) {
    match host_port.rfind(':') {
        Some(colon) if valid_optional_port(&host_port[colon..]) => {
            (&host_port[..colon], &host_port[colon + 1..])
        }
        _ => (host_port, ""),
    }
}

#[cfg(test)]
#[path = "go_url_tests.rs"]
mod tests;
