//! `x-kubernetes-validations` rules evaluated over a custom resource, as the API server's
//! apiextensions `pkg/apiserver/schema/cel/validation.go` (`Validator.validate`) does: each rule
//! at each node of the schema with `self` (and `oldSelf` on update, for transition rules), the
//! failure worded from `message`, `messageExpression`, `reason` and `fieldPath`.
//!
//! The interpreter is the `cel` crate with the Kubernetes libraries of `kube-cel` and kssa's own
//! (`cel_support.rs`); a rule it cannot evaluate (a function it lacks, a failure of its own) is
//! skipped with a notice, never refused.

use super::cel_support::{data_error_text, Program};
use super::cel_values::{escape, to_cel};
use super::schema::{Rule, SchemaNode};
use super::structural::{correlated_item, pruned_null, unchanged};
use crate::validate::field::{BadValue, ErrorType, FieldError};
use crate::value::Value;
use kube_cel::cel::{self, Context, ExecutionError};
use std::sync::Arc;

/// The longest message a `messageExpression` may produce (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;

/// A rule, compiled once.
#[derive(Debug)]
pub(super) enum CompiledRule {
    Ready {
        program: Program,
        message: Option<Program>,
        uses_old_self: bool,
    },
    /// The interpreter cannot run the rule; why.
    Unsupported(String),
}

fn compile(rule: &Rule) -> CompiledRule {
    let program = match Program::compile(&rule.rule) {
        Ok(p) => p,
        Err(e) => {
            return CompiledRule::Unsupported(format!(
                "does not parse: {}",
                first_line(&e.to_string())
            ))
        }
    };
    let uses_old_self = program.references().has_variable("oldSelf");
    let message = rule
        .message_expression
        .as_deref()
        .and_then(|m| Program::compile(m).ok());
    CompiledRule::Ready {
        program,
        message,
        uses_old_self,
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

/// A rule kssa could not evaluate: where, which, why.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedRule {
    pub field: String,
    pub rule: String,
    pub reason: String,
}

/// The outcome of the rules over one object.
#[derive(Debug, Default)]
pub struct RuleOutcome {
    pub errors: Vec<FieldError>,
    /// Failures of rules without `oldSelf` on parts the update leaves unchanged: the API server
    /// ratchets them into warnings.
    pub warnings: Vec<FieldError>,
    pub skipped: Vec<SkippedRule>,
}

/// Evaluates every rule of the schema over `object` (`old`: the live object on an update).
pub fn evaluate_rules(root: &SchemaNode, object: &Value, old: Option<&Value>) -> RuleOutcome {
    let base = super::cel_support::context();
    let mut walker = Walker {
        base,
        outcome: RuleOutcome::default(),
    };
    walker.node(root, object, old, None, true, false);
    walker.outcome
}

struct Walker<'a> {
    base: Context<'a>,
    outcome: RuleOutcome,
}

/// A field path as apimachinery's `field.Path` prints it; `None` is the root (`<nil>`).
fn path_string(path: Option<&str>) -> String {
    path.unwrap_or("<nil>").to_string()
}

fn child(path: Option<&str>, name: &str) -> String {
    match path {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    }
}

fn indexed(path: Option<&str>, index: &str) -> String {
    format!("{}[{index}]", path.unwrap_or(""))
}

