//! `kssa replay`: runs scenario files of applies and updates through the API server's write
//! path ([`crate::managed::write`]) and checks each step's expectations. Nothing here prints;
//! the CLI renders [`ScenarioReport`]s.

mod diff;
mod scenario;

pub use diff::{line_diff, DiffLine};
pub use scenario::{Expect, Options, Scenario, ScenarioError, Step};

use crate::kube::SchemaRegistry;
use crate::managed::{write, Operation, WriteError, WriteRequest};
use crate::value::{to_json_string_pretty, Map, Value};

/// What one step did.
#[derive(Debug, Clone, PartialEq)]
pub enum StepResult {
    /// The write succeeded.
    Written {
        changed: bool,
        managed_fields_changed: bool,
    },
    /// The apply hit conflicts; `conflicts` are (manager, path) pairs.
    Conflicts {
        message: String,
        conflicts: Vec<(String, String)>,
    },
    /// The write was rejected.
    Failed { message: String },
}

/// A difference between a step's expectation and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// `error`, `conflicts` or `object`.
    pub what: &'static str,
    /// Expected and actual, rendered for a line diff (objects as sorted, indented JSON).
    pub expected: String,
    pub actual: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    pub index: usize,
    pub op: Operation,
    pub manager: String,
    pub subresource: String,
    pub force: bool,
    /// Set when the kind has no schema and the deduced one was used.
    pub notice: Option<String>,
    pub result: StepResult,
    /// Empty when the step had no expectation or met it.
    pub mismatches: Vec<Mismatch>,
    pub checked: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioReport {
    pub name: String,
    pub steps: Vec<StepReport>,
    /// The stored object after the last step.
    pub object: Option<Value>,
}

impl ScenarioReport {
    pub fn passed(&self) -> bool {
        self.steps.iter().all(|s| s.mismatches.is_empty())
    }
}

/// Runs every step; a failed step leaves the stored object as it was.
pub fn run(scenario: &Scenario, registry: &SchemaRegistry) -> ScenarioReport {
    let mut live = scenario.live.clone();
    let mut steps = Vec::new();
    for (index, step) in scenario.steps.iter().enumerate() {
        let (result, notice) = run_step(step, scenario.options, registry, &mut live);
        let mismatches = step
            .expect
            .as_ref()
            .map(|e| check(e, &result, live.as_ref()))
            .unwrap_or_default();
        steps.push(StepReport {
            index,
            op: step.op,
            manager: step.manager.clone(),
            subresource: step.subresource.clone(),
            force: step.force,
            notice,
            result,
            mismatches,
            checked: step.expect.is_some(),
        });
    }
    ScenarioReport {
        name: scenario.name.clone(),
        steps,
        object: live,
    }
}

