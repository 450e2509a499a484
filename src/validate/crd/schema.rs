//! A CRD version's `openAPIV3Schema` as the validation of custom resources reads it: the value
//! validations (type, format, enum, bounds, …), the list and map extensions and the
//! `x-kubernetes-validations` rules of each node (apiextensions' `schema.Structural`).

use crate::value::Value;
use indexmap::IndexMap;
use std::sync::OnceLock;

/// One node of a structural schema.
#[derive(Debug, Default)]
pub struct SchemaNode {
    /// `type`: object, array, string, integer, number, boolean; `None` when absent.
    pub type_name: Option<String>,
    pub format: Option<String>,
    pub nullable: bool,
    /// `x-kubernetes-int-or-string`: the type is integer or string.
    pub int_or_string: bool,
    pub preserve_unknown_fields: bool,
    pub embedded_resource: bool,
    pub enum_values: Option<Vec<Value>>,
    pub pattern: Option<Pattern>,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    pub min_items: Option<i64>,
    pub max_items: Option<i64>,
    pub unique_items: bool,
    pub min_properties: Option<i64>,
    pub max_properties: Option<i64>,
    pub required: Vec<String>,
    pub properties: IndexMap<String, SchemaNode>,
    pub additional_properties: Option<Box<SchemaNode>>,
    /// `additionalProperties: true`: a map whose values have no schema at all.
    pub additional_properties_any: bool,
    pub items: Option<Box<SchemaNode>>,
    /// `x-kubernetes-list-type`: atomic, set or map.
    pub list_type: Option<String>,
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-map-type`: granular or atomic.
    pub map_type: Option<String>,
    pub rules: Vec<Rule>,
    /// Value validations combined with the node's: `allOf`, `anyOf`, `oneOf`, `not`.
    pub all_of: Vec<SchemaNode>,
    pub any_of: Vec<SchemaNode>,
    pub one_of: Vec<SchemaNode>,
    pub not: Option<Box<SchemaNode>>,
}

/// A CRD version's schema, read into nodes when the first custom resource of that version is
/// validated: a bundle loads its CRDs for their topology, and most of their kinds have no
/// object in it.
#[derive(Debug)]
pub struct LazySchema {
    source: Value,
    parsed: OnceLock<SchemaNode>,
    /// The CRD's `spec.preserveUnknownFields`: its objects are not pruned.
    pub preserve_unknown_fields: bool,
}

impl LazySchema {
    pub fn new(source: Value, preserve_unknown_fields: bool) -> LazySchema {
        LazySchema {
            source,
            parsed: OnceLock::new(),
            preserve_unknown_fields,
        }
    }

    pub fn node(&self) -> &SchemaNode {
        self.parsed.get_or_init(|| SchemaNode::parse(&self.source))
    }
}

/// A `pattern`, compiled on first use (Go's RE2 and Rust's regex share the syntax the API server
/// accepts).
#[derive(Debug)]
pub struct Pattern {
    pub source: String,
    compiled: OnceLock<Result<regex::Regex, String>>,
}

impl Pattern {
    fn new(source: String) -> Pattern {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The compiled expression, or why it does not compile: Go's syntax and meaning on the
    /// `regex` crate (`go_regexp::regex`).
    pub fn regex(&self) -> Result<&regex::Regex, &str> {
        self.compiled
            .get_or_init(|| super::go_regexp::regex(&self.source))
            .as_ref()
            .map_err(String::as_str)
    }
}

/// One `x-kubernetes-validations` entry (apiextensions `ValidationRule`).
#[derive(Debug)]
pub struct Rule {
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    /// `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired`,
    /// `FieldValueDuplicate`.
    pub reason: Option<String>,
    /// A JSON path relative to the node, where the error is reported.
    pub field_path: Option<String>,
    pub optional_old_self: bool,
    /// The compiled rule and message expression, on first use.
    pub(super) compiled: OnceLock<super::cel::CompiledRule>,
}

impl SchemaNode {
    /// Reads a node of an `openAPIV3Schema`; unknown keywords are ignored. One pass over the
    /// node's keywords: a CRD's schema has thousands of nodes, and looking each keyword up
    /// in turn was most of what reading one cost.
    pub fn parse(v: &Value) -> SchemaNode {
        let mut node = SchemaNode::default();
        let Some(keywords) = v.as_map() else {
            return node;
        };
        for (key, value) in keywords.iter() {
            let text = || value.as_str().map(str::to_string);
            let flag = value.as_bool() == Some(true);
            let schema = || value.as_map().map(|_| Box::new(SchemaNode::parse(value)));
            match key.as_str() {
                "type" => node.type_name = text(),
                "format" => node.format = text().filter(|f| !f.is_empty()),
                "nullable" => node.nullable = flag,
                "x-kubernetes-int-or-string" => node.int_or_string = flag,
                "x-kubernetes-preserve-unknown-fields" => node.preserve_unknown_fields = flag,
                "x-kubernetes-embedded-resource" => node.embedded_resource = flag,
                "enum" => node.enum_values = value.as_list().cloned(),
                "pattern" => node.pattern = text().map(Pattern::new),
                "minimum" => node.minimum = number_as_f64(value),
                "exclusiveMinimum" => node.exclusive_minimum = flag,
                "maximum" => node.maximum = number_as_f64(value),
                "exclusiveMaximum" => node.exclusive_maximum = flag,
                "multipleOf" => node.multiple_of = number_as_f64(value),
                "minLength" => node.min_length = number_as_i64(value),
                "maxLength" => node.max_length = number_as_i64(value),
                "minItems" => node.min_items = number_as_i64(value),
                "maxItems" => node.max_items = number_as_i64(value),
                "uniqueItems" => node.unique_items = flag,
                "minProperties" => node.min_properties = number_as_i64(value),
                "maxProperties" => node.max_properties = number_as_i64(value),
                "required" => node.required = strings(value),
                "properties" => {
                    if let Some(m) = value.as_map() {
                        node.properties = m
                            .iter()
                            .map(|(k, s)| (k.clone(), SchemaNode::parse(s)))
                            .collect();
                    }
                }
                "additionalProperties" => {
                    node.additional_properties = schema();
                    node.additional_properties_any = flag;
                }
                "items" => node.items = schema(),
                "x-kubernetes-list-type" => node.list_type = text(),
                "x-kubernetes-list-map-keys" => node.list_map_keys = strings(value),
                "x-kubernetes-map-type" => node.map_type = text(),
                "x-kubernetes-validations" => {
                    if let Some(l) = value.as_list() {
                        node.rules = l.iter().filter_map(Rule::parse).collect();
                    }
                }
                "allOf" => node.all_of = nodes(value),
                "anyOf" => node.any_of = nodes(value),
                "oneOf" => node.one_of = nodes(value),
                "not" => node.not = schema(),
                _ => {}
            }
        }
        node
    }

    /// The schema of a map's value under `key`: a declared property, else `additionalProperties`.
    pub fn child(&self, key: &str) -> Option<&SchemaNode> {
        self.properties
            .get(key)
            .or(self.additional_properties.as_deref())
    }

    /// Whether any node at or below this one has `x-kubernetes-validations`.
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty()
            || self.properties.values().any(SchemaNode::has_rules)
            || self
                .additional_properties
                .as_deref()
                .is_some_and(SchemaNode::has_rules)
            || self.items.as_deref().is_some_and(SchemaNode::has_rules)
    }

    /// The type name the CEL messages quote for the node (`sts.Type`): empty when untyped.
    pub fn type_label(&self) -> &str {
        self.type_name.as_deref().unwrap_or("")
    }
}

impl Rule {
    fn parse(v: &Value) -> Option<Rule> {
        let text = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        Some(Rule {
            rule: text("rule")?,
            message: text("message"),
            message_expression: text("messageExpression"),
            reason: text("reason"),
            field_path: text("fieldPath"),
            optional_old_self: v.get("optionalOldSelf").and_then(Value::as_bool) == Some(true),
            compiled: OnceLock::new(),
        })
    }

    /// What errors about the rule quote: the message when set, else the rule
    /// (`ruleErrorString`).
    pub fn error_string(&self) -> &str {
        self.message.as_deref().unwrap_or(&self.rule).trim()
    }

    /// The detail of a failed rule without a usable message expression
    /// (`ruleMessageOrDefault`).
    pub fn message_or_default(&self) -> String {
        match &self.message {
            Some(m) => m.trim().to_string(),
            None => format!("failed rule: {}", self.rule.trim()),
        }
    }
}

fn nodes(v: &Value) -> Vec<SchemaNode> {
    v.as_list()
        .map(|l| l.iter().map(SchemaNode::parse).collect())
        .unwrap_or_default()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_list()
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn number_as_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Float(f) if f.fract() == 0.0 => Some(*f as i64),
        _ => None,
    }
}

fn number_as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_validations_and_extensions() {
        let v: Value = serde_yaml::from_str(
            "type: object
required: [spec]
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.a == oldSelf.a
      message: a is immutable
      reason: FieldValueForbidden
      fieldPath: .a
    properties:
      a: {type: string, pattern: '^[a-z]+$', maxLength: 5}
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items: {type: object, properties: {name: {type: string}}}
      port: {x-kubernetes-int-or-string: true, minimum: 1}
",
        )
        .unwrap();
        let n = SchemaNode::parse(&v);
        assert_eq!(n.required, ["spec"]);
        let spec = &n.properties["spec"];
        assert!(n.has_rules() && spec.has_rules());
        let r = &spec.rules[0];
        assert_eq!(r.error_string(), "a is immutable");
        assert_eq!(r.reason.as_deref(), Some("FieldValueForbidden"));
        assert_eq!(r.field_path.as_deref(), Some(".a"));
        let a = &spec.properties["a"];
        assert_eq!(a.max_length, Some(5));
        assert!(a.pattern.as_ref().unwrap().regex().unwrap().is_match("abc"));
        let ports = &spec.properties["ports"];
        assert_eq!(ports.list_type.as_deref(), Some("map"));
        assert_eq!(ports.list_map_keys, ["name"]);
        assert!(ports.items.is_some());
        let port = &spec.properties["port"];
        assert!(port.int_or_string && port.type_name.is_none());
        assert_eq!(port.minimum, Some(1.0));
    }

    #[test]
    fn default_message_quotes_the_rule() {
        let v: Value =
            serde_yaml::from_str("x-kubernetes-validations: [{rule: ' self > 1 '}]").unwrap();
        let n = SchemaNode::parse(&v);
        assert_eq!(n.rules[0].message_or_default(), "failed rule: self > 1");
        assert_eq!(n.rules[0].error_string(), "self > 1");
    }
}
