//! Reading ignore rules from the documents GitOps tools keep them in: an Argo CD Application's
//! (or ApplicationSet template's) `spec.ignoreDifferences`, the `argocd-cm` ConfigMap's
//! `resource.customizations.ignoreDifferences.<group>_<kind>` keys (`.all` for every kind), and a
//! Flux HelmRelease's `spec.driftDetection.ignore`. Bare `ignoreDifferences:` or `ignore:` lists
//! are read too.

use super::jq::PathExpression;
use super::IgnoreError;
use crate::kube::selector::LabelSelector;
use crate::value::Value;
use regex_bites::Regex;

/// Which objects a rule is for.
#[derive(Debug)]
pub enum Target {
    /// Argo CD: `group` and `kind` are globs (`*`), `name` and `namespace` exact when given.
    Argo {
        group: String,
        kind: String,
        name: String,
        namespace: String,
    },
    /// Flux (a kustomize `Selector`), boxed as it is much larger than an Argo target.
    Flux(Box<FluxTarget>),
}

/// A Flux target: anchored regular expressions, and label and annotation selectors; everything
/// absent matches.
#[derive(Debug)]
pub struct FluxTarget {
    pub group: Option<Regex>,
    pub version: Option<Regex>,
    pub kind: Option<Regex>,
    pub name: Option<Regex>,
    pub namespace: Option<Regex>,
    pub labels: Option<LabelSelector>,
    pub annotations: Option<LabelSelector>,
}

/// One rule: the objects it is for and the fields of theirs to ignore.
#[derive(Debug)]
pub struct IgnoreRule {
    /// Where the rule was read, as shown when it matches.
    pub source: String,
    pub target: Target,
    /// RFC 6901 JSON pointers.
    pub pointers: Vec<String>,
    pub expressions: Vec<PathExpression>,
    /// Fields these managers own in the live object.
    pub managers: Vec<String>,
}

/// Go's `path.Match`-style glob as Argo CD uses it for groups and kinds: `*` and `?`.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    fn go(p: &[u8], t: &[u8]) -> bool {
        match (p.first(), t.first()) {
            (None, None) => true,
            (Some(b'*'), _) => go(&p[1..], t) || (!t.is_empty() && go(p, &t[1..])),
            (Some(b'?'), Some(_)) => go(&p[1..], &t[1..]),
            (Some(a), Some(b)) if a == b => go(&p[1..], &t[1..]),
            _ => false,
        }
    }
    go(pattern.as_bytes(), text.as_bytes())
}

fn text_of(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// A list of strings at `key` of a rule.
fn strings(rule: &Value, key: &str, at: &str) -> Result<Vec<String>, IgnoreError> {
    match rule.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::List(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| IgnoreError::Invalid {
                        at: format!("{at}.{key}[{i}]"),
                        message: "expected a string".into(),
                    })
            })
            .collect(),
        Some(_) => Err(IgnoreError::Invalid {
            at: format!("{at}.{key}"),
            message: "expected a list of strings".into(),
        }),
    }
}

fn check_keys(rule: &Value, allowed: &[&str], at: &str) -> Result<(), IgnoreError> {
    let map = rule.as_map().ok_or_else(|| IgnoreError::Invalid {
        at: at.to_string(),
        message: "expected a mapping".into(),
    })?;
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(IgnoreError::Invalid {
            at: format!("{at}.{k}"),
            message: format!("unknown field (expected one of {})", allowed.join(", ")),
        }),
        None => Ok(()),
    }
}

fn pointers(list: Vec<String>, at: &str) -> Result<Vec<String>, IgnoreError> {
    match list.iter().find(|p| !p.is_empty() && !p.starts_with('/')) {
        Some(p) => Err(IgnoreError::Invalid {
            at: at.to_string(),
            message: format!("{p:?} is not a JSON pointer (it must start with `/`)"),
        }),
        None => Ok(list),
    }
}

const ARGO_FIELDS: &[&str] = &[
    "group",
    "kind",
    "name",
    "namespace",
    "jsonPointers",
    "jqPathExpressions",
    "managedFieldsManagers",
];

/// One Argo CD `ignoreDifferences` entry; `group_kind` overrides the entry's own (argocd-cm).
fn argo_rule(
    rule: &Value,
    at: &str,
    group_kind: Option<(&str, &str)>,
) -> Result<IgnoreRule, IgnoreError> {
    check_keys(rule, ARGO_FIELDS, at)?;
    let (group, kind) = match group_kind {
        Some((g, k)) => (g.to_string(), k.to_string()),
        None => (text_of(rule, "group"), text_of(rule, "kind")),
    };
    let expressions = strings(rule, "jqPathExpressions", at)?
        .iter()
        .map(|e| PathExpression::compile(e))
        .collect::<Result<_, _>>()?;
    Ok(IgnoreRule {
        source: at.to_string(),
        target: Target::Argo {
            group,
            kind,
            name: text_of(rule, "name"),
            namespace: text_of(rule, "namespace"),
        },
        pointers: pointers(
            strings(rule, "jsonPointers", at)?,
            &format!("{at}.jsonPointers"),
        )?,
        expressions,
        managers: strings(rule, "managedFieldsManagers", at)?,
    })
}

fn regex(target: &Value, key: &str, at: &str) -> Result<Option<Regex>, IgnoreError> {
    match target.get(key).and_then(Value::as_str) {
        None | Some("") => Ok(None),
        Some(p) => Regex::new(&format!("^(?:{p})$"))
            .map(Some)
            .map_err(|e| IgnoreError::Invalid {
                at: format!("{at}.{key}"),
                message: format!("not a regular expression: {e}"),
            }),
    }
}

