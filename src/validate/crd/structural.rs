//! The OpenAPI value validation of a custom resource, worded as kube-openapi's `validate`
//! package words it and as apiextensions turns its results into field errors
//! (`pkg/apiserver/validation/validation.go`, `kubeOpenAPIResultToFieldErrors`), with the
//! ratcheting of unchanged fields on update (`ratcheting.go`, CRDValidationRatcheting, on by
//! default since 1.30).

use super::formats;
use super::schema::SchemaNode;
use super::wording::too_long;
use crate::kube::KubeVersion;
use crate::validate::field::indexed;
use crate::validate::field::{BadValue, ErrorType, FieldError};
use crate::validate::goprint::go_quote;
use crate::value::gofmt::go_float;
use crate::value::Value;

/// Where kube-openapi says the value is (`in`).
const IN: &str = "body";

/// Validates a whole object against its version's root schema; `old` is the live object on an
/// update (unchanged parts are ratcheted: their errors are dropped).
pub fn validate_object(
    root: &SchemaNode,
    object: &Value,
    old: Option<&Value>,
    version: KubeVersion,
) -> Vec<FieldError> {
    let mut v = Validator {
        version,
        errors: Vec::new(),
    };
    v.node(root, object, "", old);
    v.errors
}

struct Validator {
    version: KubeVersion,
    errors: Vec<FieldError>,
}

/// The JSON-schema type name of a value (kube-openapi `schemaInfoForType`).
fn schema_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Int(_) => "integer",
        Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::List(_) => "array",
        Value::Map(_) => "object",
    }
}

/// The `format` kube-openapi reports for a number (`int64`, `float64`), empty otherwise.
fn value_format(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "int64",
        Value::Float(_) => "float64",
        _ => "",
    }
}

/// The field path an error is reported at: kube-openapi's dotted name as a child of the root
/// (`<nil>` for the root itself).
fn error_field(name: &str) -> String {
    let trimmed = name.strip_prefix('.').unwrap_or(name);
    if name.is_empty() || name == "." {
        "<nil>".to_string()
    } else {
        trimmed.to_string()
    }
}

fn child_name(path: &str, key: &str) -> String {
    match path.is_empty() {
        true => key.to_string(),
        false => format!("{path}.{key}"),
    }
}

impl Validator {
    fn invalid(&mut self, name: &str, value: BadValue, message: String) {
        self.errors.push(FieldError::new(
            ErrorType::Invalid,
            error_field(name),
            value,
            message,
        ));
    }

    fn type_invalid(&mut self, name: &str, type_name: &str, actual: &str) {
        self.errors.push(FieldError::new(
            ErrorType::TypeInvalid,
            error_field(name),
            BadValue::Value(Value::from(actual)),
            format!(
                "{name} in {IN} must be of type {type_name}: {}",
                go_quote(actual)
            ),
        ));
    }

    /// Validates one value against one schema node (kube-openapi `SchemaValidator.Validate`):
    /// type, then string, format, number, array, enum and object validators in that order.
    fn node(&mut self, node: &SchemaNode, value: &Value, path: &str, old: Option<&Value>) {
        let start = self.errors.len();
        if value.is_null() {
            self.null(node, path);
        } else {
            self.type_check(node, value, path);
            self.alternatives(node, value, path);
            match value {
                Value::String(s) => {
                    self.string(node, s, path);
                    self.format(node, s, path);
                }
                Value::Int(_) | Value::Float(_) => self.number(node, value, path),
                Value::List(items) => self.array(node, items, path, old),
                _ => {}
            }
            self.enumeration(node, value, path);
            if let Value::Map(m) = value {
                self.object(node, m, path, old);
            }
        }
        // Ratcheting: errors of a part the update leaves as it was are not reported.
        if self.errors.len() > start && old.is_some_and(|o| unchanged(node, value, o)) {
            self.errors.truncate(start);
        }
    }

    /// The errors of validating `value` against `node` alone, apart from the others.
    fn separately(&mut self, node: &SchemaNode, value: &Value, path: &str) -> Vec<FieldError> {
        let outer = std::mem::take(&mut self.errors);
        self.node(node, value, path, None);
        std::mem::replace(&mut self.errors, outer)
    }

