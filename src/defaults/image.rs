//! Container image references, parsed as the kubelet's `ParseImageName` does, for the
//! `imagePullPolicy` default (`Always` for `:latest` or no tag, else `IfNotPresent`).

/// The tag of an image reference as `ParseImageName` reports it: `latest` when there is no
/// tag and no digest; `None` when the reference does not parse.
pub(crate) fn image_tag(image: &str) -> Option<String> {
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
        (Some(t), _) => Some(t.to_string()),
        (None, Some(_)) => Some(String::new()),
        (None, None) => Some("latest".into()),
    }
}

/// A repository: an optional registry (`host[:port]`, may hold uppercase) and lowercase path
/// components.
fn valid_repository(repo: &str) -> bool {
    if repo.is_empty() {
        return false;
    }
    let mut parts: Vec<&str> = repo.split('/').collect();
    if parts.len() > 1 {
        let first = parts[0];
        let is_domain =
            first.contains(['.', ':']) || first == "localhost" || first != first.to_lowercase();
        if is_domain {
            parts.remove(0);
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
    parts.iter().all(|p| valid_path_component(p))
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
        assert_eq!(image_tag("nginx").as_deref(), Some("latest"));
        assert_eq!(image_tag("nginx:1.27").as_deref(), Some("1.27"));
        assert_eq!(
            image_tag("registry.local:5000/team/app").as_deref(),
            Some("latest")
        );
        assert_eq!(
            image_tag("registry.local:5000/team/app:v2").as_deref(),
            Some("v2")
        );
        let digest = format!("nginx@sha256:{}", "a".repeat(64));
        assert_eq!(image_tag(&digest).as_deref(), Some(""));
        assert_eq!(image_tag("Nginx"), None);
    }
}
