//! Events, core/v1 and `events.k8s.io/v1` (one stored `core.Event`), as
//! k8s.io/kubernetes pkg/apis/core/validation/events.go checks them: `ValidateEventCreate` and
//! `ValidateEventUpdate` run `legacyValidateEvent` for every request and the strict rules only
//! for requests through `events.k8s.io/v1` (the strategy passes the request's group version,
//! pkg/registry/core/event/strategy.go). Paths name the internal fields (`involvedObject`,
//! `message`, `reportingController`, `source`, `count`) whichever version the client wrote.
//!
//! A core/v1 write gets its metadata checked only by the generic store after the strategy's
//! errors (`rest.BeforeCreate`: path-segment names), so the legacy errors replace the metadata
//! ones; through `events.k8s.io/v1` `ValidateObjectMeta` runs after the legacy rules.

use super::super::formats;
use super::super::{BadValue, FieldError, Write};
use super::fields::present;
use crate::validate::goprint::go_quote;
use crate::value::{Map, Value};

const REPORTING_INSTANCE_LIMIT: usize = 128;
const ACTION_LIMIT: usize = 128;
const REASON_LIMIT: usize = 128;
const NOTE_LIMIT: usize = 1024;

/// An Event's fields under their internal names, read from the version the client wrote.
struct Event<'v> {
    object: &'v Value,
    strict: bool,
}

impl<'v> Event<'v> {
    /// The object's field holding the internal field `internal`.
    fn field(&self, internal: &str) -> Option<&'v Value> {
        let name = match (self.strict, internal) {
            (true, "involvedObject") => "regarding",
            (true, "message") => "note",
            (true, "source") => "deprecatedSource",
            (true, "firstTimestamp") => "deprecatedFirstTimestamp",
            (true, "lastTimestamp") => "deprecatedLastTimestamp",
            (true, "count") => "deprecatedCount",
            (false, "reportingController") => "reportingComponent",
            (_, other) => other,
        };
        present(self.object, name)
    }

    fn text(&self, internal: &str) -> &'v str {
        self.field(internal).and_then(Value::as_str).unwrap_or("")
    }

    fn sub(&self, internal: &str, key: &str) -> &'v str {
        self.field(internal)
            .and_then(|v| v.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    fn namespace(&self) -> &'v str {
        self.object
            .get_path(&["metadata", "namespace"])
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    fn has_time(&self, internal: &str) -> bool {
        self.field(internal)
            .and_then(Value::as_str)
            .is_some_and(|t| !t.is_empty())
    }
}

/// `ValidateEventCreate` / `ValidateEventUpdate`, ordered around the metadata errors already
/// in `errors` (see the module comment).
pub fn event(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let strict = w.kind.gvk.group == "events.k8s.io";
    let new = Event { object, strict };
    let legacy = legacy(&new, w);
    if !strict {
        if !legacy.is_empty() {
            *errors = legacy;
        }
        return;
    }
    let meta = std::mem::replace(errors, legacy);
    errors.extend(meta);
    match w.live {
        None => strict_create(&new, errors),
        Some(old) => strict_update(
            &new,
            &Event {
                object: old,
                strict,
            },
            errors,
        ),
    }
}

/// `legacyValidateEvent`.
fn legacy(e: &Event, w: &Write) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let (namespace, involved) = (e.namespace(), e.sub("involvedObject", "namespace"));
    let mismatch = || {
        FieldError::invalid(
            "involvedObject.namespace",
            FieldError::string_value(involved),
            "does not match event.namespace",
        )
    };
    let limit = |errors: &mut Vec<FieldError>, field: &str, max: usize, required: bool| {
        let value = e.text(field);
        if required && value.is_empty() {
            errors.push(FieldError::required(field, ""));
        }
        if value.len() > max {
            errors.push(FieldError::invalid(
                field,
                FieldError::string_value(""),
                format!("can have at most {max} characters"),
            ));
        }
    };
    if !e.has_time("eventTime") {
        let matches = if involved.is_empty() {
            namespace.is_empty() || namespace == "default"
        } else {
            namespace == involved
        };
        if !matches {
            errors.push(mismatch());
        }
    } else {
        if involved.is_empty() && namespace != "default" && namespace != "kube-system" {
            errors.push(mismatch());
        }
        let controller = e.text("reportingController");
        if controller.is_empty() {
            errors.push(FieldError::required("reportingController", ""));
        }
        for msg in formats::label_key(controller, w.version()) {
            errors.push(FieldError::invalid(
                "reportingController",
                FieldError::string_value(controller),
                msg,
            ));
        }
        limit(
            &mut errors,
            "reportingInstance",
            REPORTING_INSTANCE_LIMIT,
            true,
        );
        limit(&mut errors, "action", ACTION_LIMIT, true);
        limit(&mut errors, "reason", REASON_LIMIT, true);
        limit(&mut errors, "message", NOTE_LIMIT, false);
    }
    for msg in formats::dns1123_subdomain(namespace) {
        errors.push(FieldError::invalid(
            "namespace",
            FieldError::string_value(namespace),
            msg,
        ));
    }
    errors
}

/// `validateV1EventSeries`.
fn series(e: &Event, errors: &mut Vec<FieldError>) {
    let Some(series) = e.field("series") else {
        return;
    };
    if series.get("count").and_then(Value::as_i64).unwrap_or(0) < 2 {
        errors.push(FieldError::invalid(
            "series.count",
            FieldError::string_value(""),
            "should be at least 2",
        ));
    }
    let observed = series.get("lastObservedTime").and_then(Value::as_str);
    if observed.is_none_or(str::is_empty) {
        errors.push(FieldError::required("series.lastObservedTime", ""));
    }
}

