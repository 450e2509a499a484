//! Scenario files (conformance FORMAT.md §2): a stored object and a list of applies and updates,
//! each optionally with the expected outcome.

use crate::kube::KubeVersion;
use crate::managed::Operation;
use crate::value::{from_json_str, Value};
use crate::yaml::parse_stream;

/// What the scenario's reference modelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Only `false` is supported: merged objects are stored as merged.
    pub defaulting: bool,
    pub reset_fields: bool,
    /// Normalize unions (KEP-1027) on every step; off, as on a real API server.
    pub normalize_unions: bool,
    /// `kubeVersion`: the Kubernetes version the scenario models; `None`: the caller's.
    pub kube_version: Option<KubeVersion>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            defaulting: false,
            reset_fields: true,
            normalize_unions: false,
            kube_version: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub options: Options,
    pub live: Option<Value>,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub op: Operation,
    pub manager: String,
    pub force: bool,
    pub subresource: String,
    pub now: String,
    pub object: Value,
    pub expect: Option<Expect>,
}

/// Expected outcome of a step; `None` fields are not checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Expect {
    /// `Some(None)`: the step must succeed.
    pub error: Option<Option<String>>,
    /// `Some(vec![])`: no conflicts. Pairs of manager and path text.
    pub conflicts: Option<Vec<(String, String)>>,
    /// `Some(None)`: no object is stored after the step.
    pub object: Option<Option<Value>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot parse the scenario: {0}")]
    Syntax(String),
    #[error("{0}")]
    Invalid(String),
}

impl Scenario {
    /// Parses a scenario from JSON (or YAML, a superset); `fallback_name` names unnamed ones.
    pub fn parse(text: &str, fallback_name: &str) -> Result<Scenario, ScenarioError> {
        let value = match from_json_str(text) {
            Ok(v) => v,
            Err(json_err) => {
                let docs = parse_stream(text.as_bytes())
                    .map_err(|_| ScenarioError::Syntax(json_err.to_string()))?;
                match docs.into_iter().next() {
                    Some(d) => d.value,
                    None => return Err(ScenarioError::Syntax("empty document".into())),
                }
            }
        };
        Scenario::from_value(&value, fallback_name)
    }

    pub fn from_value(v: &Value, fallback_name: &str) -> Result<Scenario, ScenarioError> {
        let invalid = |m: String| ScenarioError::Invalid(m);
        if v.as_map().is_none() {
            return Err(invalid("a scenario must be an object".into()));
        }
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let mut options = Options::default();
        if let Some(o) = v.get("options").filter(|o| !o.is_null()) {
            let flag = |k: &str| match o.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Bool(b)) => Ok(Some(*b)),
                Some(other) => Err(invalid(format!(
                    "options.{k} must be a boolean, got {}",
                    other.kind_name()
                ))),
            };
            if let Some(d) = flag("defaulting")? {
                options.defaulting = d;
            }
            if let Some(r) = flag("resetFields")? {
                options.reset_fields = r;
            }
            if let Some(n) = flag("normalizeUnions")? {
                options.normalize_unions = n;
            }
            options.kube_version = match o.get("kubeVersion") {
                None | Some(Value::Null) => None,
                Some(Value::String(v)) => Some(
                    v.parse()
                        .map_err(|e| invalid(format!("options.kubeVersion: {e}")))?,
                ),
                Some(other) => {
                    return Err(invalid(format!(
                        "options.kubeVersion must be a string such as \"1.31\", got {}",
                        other.kind_name()
                    )))
                }
            };
        }
        let live = match v.get("live") {
            None | Some(Value::Null) => None,
            Some(l @ Value::Map(_)) => Some(l.clone()),
            Some(other) => {
                return Err(invalid(format!(
                    "live must be an object or null, got {}",
                    other.kind_name()
                )))
            }
        };
        let steps = v
            .get("steps")
            .and_then(Value::as_list)
            .ok_or_else(|| invalid("steps must be a list".into()))?
            .iter()
            .enumerate()
            .map(|(i, s)| parse_step(s).map_err(|m| invalid(format!("steps[{i}]: {m}"))))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Scenario {
            name: text(v, "name").unwrap_or_else(|| fallback_name.to_string()),
            description: text(v, "description").unwrap_or_default(),
            options,
            live,
            steps,
        })
    }
}

fn parse_step(s: &Value) -> Result<Step, String> {
    let text = |k: &str| s.get(k).and_then(Value::as_str).map(str::to_string);
    let op = match text("op").as_deref() {
        Some("apply") => Operation::Apply,
        Some("update") => Operation::Update,
        other => return Err(format!("op must be \"apply\" or \"update\", got {other:?}")),
    };
    let manager = text("manager").ok_or("manager is required")?;
    let force = match s.get("force") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("force must be a boolean".into()),
    };
    let now = text("now").ok_or("now is required")?;
    let object = match s.get("object") {
        Some(o @ Value::Map(_)) => o.clone(),
        _ => return Err("object must be an object".into()),
    };
    let expect = match s.get("expect") {
        None | Some(Value::Null) => None,
        Some(e) => Some(parse_expect(e)?),
    };
    Ok(Step {
        op,
        manager,
        force,
        subresource: text("subresource").unwrap_or_default(),
        now,
        object,
        expect,
    })
}

fn parse_expect(e: &Value) -> Result<Expect, String> {
    let error = match e.get("error") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(_) => return Err("expect.error must be a string or null".into()),
    };
    let conflicts = match e.get("conflicts") {
        None => None,
        Some(Value::Null) => Some(Vec::new()),
        Some(Value::List(items)) => Some(
            items
                .iter()
                .map(|c| {
                    let f = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
                    f("manager")
                        .zip(f("path"))
                        .ok_or_else(|| "expect.conflicts[] needs manager and path".to_string())
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(_) => return Err("expect.conflicts must be a list or null".into()),
    };
    let object = match e.get("object") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(o) => Some(Some(o.clone())),
    };
    Ok(Expect {
        error,
        conflicts,
        object,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_unions_is_off_unless_asked() {
        let off = Scenario::parse(r#"{"steps": []}"#, "s").unwrap();
        assert!(!off.options.normalize_unions);
        let on = Scenario::parse(
            r#"{"options": {"normalizeUnions": true}, "steps": []}"#,
            "s",
        )
        .unwrap();
        assert!(on.options.normalize_unions);
    }
}
