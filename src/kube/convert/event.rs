//! core/v1 Event ↔ `events.k8s.io/v1` Event, transcribed from kubernetes
//! pkg/apis/events/v1/conversion.go (`Convert_v1_Event_To_core_Event`,
//! `Convert_core_Event_To_v1_Event`): both are the one internal `core.Event`, whose fields
//! the events group renames. Fields keep their values; absent fields stay absent.

use crate::value::Value;

/// (core/v1 name, events.k8s.io/v1 name), in core/v1's field order.
const CORE_FIELDS: &[(&str, &str)] = &[
    ("metadata", "metadata"),
    ("involvedObject", "regarding"),
    ("reason", "reason"),
    ("message", "note"),
    ("source", "deprecatedSource"),
    ("firstTimestamp", "deprecatedFirstTimestamp"),
    ("lastTimestamp", "deprecatedLastTimestamp"),
    ("count", "deprecatedCount"),
    ("type", "type"),
    ("eventTime", "eventTime"),
    ("series", "series"),
    ("action", "action"),
    ("related", "related"),
    // The internal field is ReportingController, serialized by core/v1 as reportingComponent.
    ("reportingComponent", "reportingController"),
    ("reportingInstance", "reportingInstance"),
];

/// events.k8s.io/v1's field order (k8s.io/api/events/v1 `Event`).
const EVENTS_ORDER: &[&str] = &[
    "metadata",
    "eventTime",
    "series",
    "reportingController",
    "reportingInstance",
    "action",
    "reason",
    "regarding",
    "related",
    "note",
    "type",
    "deprecatedSource",
    "deprecatedFirstTimestamp",
    "deprecatedLastTimestamp",
    "deprecatedCount",
];

fn renamed(
    value: &Value,
    api_version: &str,
    order: &[&str],
    name_in: impl Fn(&str) -> &str,
) -> Value {
    let mut out = super::type_meta(value, api_version, "Event");
    for &field in order {
        if let Some(v) = value.get(name_in(field)) {
            out.insert(field.to_string(), v.clone());
        }
    }
    Value::Map(out)
}

/// A core/v1 Event as `events.k8s.io/v1` serves it.
pub fn core_to_events(value: &Value) -> Value {
    renamed(value, "events.k8s.io/v1", EVENTS_ORDER, |events_name| {
        CORE_FIELDS
            .iter()
            .find(|(_, e)| *e == events_name)
            .map_or(events_name, |(c, _)| c)
    })
}

/// An `events.k8s.io/v1` Event as core/v1 serves it.
pub fn events_to_core(value: &Value) -> Value {
    let order: Vec<&str> = CORE_FIELDS.iter().map(|(c, _)| *c).collect();
    renamed(value, "v1", &order, |core_name| {
        CORE_FIELDS
            .iter()
            .find(|(c, _)| *c == core_name)
            .map_or(core_name, |(_, e)| e)
    })
}