fn run_step(
    step: &Step,
    options: Options,
    registry: &SchemaRegistry,
    store: &mut Option<Value>,
) -> (StepResult, Option<String>) {
    let text = |k: &str| {
        step.object
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let kind = match registry.resolve(text("apiVersion"), text("kind")) {
        Ok(k) => k,
        Err(e) => {
            return (
                StepResult::Failed {
                    message: e.to_string(),
                },
                None,
            )
        }
    };
    let req = WriteRequest {
        operation: step.op,
        manager: &step.manager,
        force: step.force,
        subresource: &step.subresource,
        now: &step.now,
        reset_fields: options.reset_fields,
        normalize_unions: options.normalize_unions,
        defaulting: options.defaulting,
        validation: None,
        managed_fields: true,
        patch: None,
    };
    let result = match write(store.as_ref(), &step.object, &kind, &req) {
        Ok(out) => {
            *store = Some(out.object);
            StepResult::Written {
                changed: out.changed,
                managed_fields_changed: out.managed_fields_changed,
            }
        }
        Err(WriteError::Conflicts { conflicts, message }) => StepResult::Conflicts {
            message,
            conflicts: conflicts
                .into_iter()
                .map(|c| (c.manager, c.path.to_string()))
                .collect(),
        },
        Err(e) => StepResult::Failed {
            message: e.to_string(),
        },
    };
    (result, kind.deduced_notice())
}

fn check(expect: &Expect, result: &StepResult, live: Option<&Value>) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if let Some(error) = &expect.error {
        let actual = match result {
            StepResult::Written { .. } => None,
            StepResult::Conflicts { message, .. } | StepResult::Failed { message } => {
                Some(message.clone())
            }
        };
        if *error != actual {
            let show = |e: &Option<String>| e.clone().unwrap_or_else(|| "(no error)".into());
            out.push(Mismatch {
                what: "error",
                expected: show(error),
                actual: show(&actual),
            });
        }
    }
    if let Some(expected) = &expect.conflicts {
        let mut expected = expected.clone();
        let mut actual = match result {
            StepResult::Conflicts { conflicts, .. } => conflicts.clone(),
            _ => Vec::new(),
        };
        expected.sort();
        expected.dedup();
        actual.sort();
        actual.dedup();
        if expected != actual {
            let show = |c: &[(String, String)]| {
                c.iter()
                    .map(|(m, p)| format!("{m}: {p}\n"))
                    .collect::<String>()
            };
            out.push(Mismatch {
                what: "conflicts",
                expected: show(&expected),
                actual: show(&actual),
            });
        }
    }
    if let Some(expected) = &expect.object {
        if expected.as_ref() != live {
            let show = |o: Option<&Value>| match o {
                Some(v) => to_json_string_pretty(&v.with_sorted_keys()) + "\n",
                None => "null\n".into(),
            };
            out.push(Mismatch {
                what: "object",
                expected: show(expected.as_ref()),
                actual: show(live),
            });
        }
    }
    out
}

/// A machine-readable form of a report (`kssa replay --json`).
pub fn report_to_value(file: &str, report: &ScenarioReport) -> Value {
    let mut m = Map::default();
    m.insert("file".into(), Value::from(file));
    m.insert("name".into(), Value::from(report.name.as_str()));
    m.insert("passed".into(), Value::Bool(report.passed()));
    let steps = report
        .steps
        .iter()
        .map(|s| {
            let mut st = Map::default();
            st.insert("index".into(), Value::Int(s.index as i64));
            st.insert(
                "op".into(),
                Value::from(if s.op == Operation::Apply {
                    "apply"
                } else {
                    "update"
                }),
            );
            st.insert("manager".into(), Value::from(s.manager.as_str()));
            if !s.subresource.is_empty() {
                st.insert("subresource".into(), Value::from(s.subresource.as_str()));
            }
            st.insert("force".into(), Value::Bool(s.force));
            if let Some(n) = &s.notice {
                st.insert("notice".into(), Value::from(n.as_str()));
            }
            match &s.result {
                StepResult::Written {
                    changed,
                    managed_fields_changed,
                } => {
                    st.insert("result".into(), Value::from("written"));
                    st.insert("changed".into(), Value::Bool(*changed));
                    st.insert(
                        "managedFieldsChanged".into(),
                        Value::Bool(*managed_fields_changed),
                    );
                }
                StepResult::Conflicts { message, conflicts } => {
                    st.insert("result".into(), Value::from("conflicts"));
                    st.insert("error".into(), Value::from(message.as_str()));
                    let list = conflicts
                        .iter()
                        .map(|(m, p)| {
                            let mut c = Map::default();
                            c.insert("manager".into(), Value::from(m.as_str()));
                            c.insert("path".into(), Value::from(p.as_str()));
                            Value::Map(c)
                        })
                        .collect();
                    st.insert("conflicts".into(), Value::List(list));
                }
                StepResult::Failed { message } => {
                    st.insert("result".into(), Value::from("failed"));
                    st.insert("error".into(), Value::from(message.as_str()));
                }
            }
            st.insert("checked".into(), Value::Bool(s.checked));
            let mismatches = s
                .mismatches
                .iter()
                .map(|mm| {
                    let mut x = Map::default();
                    x.insert("what".into(), Value::from(mm.what));
                    x.insert("expected".into(), Value::from(mm.expected.as_str()));
                    x.insert("actual".into(), Value::from(mm.actual.as_str()));
                    Value::Map(x)
                })
                .collect();
            st.insert("mismatches".into(), Value::List(mismatches));
            Value::Map(st)
        })
        .collect();
    m.insert("steps".into(), Value::List(steps));
    Value::Map(m)
}
