//! Ignore rules for diffs, read from what GitOps tools already keep (Argo CD's
//! `ignoreDifferences`, Flux's drift-detection `ignore`): a change a rule covers is left out of
//! the diff and the exit status, and reported with the rule that matched. Argo CD removes the
//! named fields from both sides (util/argo/normalizers/diff_normalizer.go,
//! util/argo/managedfields/managed_fields.go); kssa removes only the changes under them, so the
//! rest of the named fields still shows as context.

mod jq;
mod rules;

pub use jq::PathExpression;
pub use rules::{glob_match, rules_of, FluxTarget, IgnoreRule, Target};

use crate::changes::{locate, FieldChange, Step};
use crate::fieldpath::PathElement;
use crate::managed::ManagedFieldsEntry;
use crate::value::Value;

/// A jq path expression's text with the paths it selects in the live and in the merged object.
type ExpressionPaths = (String, Vec<Vec<Step>>, Vec<Vec<Step>>);

/// A rule file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IgnoreError {
    #[error("{at}: {message}")]
    Invalid { at: String, message: String },
    #[error("jqPathExpressions {expression:?}: {message}")]
    Jq { expression: String, message: String },
}

/// A change left out, and the rule (with the pointer, expression or manager) that covered it.
#[derive(Debug, Clone, PartialEq)]
pub struct IgnoredChange {
    pub change: FieldChange,
    pub rule: String,
}

/// One object's changes after the rules: those kept, those ignored, and the two sides with the
/// ignored changes taken out, for the diff.
#[derive(Debug, Clone, PartialEq)]
pub struct Filtered {
    pub kept: Vec<FieldChange>,
    pub ignored: Vec<IgnoredChange>,
    pub before: Value,
    pub after: Value,
}

fn text<'v>(v: &'v Value, path: &[&str]) -> &'v str {
    v.get_path(path).and_then(Value::as_str).unwrap_or("")
}

impl Target {
    /// Whether the rule is for this object.
    pub fn matches(&self, object: &Value) -> bool {
        let api_version = text(object, &["apiVersion"]);
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let kind = text(object, &["kind"]);
        let name = text(object, &["metadata", "name"]);
        let namespace = text(object, &["metadata", "namespace"]);
        match self {
            Target::Argo {
                group: g,
                kind: k,
                name: n,
                namespace: ns,
            } => {
                glob_match(g, group)
                    && glob_match(k, kind)
                    && (n.is_empty() || n == name)
                    && (ns.is_empty() || ns == namespace)
            }
            Target::Flux(flux) => {
                let FluxTarget {
                    group: g,
                    version: v,
                    kind: k,
                    name: n,
                    namespace: ns,
                    labels,
                    annotations,
                } = flux.as_ref();
                let ok = |r: &Option<regex_bites::Regex>, t: &str| {
                    r.as_ref().is_none_or(|r| r.is_match(t))
                };
                ok(g, group)
                    && ok(v, version)
                    && ok(k, kind)
                    && ok(n, name)
                    && ok(ns, namespace)
                    && labels.as_ref().is_none_or(|s| s.matches(object))
                    && annotations.as_ref().is_none_or(|s| {
                        s.matches_pairs(object.get_path(&["metadata", "annotations"]))
                    })
            }
        }
    }
}

/// RFC 6901 pointer tokens (`~1` is `/`, `~0` is `~`).
fn pointer_tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn under_tokens(steps: &[Step], tokens: &[String]) -> bool {
    steps.len() >= tokens.len()
        && steps.iter().zip(tokens).all(|(s, t)| match s {
            Step::Field(f) => f == t,
            Step::Index(i) => i.to_string() == *t,
        })
}

/// Removes the value at `steps` (a map field or a list item), and the containers above it that
/// this leaves empty (Argo CD drops empty objects after its removals too). Whether `v` itself
/// is left empty.
fn remove_at(v: &mut Value, steps: &[Step]) -> bool {
    let Some((first, rest)) = steps.split_first() else {
        return false;
    };
    match (first, v) {
        (Step::Field(f), Value::Map(m)) => {
            let gone = match m.get_mut(f) {
                Some(child) => rest.is_empty() || remove_at(child, rest),
                None => false,
            };
            if gone {
                m.shift_remove(f);
            }
            gone && m.is_empty()
        }
        (Step::Index(i), Value::List(l)) => {
            let gone = match l.get_mut(*i) {
                Some(child) => rest.is_empty() || remove_at(child, rest),
                None => false,
            };
            if gone {
                l.remove(*i);
            }
            gone && l.is_empty()
        }
        _ => false,
    }
}

/// Steps from pointer tokens, as far as `value` has them.
fn resolve_tokens(value: &Value, tokens: &[String]) -> Option<Vec<Step>> {
    let mut v = value;
    let mut out = Vec::with_capacity(tokens.len());
    for t in tokens {
        let (step, next) = match v {
            Value::Map(m) => (Step::Field(t.clone()), m.get(t)?),
            Value::List(l) => {
                let i: usize = t.parse().ok()?;
                (Step::Index(i), l.get(i)?)
            }
            _ => return None,
        };
        out.push(step);
        v = next;
    }
    Some(out)
}

/// An empty map or list, or nothing: what a change leaves when all of it is ignored.
fn is_empty_value(v: &Option<Value>) -> bool {
    v.as_ref().is_none_or(Value::is_null_or_empty)
}

/// Removes every location, deepest and last first so earlier list indexes stay right.
fn remove_all(v: &mut Value, mut locations: Vec<Vec<Step>>) {
    locations.sort();
    locations.dedup();
    for steps in locations.iter().rev() {
        if remove_at(v, steps) {
            // Never leave a document without its top level.
            *v = Value::Map(Default::default());
        }
    }
}