/// The strict rules of `ValidateEventCreate` after the metadata.
fn strict_create(e: &Event, errors: &mut Vec<FieldError>) {
    series(e, errors);
    if !e.has_time("eventTime") {
        errors.push(FieldError::required("eventTime", ""));
    }
    let kind = e.text("type");
    if kind != "Normal" && kind != "Warning" {
        errors.push(FieldError::invalid(
            "type",
            FieldError::string_value(""),
            format!("has invalid value: {kind}"),
        ));
    }
    let unset =
        |field: &str| FieldError::invalid(field, FieldError::string_value(""), "needs to be unset");
    for field in ["firstTimestamp", "lastTimestamp"] {
        if e.has_time(field) {
            errors.push(unset(field));
        }
    }
    if e.field("count").and_then(Value::as_i64).unwrap_or(0) != 0 {
        errors.push(unset("count"));
    }
    if !e.sub("source", "component").is_empty() || !e.sub("source", "host").is_empty() {
        errors.push(unset("source"));
    }
}

/// The strict rules of `ValidateEventUpdate` after the metadata: the series when it changed,
/// then every field immutable (`reason` twice, as upstream lists it). Times compare as
/// instants (`Semantic.DeepEqual`; `eventTime` truncated to the microsecond, which its
/// encoding already is).
fn strict_update(e: &Event, old: &Event, errors: &mut Vec<FieldError>) {
    if e.field("series") != old.field("series") {
        series(e, errors);
    }
    let immutable = |errors: &mut Vec<FieldError>, field: &str, value: BadValue| {
        errors.push(FieldError::invalid(field, value, "field is immutable"));
    };
    let reference = |ev: &Event, field: &str| reference_value(ev.field(field), field);
    for field in [
        "involvedObject",
        "reason",
        "message",
        "source",
        "firstTimestamp",
        "lastTimestamp",
        "count",
        "reason",
        "type",
        "eventTime",
        "action",
        "related",
        "reportingController",
        "reportingInstance",
    ] {
        match field {
            "involvedObject" | "related" | "source" => {
                let (new, was) = (reference(e, field), reference(old, field));
                if new != was {
                    immutable(errors, field, new);
                }
            }
            "firstTimestamp" | "lastTimestamp" | "eventTime" => {
                let (new, was) = (time_text(e, field), time_text(old, field));
                if new != was {
                    immutable(errors, field, time_value(new, field == "eventTime"));
                }
            }
            "count" => {
                let count = |ev: &Event| ev.field("count").and_then(Value::as_i64).unwrap_or(0);
                if count(e) != count(old) {
                    immutable(errors, field, BadValue::Value(Value::Int(count(e))));
                }
            }
            _ if e.text(field) != old.text(field) => {
                immutable(errors, field, FieldError::string_value(e.text(field)));
            }
            _ => {}
        }
    }
}

/// A `metav1.Time` or `MicroTime` field as the round trip left it (RFC 3339 in UTC); `None`
/// for the zero time.
fn time_text<'v>(e: &Event<'v>, field: &str) -> Option<&'v str> {
    e.field(field)
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
}

/// A time as the server quotes it: its JSON from 1.34 (`null` for the zero time), before that
/// `time.Time`'s `String()` (the types are `fmt.Stringer`s) in the server's local zone, taken
/// to be UTC: `2024-05-01 10:00:00.5 +0000 UTC`.
fn time_value(text: Option<&str>, micro: bool) -> BadValue {
    let Some(text) = text else {
        return BadValue::GoValue {
            value: Value::Null,
            go_syntax: "0001-01-01 00:00:00 +0000 UTC".into(),
        };
    };
    let (seconds, fraction) = text
        .trim_end_matches('Z')
        .split_once('.')
        .unwrap_or((text.trim_end_matches('Z'), ""));
    let mut go_syntax = seconds.replacen('T', " ", 1);
    let fraction = fraction.trim_end_matches('0');
    if micro && !fraction.is_empty() {
        go_syntax.push('.');
        go_syntax.push_str(fraction);
    }
    go_syntax.push_str(" +0000 UTC");
    BadValue::GoValue {
        value: Value::String(text.to_string()),
        go_syntax,
    }
}

/// An `ObjectReference` or `EventSource` as the server quotes the internal struct: JSON since
/// 1.34 (every field `omitempty`), `%#v` before; `related` is a pointer (`null` when unset).
fn reference_value(value: Option<&Value>, field: &str) -> BadValue {
    const REFERENCE: &[(&str, &str)] = &[
        ("kind", "Kind"),
        ("namespace", "Namespace"),
        ("name", "Name"),
        ("uid", "UID"),
        ("apiVersion", "APIVersion"),
        ("resourceVersion", "ResourceVersion"),
        ("fieldPath", "FieldPath"),
    ];
    const SOURCE: &[(&str, &str)] = &[("component", "Component"), ("host", "Host")];
    if field == "related" && value.is_none() {
        return BadValue::Value(Value::Null);
    }
    let (fields, go_type) = if field == "source" {
        (SOURCE, "core.EventSource")
    } else {
        (REFERENCE, "core.ObjectReference")
    };
    let mut json = Map::default();
    let mut go = Vec::new();
    for (key, go_name) in fields {
        let s = value
            .and_then(|v| v.get(key))
            .and_then(Value::as_str)
            .unwrap_or("");
        if !s.is_empty() {
            json.insert((*key).into(), Value::from(s));
        }
        go.push(format!("{go_name}:{}", go_quote(s)));
    }
    BadValue::GoValue {
        value: Value::Map(json),
        go_syntax: format!("{go_type}{{{}}}", go.join(", ")),
    }
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