    /// A message of kube-openapi that is no `Validation`: apiextensions reports it at no field
    /// with an empty value.
    fn plain(&mut self, message: String) {
        self.invalid("", BadValue::Value(Value::from("")), message);
    }

    /// kube-openapi `schemaPropsValidator`: `anyOf`, `oneOf`, `allOf`, `not`. Of failing
    /// alternatives the first one's errors are reported (the reference picks the one that
    /// matched most validators; alternatives of scalar types tie).
    fn alternatives(&mut self, node: &SchemaNode, value: &Value, path: &str) {
        if !node.any_of.is_empty() {
            let mut first_failure = None;
            let mut succeeded = false;
            for alternative in &node.any_of {
                let errors = self.separately(alternative, value, path);
                if errors.is_empty() {
                    succeeded = true;
                    break;
                }
                first_failure.get_or_insert(errors);
            }
            if !succeeded {
                self.plain(format!(
                    "{} must validate at least one schema (anyOf)",
                    go_quote(path)
                ));
                self.errors.extend(first_failure.unwrap_or_default());
            }
        }
        if !node.one_of.is_empty() {
            let mut first_failure = None;
            let mut valid = 0;
            for alternative in &node.one_of {
                let errors = self.separately(alternative, value, path);
                if errors.is_empty() {
                    valid += 1;
                } else if valid == 0 {
                    first_failure.get_or_insert(errors);
                }
            }
            if valid != 1 {
                let found = match valid {
                    0 => "Found none valid".to_string(),
                    n => format!("Found {n} valid alternatives"),
                };
                self.plain(format!(
                    "{} must validate one and only one schema (oneOf). {found}",
                    go_quote(path)
                ));
                if valid == 0 {
                    self.errors.extend(first_failure.unwrap_or_default());
                }
            }
        }
        if !node.all_of.is_empty() {
            let mut valid = 0;
            for part in &node.all_of {
                let errors = self.separately(part, value, path);
                valid += usize::from(errors.is_empty());
                self.errors.extend(errors);
            }
            if valid != node.all_of.len() {
                let none = if valid == 0 { ". None validated" } else { "" };
                self.plain(format!(
                    "{} must validate all the schemas (allOf){none}",
                    go_quote(path)
                ));
            }
        }
        if let Some(not) = &node.not {
            if self.separately(not, value, path).is_empty() {
                self.plain(format!(
                    "{} must not validate the schema (not)",
                    go_quote(path)
                ));
            }
        }
    }

    fn null(&mut self, node: &SchemaNode, path: &str) {
        let types = declared_types(node);
        if !types.is_empty() && !node.nullable {
            self.type_invalid(path, &types.join(","), "null");
        }
        if let Some(allowed) = &node.enum_values {
            if !allowed.iter().any(Value::is_null) {
                self.not_supported(path, &Value::Null, allowed);
            }
        }
    }

    /// kube-openapi `typeValidator.Validate`.
    fn type_check(&mut self, node: &SchemaNode, value: &Value, path: &str) {
        let types = declared_types(node);
        let format = node.format.as_deref().unwrap_or("");
        if types.is_empty() && format.is_empty() {
            return;
        }
        let actual = schema_type(value);
        let contains = |t: &str| types.contains(&t);
        let float_is_int = matches!(value, Value::Float(f) if f.fract() == 0.0 && f.is_finite())
            && contains("integer");
        let int_is_float = actual == "integer" && contains("number");
        let textual = matches!(value, Value::String(_) | Value::List(_));
        let type_matches = contains(actual) || float_is_int || int_is_float;
        // A number whose format is neither the schema's type nor its format.
        let format_matches = format.is_empty() || value_format(value) == format;
        if !textual && !type_matches && !format_matches {
            self.type_invalid(path, format, value_format(value));
            return;
        }
        // A string or list under a string format: the format validator decides.
        let numeric = contains("number") || contains("integer");
        if !format.is_empty() && textual && !numeric {
            return;
        }
        if !type_matches {
            self.type_invalid(path, &types.join(","), actual);
        }
    }