impl Walker<'_> {
    /// `ratchet`: errors of rules without `oldSelf` here become warnings (the nearest correlated
    /// part of the object is unchanged).
    fn node(
        &mut self,
        node: &SchemaNode,
        value: &Value,
        old: Option<&Value>,
        path: Option<&str>,
        resource_root: bool,
        ratchet: bool,
    ) {
        if value.is_null() {
            return;
        }
        let ratchet = match old {
            Some(o) => unchanged(node, value, o),
            None => ratchet,
        };
        if !node.rules.is_empty() {
            self.rules(node, value, old, path, resource_root, ratchet);
        }
        match value {
            Value::Map(m) => {
                // Maps correlate by key unless a future map type says otherwise.
                let correlated = matches!(
                    node.map_type.as_deref(),
                    None | Some("granular") | Some("atomic")
                );
                let old_of = |k: &str| old.filter(|_| correlated).and_then(|o| o.get(k));
                if let Some(additional) = node.additional_properties.as_deref() {
                    for (k, v) in m.iter().filter(|(k, _)| !node.properties.contains_key(*k)) {
                        let p = indexed(path, k);
                        self.node(
                            additional,
                            v,
                            old_of(k),
                            Some(&p),
                            additional.embedded_resource,
                            ratchet,
                        );
                    }
                }
                for (k, v) in m {
                    let Some(property) = node.properties.get(k) else {
                        continue;
                    };
                    if pruned_null(node, k, v) || (escape(k).is_none() && !property.has_rules()) {
                        continue;
                    }
                    let p = child(path, k);
                    self.node(
                        property,
                        v,
                        old_of(k),
                        Some(&p),
                        property.embedded_resource,
                        ratchet,
                    );
                }
            }
            Value::List(items) => {
                if let Some(item_schema) = node.items.as_deref() {
                    let old_items = old.and_then(Value::as_list);
                    for (i, item) in items.iter().enumerate() {
                        let old_item = old_items.and_then(|o| correlated_item(node, item, o));
                        let p = indexed(path, &i.to_string());
                        self.node(
                            item_schema,
                            item,
                            old_item,
                            Some(&p),
                            item_schema.embedded_resource,
                            ratchet,
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn rules(
        &mut self,
        node: &SchemaNode,
        value: &Value,
        old: Option<&Value>,
        path: Option<&str>,
        resource_root: bool,
        ratchet: bool,
    ) {
        let self_value = to_cel(node, value, resource_root);
        let old_value = old.map(|o| to_cel(node, o, resource_root));
        let type_label = node.type_label();
        for rule in &node.rules {
            let compiled = rule.compiled.get_or_init(|| compile(rule));
            let (program, message, uses_old_self) = match compiled {
                CompiledRule::Ready {
                    program,
                    message,
                    uses_old_self,
                } => (program, message, *uses_old_self),
                CompiledRule::Unsupported(reason) => {
                    self.skip(path, rule, reason.clone());
                    continue;
                }
            };
            // Transition rules run only when there is an old value, unless `optionalOldSelf`.
            if uses_old_self && old_value.is_none() && !rule.optional_old_self {
                continue;
            }
            let mut ctx = self.base.new_inner_scope();
            ctx.add_variable_from_value("self", self_value.clone());
            if rule.optional_old_self {
                let optional = match &old_value {
                    Some(o) => cel::objects::OptionalValue::of(o.clone()),
                    None => cel::objects::OptionalValue::none(),
                };
                ctx.add_variable_from_value("oldSelf", cel::Value::Opaque(Arc::new(optional)));
            } else if let Some(o) = &old_value {
                ctx.add_variable_from_value("oldSelf", o.clone());
            }
            let result = program.execute(&ctx);
            let error = match result {
                Ok(cel::Value::Bool(true)) => continue,
                Ok(cel::Value::Bool(false)) => {
                    // The message expression sees `oldSelf` as a plain value (the non-optional
                    // activation).
                    let mut message_ctx = self.base.new_inner_scope();
                    message_ctx.add_variable_from_value("self", self_value.clone());
                    if let Some(o) = &old_value {
                        message_ctx.add_variable_from_value("oldSelf", o.clone());
                    }
                    let detail = message
                        .as_ref()
                        .and_then(|m| evaluated_message(m, &message_ctx))
                        .unwrap_or_else(|| rule.message_or_default());
                    let field = match &rule.field_path {
                        Some(fp) => match normalized_field_path(node, fp) {
                            Some(rel) => child(path, &rel),
                            None => path_string(path),
                        },
                        None => path_string(path),
                    };
                    failure(rule, field, type_label, detail)
                }
                Ok(other) => {
                    self.skip(path, rule, format!("evaluates to {other:?}, not a bool"));
                    continue;
                }
                Err(e) => match runtime_error(&e) {
                    Some(text) => FieldError::new(
                        ErrorType::Invalid,
                        path_string(path),
                        BadValue::Value(Value::from(type_label)),
                        format!("{text} evaluating rule: {}", rule.error_string()),
                    ),
                    None => {
                        self.skip(path, rule, format!("the interpreter fails: {e}"));
                        continue;
                    }
                },
            };
            if ratchet && !uses_old_self {
                self.outcome.warnings.push(error);
            } else {
                self.outcome.errors.push(error);
            }
        }
    }

    fn skip(&mut self, path: Option<&str>, rule: &Rule, reason: String) {
        self.outcome.skipped.push(SkippedRule {
            field: path_string(path),
            rule: rule.rule.trim().to_string(),
            reason,
        });
    }
}

/// The error of a failed rule by its `reason` (`fieldErrorForReason`).
fn failure(rule: &Rule, field: String, type_label: &str, detail: String) -> FieldError {
    let value = || BadValue::Value(Value::from(type_label));
    match rule.reason.as_deref() {
        Some("FieldValueForbidden") => {
            FieldError::new(ErrorType::Forbidden, field, BadValue::Omitted, detail)
        }
        Some("FieldValueRequired") => {
            FieldError::new(ErrorType::Required, field, BadValue::Omitted, detail)
        }
        Some("FieldValueDuplicate") => FieldError::new(ErrorType::Duplicate, field, value(), ""),
        _ => FieldError::new(ErrorType::Invalid, field, value(), detail),
    }
}

/// The message a `messageExpression` evaluates to, trimmed; `None` when it fails, is not a
/// string, is empty, has line breaks or is too long (the server then uses `message`).
fn evaluated_message(program: &Program, ctx: &Context) -> Option<String> {
    match program.execute(ctx) {
        Ok(cel::Value::String(s)) => {
            let trimmed = s.trim();
            (!trimmed.is_empty() && !trimmed.contains('\n') && trimmed.len() <= MAX_MESSAGE_BYTES)
                .then(|| trimmed.to_string())
        }
        _ => None,
    }
}

/// The text cel-go gives a runtime error over the data (a missing field, an index out of range,
/// arithmetic), which the server reports; `None` for errors of the interpreter itself.
fn runtime_error(e: &ExecutionError) -> Option<String> {
    match e {
        ExecutionError::NoSuchKey(k) => Some(format!("no such key: {k}")),
        ExecutionError::IndexOutOfBounds(i) => {
            Some(format!("index out of bounds: {}", cel_scalar(i)))
        }
        ExecutionError::DivisionByZero(_) => Some("division by zero".to_string()),
        ExecutionError::RemainderByZero(_) => Some("modulus by zero".to_string()),
        ExecutionError::Overflow(..) => Some("integer overflow".to_string()),
        other => data_error_text(other),
    }
}

fn cel_scalar(v: &cel::Value) -> String {
    match v {
        cel::Value::Int(i) => i.to_string(),
        cel::Value::UInt(u) => u.to_string(),
        other => format!("{other:?}"),
    }
}

/// A rule's `fieldPath` (`.a.b`, `.a['x.y']`) as the child path the server reports
/// (`ValidFieldPath`): named properties as `.name`, map keys as `[key]`; `None` when it does not
/// resolve against the schema.
fn normalized_field_path(node: &SchemaNode, field_path: &str) -> Option<String> {
    let mut out = String::new();
    let mut schema = node;
    let mut rest = field_path;
    while !rest.is_empty() {
        let name = if let Some(r) = rest.strip_prefix(".") {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            rest = &r[end..];
            r[..end].to_string()
        } else if let Some(r) = rest.strip_prefix("['") {
            let end = r.find("']")?;
            rest = &r[end + 2..];
            r[..end].replace("\\'", "'").replace("\\\\", "\\")
        } else {
            return None;
        };
        if !schema.properties.is_empty() {
            schema = schema.properties.get(&name)?;
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&name);
        } else {
            schema = schema.additional_properties.as_deref()?;
            out.push_str(&format!("[{name}]"));
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
#[path = "cel_tests.rs"]
mod tests;
