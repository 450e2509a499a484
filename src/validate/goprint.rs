//! Go's printing of values in validation messages: `strconv.Quote` (`%q`), `%v` of scalars and
//! `%#v` of the few typed composites the server quotes (label maps, string lists, label
//! selectors) and of unstructured values (`map[string]interface {}{…}`).

// `strconv.Quote`, shared with the patch and schema errors.
pub use crate::value::gofmt::go_quote;
use crate::value::{Map, Value};

/// The Go type of a typed composite bad value, enough to print it with `%#v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoType {
    /// `map[string]string` (labels, annotations, selectors' matchLabels).
    StringMap,
    /// `[]string`.
    StringList,
    /// `v1.LabelSelector` (a pointer the server dereferences before printing).
    LabelSelector,
}

/// How the server prints a scalar or unstructured bad value before 1.34: `%v` for numbers and
/// booleans, `%q` for strings, `"null"` for nothing, `%#v` of `map[string]interface {}` and
/// `[]interface {}` for composites.
pub fn go_value(v: &Value) -> String {
    match v {
        // A nil bad value becomes the string "null", which `%q` then quotes.
        Value::Null => go_quote("null"),
        _ => go_interface(v),
    }
}

/// `%#v` of a value held in an `interface{}`.
fn go_interface(v: &Value) -> String {
    crate::value::gofmt::go_syntax_value(v)
}

fn sorted(m: &Map) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

fn string_map(v: Option<&Value>) -> String {
    match v {
        Some(Value::Map(m)) => {
            let parts: Vec<String> = sorted(m)
                .into_iter()
                .map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v.as_str().unwrap_or(""))))
                .collect();
            format!("map[string]string{{{}}}", parts.join(", "))
        }
        _ => "map[string]string(nil)".into(),
    }
}

fn string_list(v: Option<&Value>) -> String {
    match v {
        Some(Value::List(items)) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| go_quote(i.as_str().unwrap_or("")))
                .collect();
            format!("[]string{{{}}}", parts.join(", "))
        }
        _ => "[]string(nil)".into(),
    }
}

fn label_selector(v: &Value) -> String {
    let expressions = match v.get("matchExpressions") {
        Some(Value::List(items)) => {
            let parts: Vec<String> = items
                .iter()
                .map(|r| {
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{}}}",
                        go_quote(r.get("key").and_then(Value::as_str).unwrap_or("")),
                        go_quote(r.get("operator").and_then(Value::as_str).unwrap_or("")),
                        string_list(r.get("values"))
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", parts.join(", "))
        }
        _ => "[]v1.LabelSelectorRequirement(nil)".into(),
    };
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{}}}",
        string_map(v.get("matchLabels")),
        expressions
    )
}

/// `%#v` of a typed value.
pub fn go_syntax(v: &Value, go_type: &GoType) -> String {
    match go_type {
        GoType::StringMap => string_map(Some(v)),
        GoType::StringList => string_list(Some(v)),
        GoType::LabelSelector => label_selector(v),
    }
}

/// A label selector as Go's JSON encoder writes `metav1.LabelSelector`: `matchLabels` (keys
/// sorted) then `matchExpressions`, empty ones left out.
pub fn label_selector_json(v: &Value) -> Value {
    let mut out = Map::default();
    if let Some(Value::Map(m)) = v.get("matchLabels") {
        if !m.is_empty() {
            out.insert(
                "matchLabels".into(),
                Value::Map(m.clone()).with_sorted_keys(),
            );
        }
    }
    if let Some(Value::List(items)) = v.get("matchExpressions") {
        if !items.is_empty() {
            let reqs = items
                .iter()
                .map(|r| {
                    let mut m = Map::default();
                    for key in ["key", "operator"] {
                        m.insert(key.into(), r.get(key).cloned().unwrap_or(Value::from("")));
                    }
                    if let Some(Value::List(values)) = r.get("values") {
                        if !values.is_empty() {
                            m.insert("values".into(), Value::List(values.clone()));
                        }
                    }
                    Value::Map(m)
                })
                .collect();
            out.insert("matchExpressions".into(), Value::List(reqs));
        }
    }
    Value::Map(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn quotes_like_strconv() {
        assert_eq!(go_quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(go_quote("é"), "\"é\"");
        assert_eq!(go_quote("\u{1}"), r#""\x01""#);
    }

    #[test]
    fn label_selectors_print_as_go_and_json() {
        let sel = from_json_str(r#"{"matchLabels":{"b":"2","a":"1"}}"#).unwrap();
        assert_eq!(
            go_syntax(&sel, &GoType::LabelSelector),
            r#"v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "b":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"#
        );
        assert_eq!(
            crate::value::to_json_string(&label_selector_json(&sel)),
            r#"{"matchLabels":{"a":"1","b":"2"}}"#
        );
    }

    #[test]
    fn unstructured_values_print_as_interface_maps() {
        let v = from_json_str(r#"{"b":[1,"x"],"a":null}"#).unwrap();
        assert_eq!(
            go_value(&v),
            r#"map[string]interface {}{"a":interface {}(nil), "b":[]interface {}{1, "x"}}"#
        );
        assert_eq!(go_value(&Value::Null), "\"null\"");
    }
}