    /// kube-openapi `stringValidator`: the first of maxLength, minLength, pattern that fails.
    fn string(&mut self, node: &SchemaNode, s: &str, path: &str) {
        let length = s.chars().count() as i64;
        if let Some(max) = node.max_length.filter(|max| length > *max) {
            self.errors
                .push(too_long(error_field(path), max, self.version));
            return;
        }
        if let Some(min) = node.min_length.filter(|min| length < *min) {
            let message = format!("{path} in {IN} should be at least {min} chars long");
            self.invalid(path, BadValue::Value(Value::from(s)), message);
            return;
        }
        if let Some(pattern) = &node.pattern {
            let message = match pattern.regex() {
                Ok(re) if re.is_match(s) => return,
                Ok(_) => format!("{path} in {IN} should match '{}'", pattern.source),
                Err(e) => format!(
                    "{path} in {IN} should match '{}, but pattern is invalid: {e}'",
                    pattern.source
                ),
            };
            self.invalid(path, BadValue::Value(Value::from(s)), message);
        }
    }

    /// kube-openapi `formatValidator`, for the formats apiextensions keeps.
    fn format(&mut self, node: &SchemaNode, s: &str, path: &str) {
        let Some(format) = node.format.as_deref() else {
            return;
        };
        if formats::is_invalid(
            format,
            declared_types(node).first().copied(),
            s,
            self.version,
        ) {
            self.errors.push(FieldError::new(
                ErrorType::TypeInvalid,
                error_field(path),
                BadValue::Value(Value::from(s)),
                format!("{path} in {IN} must be of type {format}: {}", go_quote(s)),
            ));
        }
    }

    /// kube-openapi `numberValidator`: format range, multipleOf, minimum, maximum.
    fn number(&mut self, node: &SchemaNode, value: &Value, path: &str) {
        let single_type = match (node.type_name.as_deref(), node.int_or_string) {
            (Some(t), false) => t,
            _ => "",
        };
        if single_type == "integer" && node.format.as_deref() == Some("int32") {
            let fits = match value {
                Value::Int(i) => i32::try_from(*i).is_ok(),
                Value::Float(f) => *f >= i32::MIN as f64 && *f <= i32::MAX as f64,
                _ => true,
            };
            if !fits {
                self.plain(format!(
                    "Checked value must be of type integer with format int32 in {path}"
                ));
            }
        }
        let data = match value {
            Value::Int(i) => *i as f64,
            Value::Float(f) => *f,
            _ => return,
        };
        let bad = || BadValue::Value(value.clone());
        if let Some(factor) = node.multiple_of {
            let (failed, shown) = match value {
                Value::Int(i) => {
                    let f = factor as i64;
                    (f > 0 && i % f != 0, f.to_string())
                }
                _ => {
                    let mult = if factor < 1.0 {
                        1.0 / factor * data
                    } else {
                        data / factor
                    };
                    (factor > 0.0 && mult.fract() != 0.0, go_float(factor))
                }
            };
            if failed {
                self.invalid(
                    path,
                    bad(),
                    format!("{path} in {IN} should be a multiple of {shown}"),
                );
            }
        }
        if let Some(min) = node.minimum {
            let (below, shown) = match value {
                Value::Int(i) => {
                    let m = min as i64;
                    (
                        if node.exclusive_minimum {
                            *i <= m
                        } else {
                            *i < m
                        },
                        m.to_string(),
                    )
                }
                _ => (
                    if node.exclusive_minimum {
                        data <= min
                    } else {
                        data < min
                    },
                    go_float(min),
                ),
            };
            if below {
                let relation = match node.exclusive_minimum {
                    true => "greater than",
                    false => "greater than or equal to",
                };
                self.invalid(
                    path,
                    bad(),
                    format!("{path} in {IN} should be {relation} {shown}"),
                );
            }
        }
        if let Some(max) = node.maximum {
            let (above, shown) = match value {
                Value::Int(i) => {
                    let m = max as i64;
                    (
                        if node.exclusive_maximum {
                            *i >= m
                        } else {
                            *i > m
                        },
                        m.to_string(),
                    )
                }
                _ => (
                    if node.exclusive_maximum {
                        data >= max
                    } else {
                        data > max
                    },
                    go_float(max),
                ),
            };
            if above {
                let relation = match node.exclusive_maximum {
                    true => "less than",
                    false => "less than or equal to",
                };
                self.invalid(
                    path,
                    bad(),
                    format!("{path} in {IN} should be {relation} {shown}"),
                );
            }
        }
    }