fn selector(target: &Value, key: &str, at: &str) -> Result<Option<LabelSelector>, IgnoreError> {
    match target.get(key).and_then(Value::as_str) {
        None | Some("") => Ok(None),
        Some(s) => LabelSelector::parse(s)
            .map(Some)
            .map_err(|e| IgnoreError::Invalid {
                at: format!("{at}.{key}"),
                message: e.to_string(),
            }),
    }
}

/// One Flux `driftDetection.ignore` entry.
fn flux_rule(rule: &Value, at: &str) -> Result<IgnoreRule, IgnoreError> {
    check_keys(rule, &["paths", "target"], at)?;
    let empty = Value::Map(Default::default());
    let target = rule.get("target").unwrap_or(&empty);
    let t_at = format!("{at}.target");
    check_keys(
        target,
        &[
            "group",
            "version",
            "kind",
            "name",
            "namespace",
            "labelSelector",
            "annotationSelector",
        ],
        &t_at,
    )?;
    Ok(IgnoreRule {
        source: at.to_string(),
        target: Target::Flux(Box::new(FluxTarget {
            group: regex(target, "group", &t_at)?,
            version: regex(target, "version", &t_at)?,
            kind: regex(target, "kind", &t_at)?,
            name: regex(target, "name", &t_at)?,
            namespace: regex(target, "namespace", &t_at)?,
            labels: selector(target, "labelSelector", &t_at)?,
            annotations: selector(target, "annotationSelector", &t_at)?,
        })),
        pointers: pointers(strings(rule, "paths", at)?, &format!("{at}.paths"))?,
        expressions: Vec::new(),
        managers: Vec::new(),
    })
}

fn list_at<'v>(v: &'v Value, path: &[&str], at: &str) -> Result<&'v [Value], IgnoreError> {
    match v.get_path(path) {
        Some(Value::List(items)) => Ok(items),
        None | Some(Value::Null) => Ok(&[]),
        Some(_) => Err(IgnoreError::Invalid {
            at: format!("{at}.{}", path.join(".")),
            message: "expected a list of rules".into(),
        }),
    }
}

const CM_PREFIX: &str = "resource.customizations.ignoreDifferences.";

/// The rules of one document. `at` names the document (`ignore.yaml: document 1`).
pub fn rules_of(doc: &Value, at: &str) -> Result<Vec<IgnoreRule>, IgnoreError> {
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
    let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let name = doc
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let argo = |items: &[Value], at: String| -> Result<Vec<IgnoreRule>, IgnoreError> {
        items
            .iter()
            .enumerate()
            .map(|(i, r)| argo_rule(r, &format!("{at}[{i}]"), None))
            .collect()
    };
    let flux = |items: &[Value], at: String| -> Result<Vec<IgnoreRule>, IgnoreError> {
        items
            .iter()
            .enumerate()
            .map(|(i, r)| flux_rule(r, &format!("{at}[{i}]")))
            .collect()
    };
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    match (group, kind) {
        ("argoproj.io", "Application") => {
            let at = format!("{at}: Application {name}: spec.ignoreDifferences");
            argo(list_at(doc, &["spec", "ignoreDifferences"], "")?, at)
        }
        ("argoproj.io", "ApplicationSet") => {
            let path = ["spec", "template", "spec", "ignoreDifferences"];
            let at = format!("{at}: ApplicationSet {name}: {}", path.join("."));
            argo(list_at(doc, &path, "")?, at)
        }
        ("helm.toolkit.fluxcd.io", "HelmRelease") => {
            let at = format!("{at}: HelmRelease {name}: spec.driftDetection.ignore");
            flux(list_at(doc, &["spec", "driftDetection", "ignore"], "")?, at)
        }
        ("", "ConfigMap") => {
            let mut out = Vec::new();
            let data = doc.get("data").and_then(Value::as_map);
            for (key, value) in data.into_iter().flatten() {
                let Some(gk) = key.strip_prefix(CM_PREFIX) else {
                    continue;
                };
                let (g, k) = match gk {
                    "all" => ("*", "*"),
                    _ => gk.split_once('_').unwrap_or(("", gk)),
                };
                let rule_at = format!("{at}: ConfigMap {name}: data.{key}");
                let text = value.as_str().unwrap_or("");
                let parsed =
                    crate::yaml::parse_document(text).map_err(|e| IgnoreError::Invalid {
                        at: rule_at.clone(),
                        message: e.to_string(),
                    })?;
                out.push(argo_rule(&parsed, &rule_at, Some((g, k)))?);
            }
            if out.is_empty() {
                return Err(IgnoreError::Invalid {
                    at: format!("{at}: ConfigMap {name}"),
                    message: format!("no {CM_PREFIX}* keys"),
                });
            }
            Ok(out)
        }
        _ if doc.get("ignoreDifferences").is_some() => argo(
            list_at(doc, &["ignoreDifferences"], at)?,
            format!("{at}: ignoreDifferences"),
        ),
        _ if doc.get("ignore").is_some() => {
            flux(list_at(doc, &["ignore"], at)?, format!("{at}: ignore"))
        }
        _ => Err(IgnoreError::Invalid {
            at: at.to_string(),
            message: "not an ignore-rules document: expected an Argo CD Application or \
                ApplicationSet, the argocd-cm ConfigMap, a Flux HelmRelease, or a bare \
                `ignoreDifferences:` (Argo CD) or `ignore:` (Flux) list"
                .into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*", "apps"));
        assert!(glob_match("", ""));
        assert!(!glob_match("", "apps"));
        assert!(glob_match("*.k8s.io", "networking.k8s.io"));
        assert!(glob_match("Deploy?ent", "Deployment"));
        assert!(!glob_match("Deployment", "StatefulSet"));
    }
}