/// The rules of every `--ignore` file.
#[derive(Debug, Default)]
pub struct RuleSet {
    rules: Vec<IgnoreRule>,
}

impl RuleSet {
    pub fn new(rules: Vec<IgnoreRule>) -> RuleSet {
        RuleSet { rules }
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// What in `changes` (from `before`, the live object, to `after`) the rules leave out.
    /// `live_entries` are the live object's managedFields, for `managedFieldsManagers`.
    pub fn filter(
        &self,
        before: &Value,
        after: &Value,
        live_entries: &[ManagedFieldsEntry],
        changes: Vec<FieldChange>,
    ) -> Filtered {
        let object = after;
        let matching: Vec<&IgnoreRule> = self
            .rules
            .iter()
            .filter(|r| r.target.matches(object))
            .collect();
        // Each rule's expressions, evaluated once per side.
        let jq_paths: Vec<Vec<ExpressionPaths>> = matching
            .iter()
            .map(|r| {
                r.expressions
                    .iter()
                    .map(|e| (e.text.clone(), e.paths(before), e.paths(after)))
                    .collect()
            })
            .collect();
        let mut out = Filtered {
            kept: Vec::new(),
            ignored: Vec::new(),
            before: before.clone(),
            after: after.clone(),
        };
        let (mut drop_before, mut drop_after) = (Vec::new(), Vec::new());
        for change in changes {
            let at_before = locate(before, &change.path);
            let at_after = locate(after, &change.path);
            let sides = [at_before.as_deref(), at_after.as_deref()];
            let mut rule = None;
            for (r, exprs) in matching.iter().zip(&jq_paths) {
                if let Some(p) = r.pointers.iter().find(|p| {
                    let tokens = pointer_tokens(p);
                    sides.iter().flatten().any(|s| under_tokens(s, &tokens))
                }) {
                    rule = Some(format!("{}: jsonPointers {p}", r.source));
                } else if let Some((text, _, _)) = exprs.iter().find(|(_, b, a)| {
                    let hit = |side: Option<&[Step]>, paths: &Vec<Vec<Step>>| {
                        side.is_some_and(|s| paths.iter().any(|p| s.starts_with(p)))
                    };
                    hit(sides[0], b) || hit(sides[1], a)
                }) {
                    rule = Some(format!("{}: jqPathExpressions {text}", r.source));
                } else if let Some(m) = r.managers.iter().find(|m| {
                    live_entries
                        .iter()
                        .any(|e| &e.manager == *m && e.fields.covers(change.path.elements()))
                }) {
                    rule = Some(format!("{}: managedFieldsManagers {m}", r.source));
                }
                if rule.is_some() {
                    break;
                }
            }
            let mut change = change;
            if rule.is_none() {
                // Rules naming fields inside an added or removed subtree: take those out of
                // the change; if nothing is left, the change is ignored as a whole.
                let mut inner: Vec<(usize, Vec<Step>, String)> = Vec::new();
                for (r, exprs) in matching.iter().zip(&jq_paths) {
                    for (side, value) in [before, after].into_iter().enumerate() {
                        let Some(at) = sides[side] else { continue };
                        for p in &r.pointers {
                            let tokens = pointer_tokens(p);
                            if tokens.len() > at.len() && under_tokens(at, &tokens[..at.len()]) {
                                if let Some(steps) = resolve_tokens(value, &tokens) {
                                    inner.push((
                                        side,
                                        steps,
                                        format!("{}: jsonPointers {p}", r.source),
                                    ));
                                }
                            }
                        }
                        for (text, b, a) in exprs {
                            let paths = if side == 0 { b } else { a };
                            for p in paths
                                .iter()
                                .filter(|p| p.len() > at.len() && p.starts_with(at))
                            {
                                inner.push((
                                    side,
                                    p.clone(),
                                    format!("{}: jqPathExpressions {text}", r.source),
                                ));
                            }
                        }
                    }
                }
                for (side, steps, rule_text) in &inner {
                    let at_len = sides[*side].map_or(0, <[Step]>::len);
                    let slot = if *side == 0 {
                        &mut change.before
                    } else {
                        &mut change.after
                    };
                    if let Some(v) = slot.as_mut() {
                        if remove_at(v, &steps[at_len..]) {
                            *slot = None;
                        }
                    }
                    if *side == 0 {
                        drop_before.push(steps.clone())
                    } else {
                        drop_after.push(steps.clone())
                    }
                    if rule.is_none() {
                        rule = Some(rule_text.clone());
                    }
                }
                if !(is_empty_value(&change.before) && is_empty_value(&change.after)) {
                    // Part of the change stays: report the parts taken out.
                    for (side, steps, rule_text) in inner {
                        let path = crate::fieldpath::Path(
                            steps
                                .iter()
                                .map(|s| match s {
                                    Step::Field(f) => PathElement::Field(f.clone()),
                                    Step::Index(i) => PathElement::Index(*i),
                                })
                                .collect(),
                        );
                        let part = FieldChange {
                            path,
                            steps,
                            before: None,
                            after: None,
                            owners: Vec::new(),
                            kind: if side == 0 {
                                crate::changes::FieldChangeKind::Removed
                            } else {
                                crate::changes::FieldChangeKind::Added
                            },
                        };
                        out.ignored.push(IgnoredChange {
                            change: part,
                            rule: rule_text,
                        });
                    }
                    rule = None;
                }
            }
            match rule {
                Some(rule) => {
                    drop_before.extend(at_before);
                    drop_after.extend(at_after);
                    out.ignored.push(IgnoredChange { change, rule });
                }
                None => out.kept.push(change),
            }
        }
        remove_all(&mut out.before, drop_before);
        remove_all(&mut out.after, drop_after);
        out
    }
}