    /// kube-openapi `schemaSliceValidator`: items, then minItems, maxItems, uniqueItems.
    fn array(&mut self, node: &SchemaNode, items: &[Value], path: &str, old: Option<&Value>) {
        if let Some(item_schema) = node.items.as_deref() {
            let old_items = old.and_then(Value::as_list);
            for (i, item) in items.iter().enumerate() {
                let old_item = old_items.and_then(|o| correlated_item(node, item, o));
                self.node(item_schema, item, &indexed(path, i), old_item);
            }
        }
        let size = items.len() as i64;
        if let Some(min) = node.min_items.filter(|min| size < *min) {
            let message = format!("{path} in {IN} should have at least {min} items");
            self.invalid(path, BadValue::Value(Value::Int(size)), message);
        }
        if let Some(max) = node.max_items.filter(|max| size > *max) {
            self.errors.push(FieldError::too_many(
                error_field(path),
                size as usize,
                max.max(0) as usize,
                self.version,
            ));
        }
        if node.unique_items
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| strictly_equal(a, b)))
        {
            let message = format!("{path} in {IN} shouldn't contain duplicates");
            self.invalid(path, BadValue::Value(Value::from("")), message);
        }
    }

    /// kube-openapi `basicCommonValidator`: `enum`.
    fn enumeration(&mut self, node: &SchemaNode, value: &Value, path: &str) {
        if let Some(allowed) = &node.enum_values {
            if !allowed.is_empty() && !allowed.iter().any(|a| strictly_equal(a, value)) {
                self.not_supported(path, value, allowed);
            }
        }
    }

    fn not_supported(&mut self, path: &str, value: &Value, allowed: &[Value]) {
        let quoted: Vec<String> = allowed
            .iter()
            .map(|a| match a {
                Value::String(s) => go_quote(s),
                other => go_quote(&crate::value::to_json_string(other)),
            })
            .collect();
        let detail = match quoted.is_empty() {
            true => String::new(),
            false => format!("supported values: {}", quoted.join(", ")),
        };
        self.errors.push(FieldError::new(
            ErrorType::NotSupported,
            error_field(path),
            BadValue::Value(value.clone()),
            detail,
        ));
    }

    /// kube-openapi `objectValidator`: property counts, additional properties, declared
    /// properties, then `required`. Go visits map keys in random order; kssa visits them in
    /// the object's order.
    fn object(
        &mut self,
        node: &SchemaNode,
        m: &crate::value::Map,
        path: &str,
        old: Option<&Value>,
    ) {
        let present: Vec<(&String, &Value)> =
            m.iter().filter(|(k, v)| !pruned_null(node, k, v)).collect();
        let count = present.len() as i64;
        if let Some(min) = node.min_properties.filter(|min| count < *min) {
            let message = format!("{path} in {IN} should have at least {min} properties");
            self.invalid(path, BadValue::Value(Value::Int(count)), message);
        }
        if let Some(max) = node.max_properties.filter(|max| count > *max) {
            self.errors.push(FieldError::too_many(
                error_field(path),
                count as usize,
                max.max(0) as usize,
                self.version,
            ));
        }
        let old_field = |k: &str| {
            // apiVersion and kind of the root are never correlated (isTypeMetaField).
            if path.is_empty() && (k == "apiVersion" || k == "kind") {
                return None;
            }
            old.and_then(|o| o.get(k))
        };
        if let Some(additional) = node.additional_properties.as_deref() {
            for (k, v) in present
                .iter()
                .filter(|(k, _)| !node.properties.contains_key(*k))
            {
                self.node(additional, v, &child_name(path, k), old_field(k));
            }
        }
        for (k, v) in &present {
            if let Some(property) = node.properties.get(*k) {
                self.node(property, v, &child_name(path, k), old_field(k));
            }
        }
        for k in &node.required {
            if !present.iter().any(|(p, _)| *p == k) {
                self.errors.push(FieldError::new(
                    ErrorType::Required,
                    error_field(&format!("{path}.{k}")),
                    BadValue::Omitted,
                    "",
                ));
            }
        }
    }
}

