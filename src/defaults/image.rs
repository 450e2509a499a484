//! Container image references, parsed as the kubelet's `ParseImageName` does, for the
//! `imagePullPolicy` default (`Always` for `:latest` or no tag, else `IfNotPresent`).

/// The tag of an image reference as `ParseImageName` reports it: `latest` when there is no
/// tag and no digest; `None` when the reference does not parse.
pub(crate) fn image_tag(image: &str) -> Option<&str> {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last_slash = name.rfind('/').map_or(0, |i| i + 1);
    let (repo, tag) = match name[last_slash..].rfind(':') {
        Some(i) => (&name[..last_slash + i], Some(&name[last_slash + i + 1..])),
        None => (name, None),
    };
    if !valid_repository(repo) {
        return None;
    }
    if let Some(t) = tag {
        let ok = !t.is_empty()
            && t.len() <= 128
            && t.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
        if !ok {
            return None;
        }
    }
    if let Some(d) = digest {
        let (algo, hex) = d.split_once(':')?;
        if algo.is_empty() || hex.len() < 32 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
    }
    match (tag, digest) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => Some(""),
        (None, None) => Some("latest"),
    }
}

/// A repository: an optional registry (`host[:port]`, may hold uppercase) and lowercase path
/// components.
fn valid_repository(repo: &str) -> bool {
    if repo.is_empty() {
        return false;
    }
    let mut path = repo;
    if let Some((first, rest)) = repo.split_once('/') {
        let is_domain = first.contains(['.', ':']) || first == "localhost" || has_uppercase(first);
        if is_domain {
            path = rest;
            let (host, port) = first.split_once(':').unwrap_or((first, ""));
            let host_ok = !host.is_empty()
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'));
            if !host_ok || !port.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
        }
    }
    path.split('/').all(valid_path_component)
}

/// Whether lowercasing changes `s` (the reference's test for a registry host).
fn has_uppercase(s: &str) -> bool {
    match s.is_ascii() {
        true => s.bytes().any(|b| b.is_ascii_uppercase()),
        false => s != s.to_lowercase(),
    }
}

fn valid_path_component(p: &str) -> bool {
    let b = p.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    if b.is_empty() || !alnum(b[0]) || !alnum(b[b.len() - 1]) {
        return false;
    }
    // Separators: `.`, `_`, `__`, or any run of `-`, always between alphanumerics.
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &p[start..i];
        let ok = matches!(sep, "." | "_" | "__") || sep.bytes().all(|c| c == b'-');
        if !ok {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::image_tag;

    #[test]
    fn tags_as_the_kubelet_reads_them() {
        assert_eq!(image_tag("nginx"), Some("latest"));
        assert_eq!(image_tag("nginx:1.27"), Some("1.27"));
        assert_eq!(image_tag("registry.local:5000/team/app"), Some("latest"));
        assert_eq!(image_tag("registry.local:5000/team/app:v2"), Some("v2"));
        assert_eq!(image_tag("Registry/app"), Some("latest"));
        assert_eq!(image_tag("Ä/app"), None);
        let digest = format!("nginx@sha256:{}", "a".repeat(64));
        assert_eq!(image_tag(&digest), Some(""));
        assert_eq!(image_tag("Nginx"), None);
    }
}
