//! Label selectors in kubectl's `-l` syntax (`app=web,tier!=db,env in (a,b),!legacy`), as
//! `labels.Parse` in k8s.io/apimachinery/pkg/labels/selector.go reads them: requirements joined
//! by commas, all of which must hold.

use crate::value::Value;
use std::fmt;

/// A selector that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("label selector {selector:?}: {message}")]
pub struct SelectorError {
    pub selector: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Operator {
    Equals(String),
    NotEquals(String),
    In(Vec<String>),
    NotIn(Vec<String>),
    Exists,
    DoesNotExist,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Requirement {
    key: String,
    operator: Operator,
}

/// A parsed label selector; the empty selector matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector {
    text: String,
    requirements: Vec<Requirement>,
}

impl fmt::Display for LabelSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Splits at commas outside parentheses.
fn split_requirements(text: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
}

fn valid_value(value: &str) -> bool {
    value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

impl LabelSelector {
    pub fn parse(text: &str) -> Result<LabelSelector, SelectorError> {
        let fail = |message: String| SelectorError {
            selector: text.to_string(),
            message,
        };
        let mut requirements = Vec::new();
        if text.trim().is_empty() {
            return Ok(LabelSelector::default());
        }
        for part in split_requirements(text) {
            let part = part.trim();
            let (key, operator) = if let Some(key) = part.strip_prefix('!') {
                (key.trim(), Operator::DoesNotExist)
            } else if let Some((key, value)) = part.split_once("!=") {
                (key.trim(), Operator::NotEquals(value.trim().to_string()))
            } else if let Some((key, value)) = part.split_once("==") {
                (key.trim(), Operator::Equals(value.trim().to_string()))
            } else if let Some((key, value)) = part.split_once('=') {
                (key.trim(), Operator::Equals(value.trim().to_string()))
            } else if let Some((key, rest)) = part.split_once(char::is_whitespace) {
                let rest = rest.trim();
                let (word, list) = rest
                    .split_once('(')
                    .ok_or_else(|| fail(format!("{part:?}: expected `in (…)` or `notin (…)`")))?;
                let list = list
                    .strip_suffix(')')
                    .ok_or_else(|| fail(format!("{part:?}: missing `)`")))?;
                let values: Vec<String> = list
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .collect();
                match word.trim() {
                    "in" => (key.trim(), Operator::In(values)),
                    "notin" => (key.trim(), Operator::NotIn(values)),
                    other => return Err(fail(format!("unknown operator {other:?}"))),
                }
            } else {
                (part, Operator::Exists)
            };
            if !valid_key(key) {
                return Err(fail(format!("invalid label key {key:?}")));
            }
            let values: Vec<&String> = match &operator {
                Operator::Equals(v) | Operator::NotEquals(v) => vec![v],
                Operator::In(vs) | Operator::NotIn(vs) => vs.iter().collect(),
                _ => Vec::new(),
            };
            if let Some(bad) = values.iter().find(|v| !valid_value(v)) {
                return Err(fail(format!("invalid label value {bad:?}")));
            }
            requirements.push(Requirement {
                key: key.to_string(),
                operator,
            });
        }
        Ok(LabelSelector {
            text: text.to_string(),
            requirements,
        })
    }

    /// Whether an object's `metadata.labels` satisfy every requirement.
    pub fn matches(&self, object: &Value) -> bool {
        self.matches_pairs(object.get_path(&["metadata", "labels"]))
    }

    /// Whether a map of strings (labels, or annotations for Flux's `annotationSelector`)
    /// satisfies every requirement.
    pub fn matches_pairs(&self, pairs: Option<&Value>) -> bool {
        let label = |k: &str| pairs.and_then(|p| p.get(k)).and_then(Value::as_str);
        self.requirements.iter().all(|r| {
            let got = label(&r.key);
            match &r.operator {
                Operator::Equals(v) => got == Some(v.as_str()),
                Operator::NotEquals(v) => got != Some(v.as_str()),
                Operator::In(vs) => got.is_some_and(|g| vs.iter().any(|v| v == g)),
                Operator::NotIn(vs) => got.is_none_or(|g| vs.iter().all(|v| v != g)),
                Operator::Exists => got.is_some(),
                Operator::DoesNotExist => got.is_none(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn obj(labels: &str) -> Value {
        from_json_str(&format!(r#"{{"metadata":{{"labels":{labels}}}}}"#)).unwrap()
    }

    #[test]
    fn each_operator() {
        let o = obj(r#"{"app":"web","env":"prod"}"#);
        for (sel, want) in [
            ("app=web", true),
            ("app==web", true),
            ("app!=web", false),
            ("app=web,env=dev", false),
            ("env in (dev, prod)", true),
            ("env notin (dev,prod)", false),
            ("app,env", true),
            ("!legacy", true),
            ("!app", false),
            ("tier!=db", true),
            ("", true),
        ] {
            assert_eq!(
                LabelSelector::parse(sel).unwrap().matches(&o),
                want,
                "{sel}"
            );
        }
    }

    #[test]
    fn bad_selectors_are_errors() {
        for sel in ["a b", "env in (a", "=x", "a=b c"] {
            assert!(LabelSelector::parse(sel).is_err(), "{sel}");
        }
    }
}