/// The declared types: `type`, or integer and string for `x-kubernetes-int-or-string`.
fn declared_types(node: &SchemaNode) -> Vec<&str> {
    if node.int_or_string {
        return vec!["integer", "string"];
    }
    node.type_name.as_deref().into_iter().collect()
}

/// A null the API server drops before validating: the field is not nullable and has no
/// default (`PruneNonNullableNullsWithoutDefaults`), so it counts as absent.
pub(super) fn pruned_null(node: &SchemaNode, key: &str, value: &Value) -> bool {
    value.is_null() && node.child(key).is_some_and(|s| !s.nullable)
}

/// Equality as Go's `reflect.DeepEqual` sees decoded JSON: ints and floats differ.
fn strictly_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => *x as f64 == *y,
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| strictly_equal(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| strictly_equal(v, w)))
        }
        _ => a == b,
    }
}

/// The old item of a `x-kubernetes-list-type: map` list with the same keys as `item`; other
/// lists do not correlate their items (apiserver `CorrelatedObject.Index`).
pub(super) fn correlated_item<'a>(
    list: &SchemaNode,
    item: &Value,
    old_items: &'a [Value],
) -> Option<&'a Value> {
    if list.list_type.as_deref() != Some("map") || list.list_map_keys.is_empty() {
        return None;
    }
    let key_of = |v: &Value| -> Vec<Option<Value>> {
        list.list_map_keys
            .iter()
            .map(|k| v.get(k).cloned())
            .collect()
    };
    let key = key_of(item);
    old_items.iter().find(|o| key_of(o) == key)
}

