//! The path-level change set of one object as JSON (`path`, `pointer`, `before`, `after`,
//! `owner`), and the changes ignore rules left out, for `diff -o json`.

use crate::changes::{pointer, FieldChange};
use crate::ignore::IgnoredChange;
use crate::value::{Map, Value};

fn change_value(c: &FieldChange) -> Map {
    let mut m = Map::default();
    let path = c.path.to_string();
    m.insert("op".into(), Value::from(c.kind.as_str()));
    m.insert("path".into(), Value::from(path.as_str()));
    m.insert("pointer".into(), Value::from(pointer(&c.steps).as_str()));
    m.insert("before".into(), c.before.clone().unwrap_or(Value::Null));
    m.insert("after".into(), c.after.clone().unwrap_or(Value::Null));
    m.insert(
        "owner".into(),
        Value::List(c.owners.iter().map(|o| Value::from(o.as_str())).collect()),
    );
    m
}

/// One entry per changed field.
pub fn field_changes_value(changes: &[FieldChange]) -> Value {
    Value::List(
        changes
            .iter()
            .map(|c| Value::Map(change_value(c)))
            .collect(),
    )
}

/// One entry per ignored change, with the rule that matched.
pub fn ignored_changes_value(ignored: &[IgnoredChange]) -> Value {
    Value::List(
        ignored
            .iter()
            .map(|i| {
                let mut m = change_value(&i.change);
                m.insert("rule".into(), Value::from(i.rule.as_str()));
                Value::Map(m)
            })
            .collect(),
    )
}

/// `ignored: <object>: <path>: <rule>`, one line per ignored change, for stderr.
pub fn ignored_lines(object: &str, ignored: &[IgnoredChange]) -> String {
    ignored
        .iter()
        .map(|i| format!("ignored: {object}: {}: {}\n", i.change.path, i.rule))
        .collect()
}
