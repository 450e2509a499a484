//! Volume items mapped to overlapping paths (k8s.io/kubernetes pkg/api/pod/warnings.go
//! `warningsForOverlappingVirtualPaths`, `checkVolumeMappingForOverlap`, `checkForOverlap`):
//! two keys written to the same file, or one file where another expects a directory.

use super::super::super::goprint::go_quote;
use super::super::fields::{items, present, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// Until 1.33 a projected volume kept one list of source paths for all its sources, so a
/// source without paths of its own checked the previous source's again (1.34 scoped it).
const STALE_PROJECTED_PATHS: VersionRange = VersionRange {
    since: None,
    until: Some(33),
};
/// `PodCertificate` projected sources take part in the check (1.34–).
const POD_CERTIFICATE_PATHS: VersionRange = VersionRange::since(34);

/// A path and where it came from (`pathAndSource`), printed `"path" (source)`.
#[derive(Clone, PartialEq)]
struct Sourced {
    path: String,
    source: String,
}

impl Sourced {
    fn new(path: &str, source: String) -> Sourced {
        Sourced {
            path: path.trim_end_matches('/').to_string(),
            source,
        }
    }
}

impl std::fmt::Display for Sourced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.source.is_empty() {
            write!(f, "{}", go_quote(&self.path))
        } else {
            write!(f, "{} ({})", go_quote(&self.path), self.source)
        }
    }
}

/// The warnings for every volume, in order.
pub fn overlapping(volumes: &[Value], version: KubeVersion, out: &mut Vec<String>) {
    for volume in volumes {
        let name = go_quote(text(volume, "name"));
        let warn =
            |desc: &str, body: String| format!("volume {name} ({desc}): overlapping paths: {body}");
        if let Some(cm) = present(volume, "configMap") {
            if let Some(list) = present(cm, "items") {
                let desc = format!("ConfigMap {}", go_quote(text(cm, "name")));
                for body in mapping_overlaps(paths(list, "")) {
                    out.push(warn(&desc, body));
                }
            }
        }
        if let Some(secret) = present(volume, "secret") {
            if let Some(list) = present(secret, "items") {
                let desc = format!("Secret {}", go_quote(text(secret, "secretName")));
                for body in mapping_overlaps(paths(list, "")) {
                    out.push(warn(&desc, body));
                }
            }
        }
        if let Some(list) = volume.get("downwardAPI").and_then(|d| present(d, "items")) {
            for body in mapping_overlaps(paths(list, "")) {
                out.push(warn("DownwardAPI", body));
            }
        }
        if let Some(projected) = present(volume, "projected") {
            projected_overlaps(projected, &name, version, out);
        }
    }
}

fn projected_overlaps(projected: &Value, name: &str, version: KubeVersion, out: &mut Vec<String>) {
    let mut all: Vec<Sourced> = Vec::new();
    let mut source_paths: Vec<Sourced> = Vec::new();
    for source in items(projected.get("sources")) {
        let is_empty = source
            .as_map()
            .is_none_or(|m| m.values().all(Value::is_null));
        if is_empty {
            out.push(format!("volume {name} (Projected) has no sources provided"));
            continue;
        }
        if !STALE_PROJECTED_PATHS.contains(version) {
            source_paths.clear();
        }
        if let Some(found) = projected_source_paths(source, version) {
            source_paths = found;
        }
        for ps in &source_paths {
            for c in collisions(&all, ps) {
                out.push(format!(
                    "volume {name} (Projected): overlapping paths: {ps} with {c}"
                ));
            }
            all.push(ps.clone());
        }
    }
}

/// The paths one projected source writes (the first kind of source upstream's switch
/// matches); `None` when it matches none.
fn projected_source_paths(source: &Value, version: KubeVersion) -> Option<Vec<Sourced>> {
    for (kind, label, name_field) in [
        ("configMap", "ConfigMap", "name"),
        ("secret", "Secret", "name"),
    ] {
        let Some(projection) = present(source, kind) else {
            continue;
        };
        if let Some(list) = present(projection, "items") {
            let from = format!("{label} {}", go_quote(text(projection, name_field)));
            return Some(paths(list, &from));
        }
    }
    if let Some(list) = source.get("downwardAPI").and_then(|c| present(c, "items")) {
        return Some(paths(list, "DownwardAPI"));
    }
    if let Some(token) = present(source, "serviceAccountToken") {
        return Some(vec![Sourced::new(
            text(token, "path"),
            "ServiceAccountToken".into(),
        )]);
    }
    if let Some(bundle) = present(source, "clusterTrustBundle") {
        let name = present(bundle, "name")
            .or_else(|| present(bundle, "signerName"))
            .and_then(Value::as_str)
            .unwrap_or("");
        return Some(vec![Sourced::new(
            text(bundle, "path"),
            format!("ClusterTrustBundle {}", go_quote(name)),
        )]);
    }
    if POD_CERTIFICATE_PATHS.contains(version) {
        if let Some(cert) = present(source, "podCertificate") {
            let files = [
                ("certificateChainPath", "PodCertificate chain"),
                ("keyPath", "PodCertificate key"),
                ("credentialBundlePath", "PodCertificate credential bundle"),
            ];
            return Some(
                files
                    .iter()
                    .filter(|(field, _)| !text(cert, field).is_empty())
                    .map(|(field, from)| Sourced::new(text(cert, field), (*from).into()))
                    .collect(),
            );
        }
    }
    None
}

fn paths(list: &Value, source: &str) -> Vec<Sourced> {
    items(Some(list))
        .iter()
        .map(|item| Sourced::new(text(item, "path"), source.into()))
        .collect()
}

/// `checkVolumeMappingForOverlap`: each path against the ones before it.
fn mapping_overlaps(paths: Vec<Sourced>) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut all: Vec<Sourced> = Vec::new();
    for ps in paths {
        for c in collisions(&all, &ps) {
            warnings.push(format!("{ps} with {c}"));
        }
        all.push(ps);
    }
    warnings
}

/// `checkForOverlap`: the same path, or one inside the other.
fn collisions<'a>(haystack: &'a [Sourced], needle: &Sourced) -> Vec<&'a Sourced> {
    if needle.path.is_empty() {
        return Vec::new();
    }
    let under = |a: &str, b: &str| format!("{a}/").starts_with(&format!("{b}/"));
    haystack
        .iter()
        .filter(|item| {
            !item.path.is_empty()
                && (*item == needle
                    || under(&item.path, &needle.path)
                    || under(&needle.path, &item.path))
        })
        .collect()
}