/// Whether an update leaves a value as it was (apiserver `CorrelatedObject.CachedDeepEqual`):
/// deep equality, with the items of map lists matched by their keys.
pub(super) fn unchanged(node: &SchemaNode, new: &Value, old: &Value) -> bool {
    match (new, old) {
        (Value::Map(n), Value::Map(o)) => {
            n.len() == o.len()
                && n.iter().all(|(k, v)| {
                    o.get(k).is_some_and(|ov| match node.child(k) {
                        Some(child) => unchanged(child, v, ov),
                        None => v == ov,
                    })
                })
        }
        (Value::List(n), Value::List(o)) => match node.items.as_deref() {
            Some(items) if node.list_type.as_deref() == Some("map") => {
                n.len() == o.len()
                    && n.iter().all(|item| {
                        correlated_item(node, item, o).is_some_and(|oi| unchanged(items, item, oi))
                    })
            }
            _ => new == old,
        },
        _ => strictly_equal(new, old),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(yaml: &str) -> SchemaNode {
        SchemaNode::parse(&serde_yaml::from_str(yaml).unwrap())
    }

    fn messages(root: &SchemaNode, obj: &str, old: Option<&str>) -> Vec<String> {
        let obj: Value = serde_yaml::from_str(obj).unwrap();
        let old: Option<Value> = old.map(|o| serde_yaml::from_str(o).unwrap());
        validate_object(root, &obj, old.as_ref(), KubeVersion::NEWEST)
            .iter()
            .map(|e| {
                let value = match &e.bad_value {
                    BadValue::Omitted => String::new(),
                    BadValue::Value(v) | BadValue::GoValue { value: v, .. } => {
                        format!(" {}", crate::value::to_json_string(v))
                    }
                };
                format!(
                    "{}: {}{value}: {}",
                    e.field,
                    e.error_type.as_str(),
                    e.detail
                )
            })
            .collect()
    }

    const SPEC: &str = "type: object
properties:
  spec:
    type: object
    required: [name]
    properties:
      name: {type: string, pattern: '^[a-z]+$', maxLength: 8, minLength: 2}
      mode: {type: string, enum: [A, B]}
      replicas: {type: integer, minimum: 1, maximum: 5}
      ratio: {type: number, exclusiveMaximum: true, maximum: 1.5}
      port: {x-kubernetes-int-or-string: true}
      tags: {type: array, maxItems: 2, minItems: 1, items: {type: string}}
      labels: {type: object, additionalProperties: {type: string}, maxProperties: 1}
      id: {type: string, format: uuid}
      small: {type: integer, format: int32}
";

    #[test]
    fn value_validations_word_like_kube_openapi() {
        let s = schema(SPEC);
        let got = messages(
            &s,
            "spec: {name: AB, mode: C, replicas: 0, ratio: 1.5, port: true, tags: [a, b, c],
                    labels: {a: x, b: 1}, id: nope, small: 3000000000}",
            None,
        );
        assert_eq!(
            got,
            [
                r#"spec.name: Invalid value "AB": spec.name in body should match '^[a-z]+$'"#,
                r#"spec.mode: Unsupported value "C": supported values: "A", "B""#,
                "spec.replicas: Invalid value 0: spec.replicas in body should be greater than or equal to 1",
                "spec.ratio: Invalid value 1.5: spec.ratio in body should be less than 1.5",
                r#"spec.port: Invalid value "boolean": spec.port in body must be of type integer,string: "boolean""#,
                "spec.tags: Too many 3: must have at most 2 items",
                "spec.labels: Too many 2: must have at most 1 item",
                r#"spec.labels.b: Invalid value "integer": spec.labels.b in body must be of type string: "integer""#,
                r#"spec.id: Invalid value "nope": spec.id in body must be of type uuid: "nope""#,
                r#"<nil>: Invalid value "": Checked value must be of type integer with format int32 in spec.small"#,
            ]
        );
    }

    #[test]
    fn required_lengths_and_types() {
        let s = schema(SPEC);
        assert_eq!(
            messages(&s, "spec: {replicas: '3', tags: []}", None),
            [
                r#"spec.replicas: Invalid value "string": spec.replicas in body must be of type integer: "string""#,
                "spec.tags: Invalid value 0: spec.tags in body should have at least 1 items",
                "spec.name: Required value: ",
            ]
        );
        assert_eq!(
            messages(&s, "spec: {name: abcdefghij}", None),
            ["spec.name: Too long: may not be more than 8 bytes"]
        );
        assert_eq!(
            messages(&s, "spec: {name: a}", None),
            [r#"spec.name: Invalid value "a": spec.name in body should be at least 2 chars long"#]
        );
        // An integral float is an integer; a null of a non-nullable field is dropped.
        assert!(messages(&s, "spec: {name: ab, replicas: 2.0, mode: null}", None).is_empty());
    }

    #[test]
    fn any_of_int_or_string_reports_the_first_alternative() {
        let s = schema(
            "type: object
properties:
  port:
    x-kubernetes-int-or-string: true
    anyOf: [{type: integer}, {type: string}]
",
        );
        assert_eq!(
            messages(&s, "port: true", None),
            [
                r#"port: Invalid value "boolean": port in body must be of type integer,string: "boolean""#,
                r#"<nil>: Invalid value "": "port" must validate at least one schema (anyOf)"#,
                r#"port: Invalid value "boolean": port in body must be of type integer: "boolean""#,
            ]
        );
        assert!(messages(&s, "port: http", None).is_empty());
    }

    #[test]
    fn unchanged_fields_are_ratcheted() {
        let s = schema(SPEC);
        let old = "spec: {name: ab, mode: C, replicas: 0}";
        assert!(messages(&s, old, Some(old)).is_empty());
        // A changed field is checked; the unchanged invalid one stays tolerated.
        assert_eq!(
            messages(&s, "spec: {name: ab, mode: C, replicas: 9}", Some(old)),
            ["spec.replicas: Invalid value 9: spec.replicas in body should be less than or equal to 5"]
        );
    }
}
