//! The compilation of a CRD schema's `x-kubernetes-validations` rules and `messageExpression`s,
//! as k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
//! `ValidateCustomResourceDefinitionOpenAPISchema` runs it (through `cel.Compile`) on every node
//! of a schema that is otherwise valid: `compilation failed: …` with cel-go's errors
//! (`crate::validate::crd::cel_compile`), then the cost limits of every rule and of the whole
//! schema (`crate::validate::crd::cel_cost`, where kssa can reproduce cel-go's estimate).

use super::super::{BadValue, FieldError, Write};
use super::crd_schema::schema_has;
use super::crd_value_validation::sorted_properties;
use super::fields::{items, spec, text};
use crate::kube::KubeVersion;
use crate::validate::crd::cel_compile::{compile, decl_type, Compiled, Scalar, Ty};
use crate::validate::crd::cel_cost::{self, CostBudget, Decl};
use crate::validate::field::{indexed, join};
use crate::validate::goprint::go_quote;
use crate::value::{Map, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// The expressions of the stored CRD (`findPreexistingExpressions`): the server compiles them
/// with every library of its release (`StoredExpressionsEnv`).
#[derive(Default)]
struct Preexisting {
    rules: HashSet<String>,
    messages: HashSet<String>,
}

fn preexisting(w: &Write) -> Preexisting {
    let mut found = Preexisting::default();
    let Some(old) = w.live else { return found };
    for v in items(spec(old).get("versions")) {
        if let Some(s) = v.get_path(&["schema", "openAPIV3Schema"]) {
            collect(s, &mut found);
        }
    }
    found
}

fn collect(s: &Value, found: &mut Preexisting) {
    let Some(map) = s.as_map() else { return };
    for r in items(s.get("x-kubernetes-validations")) {
        found.rules.insert(text(r, "rule").to_string());
        found
            .messages
            .insert(text(r, "messageExpression").to_string());
    }
    for (k, v) in map.iter() {
        match (k.as_str(), v) {
            ("properties" | "definitions" | "dependencies", Value::Map(m)) => {
                m.iter().for_each(|(_, c)| collect(c, found));
            }
            ("allOf" | "anyOf" | "oneOf", Value::List(l)) => {
                l.iter().for_each(|c| collect(c, found))
            }
            ("items" | "additionalProperties" | "not", c) => collect(c, found),
            _ => {}
        }
    }
}

/// The compile errors of the rules of the schema `root` at `at` (`….openAPIV3Schema`), in the
/// server's order: children first (additionalProperties, properties, items), then a node's
/// own rules. Junctors (`allOf` …) have no CEL context and are not compiled.
/// `schema_errors`: the errors of the OpenAPI rules; a node with one at or below it is not
/// compiled (upstream: `len(allErrs.SchemaErrors) == 0`).
pub(super) fn check(
    w: &Write,
    root: &Value,
    at: &str,
    schema_errors: &[FieldError],
    errors: &mut Vec<FieldError>,
) {
    let mut walker = Walker {
        version: w.version(),
        stored: preexisting(w),
        schema_errors,
        budget: CostBudget::new(unchanged_schema(w, root)),
    };
    // The sizes of the whole schema, derived once and handed down (`CELSchemaContext.TypeInfo`
    // reads a child's from its parent's), where any node has rules.
    let has_rules = schema_has(root, &|n| n.get("x-kubernetes-validations").is_some());
    let sizes = has_rules
        .then(|| cel_cost::decl(root, true).map(Arc::new))
        .flatten();
    let node = Node {
        schema: root,
        at,
        resource_root: true,
        sizes,
    };
    walker.node(node, None, Some(1), errors);
    walker.budget.check_total(at, errors);
}

/// Whether the stored CRD has this very schema (`findVersionsWithUnchangedSchemas`, matched
/// here by content rather than by version name): the per-rule cost limits are then not applied.
fn unchanged_schema(w: &Write, root: &Value) -> bool {
    w.live.is_some_and(|old| {
        items(spec(old).get("versions"))
            .iter()
            .any(|v| v.get_path(&["schema", "openAPIV3Schema"]) == Some(root))
    })
}

struct Walker<'e> {
    version: KubeVersion,
    stored: Preexisting,
    schema_errors: &'e [FieldError],
    budget: CostBudget,
}

impl Walker<'_> {
    /// `uncorrelatable`: the outermost list above that is not a map list (`oldSelf` cannot
    /// be used below it: `withForbidOldSelfValidations`). `cardinality`: how many times the
    /// node can occur in an object (`CELSchemaContext.MaxCardinality`; `None`: unbounded).
    fn node(
        &mut self,
        node: Node,
        uncorrelatable: Option<&str>,
        cardinality: Option<u64>,
        errors: &mut Vec<FieldError>,
    ) {
        let Node {
            schema: s,
            at,
            resource_root,
            sizes,
        } = node;
        if s.as_map().is_none() {
            return;
        }
        let child_cardinality = cardinality
            .zip(cel_cost::max_children(s))
            .map(|(c, n)| cel_cost::saturating_product(c, n));
        let embedded =
            |c: &Value| c.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
        if let Some(a) = s
            .get("additionalProperties")
            .filter(|a| a.as_map().is_some())
        {
            let path = join(at, ".additionalProperties");
            let child = Node {
                schema: a,
                at: &path,
                resource_root: embedded(a),
                sizes: sizes.as_ref().and_then(|d| d.element()),
            };
            self.node(child, uncorrelatable, child_cardinality, errors);
        }
        for (k, p) in sorted_properties(s) {
            let path = format!("{at}.properties[{k}]");
            let child = Node {
                schema: p,
                at: &path,
                resource_root: embedded(p),
                sizes: sizes.as_ref().and_then(|d| d.property(k)),
            };
            self.node(child, uncorrelatable, child_cardinality, errors);
        }
        if let Some(i) = s.get("items").filter(|i| i.as_map().is_some()) {
            let below = match text(s, "x-kubernetes-list-type") {
                "map" => uncorrelatable,
                _ => uncorrelatable.or(Some(at)),
            };
            let path = join(at, ".items");
            let child = Node {
                schema: i,
                at: &path,
                resource_root: embedded(i),
                sizes: sizes.as_ref().and_then(|d| d.element()),
            };
            self.node(child, below, child_cardinality, errors);
        }
        let node = Node {
            schema: s,
            at,
            resource_root,
            sizes,
        };
        self.rules(node, uncorrelatable, cardinality, errors);
    }

    /// Whether the OpenAPI rules found an error at `at` or below.
    fn has_schema_error(&self, at: &str) -> bool {
        self.schema_errors.iter().any(|e| {
            e.field
                .strip_prefix(at)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
    }

    fn rules(
        &mut self,
        node: Node,
        uncorrelatable: Option<&str>,
        cardinality: Option<u64>,
        errors: &mut Vec<FieldError>,
    ) {
        let (s, at, resource_root) = (node.schema, node.at, node.resource_root);
        let rules = items(s.get("x-kubernetes-validations"));
        if rules.is_empty() || self.has_schema_error(at) {
            return;
        }
        let Some(self_ty) = decl_type(s, resource_root) else {
            return;
        };
        // A node its parent does not expose (an unescapable name) is converted on its own.
        let decl = node
            .sizes
            .or_else(|| cel_cost::decl(s, resource_root).map(Arc::new));
        let sized = decl.map(|d| Sized {
            cardinality: cardinality.unwrap_or_else(|| cel_cost::request_cardinality(d.min_size)),
            decl: d,
        });
        for (i, rule) in rules.iter().enumerate() {
            let rule_at = indexed(&join(at, ".x-kubernetes-validations"), i);
            let source = text(rule, "rule");
            if source.trim().is_empty() {
                continue;
            }
            let stored = self.stored.rules.contains(source);
            let compiled = compile(source, &self_ty, Scalar::Bool, self.version, stored);
            match &compiled.result {
                Compiled::Failed(issues) => errors.push(FieldError::invalid(
                    join(&rule_at, ".rule"),
                    self.quoted(rule),
                    format!("compilation failed: {issues}"),
                )),
                Compiled::Mistyped => errors.push(FieldError::invalid(
                    join(&rule_at, ".rule"),
                    self.quoted(rule),
                    "cel expression must evaluate to a bool",
                )),
                Compiled::Clean => {
                    if let Some(sized) = &sized {
                        let cost = cel_cost::estimate(
                            source,
                            &sized.decl,
                            self.version,
                            optional_old_self(rule),
                        );
                        let total =
                            cost.map(|c| cel_cost::saturating_product(c, sized.cardinality));
                        let rule_path = join(&rule_at, ".rule");
                        self.budget
                            .observe_rule(rule_path.to_string(), total, errors);
                    }
                    self.message_expression(rule, &rule_at, &self_ty, sized.as_ref(), errors)
                }
                Compiled::Unknown => {}
            }
            // `UsesOldSelf` comes from a compiled rule; one that fails uses nothing.
            let uses_old_self = match compiled.result {
                Compiled::Failed(_) | Compiled::Mistyped => Some(false),
                Compiled::Clean => Some(compiled.uses_old_self),
                Compiled::Unknown => (!compiled.uses_old_self).then_some(false),
            };
            match (uses_old_self, uncorrelatable) {
                (Some(true), Some(list)) => errors.push(FieldError::invalid(
                    join(&rule_at, ".rule"),
                    FieldError::string_value(source),
                    format!(
                        "oldSelf cannot be used on the uncorrelatable portion of the schema within {list}"
                    ),
                )),
                (Some(false), _) => {
                    if let Some(optional) = rule.get("optionalOldSelf").filter(|o| !o.is_null()) {
                        errors.push(FieldError::invalid(
                            join(&rule_at, ".optionalOldSelf"),
                            BadValue::Value(optional.clone()),
                            "may not be set if oldSelf is not used in rule",
                        ));
                    }
                }
                _ => {}
            }
        }
    }

    /// The `messageExpression` of a rule that compiled.
    fn message_expression(
        &mut self,
        rule: &Value,
        rule_at: &str,
        self_ty: &Ty,
        sized: Option<&Sized>,
        errors: &mut Vec<FieldError>,
    ) {
        let message = text(rule, "messageExpression");
        if message.is_empty() {
            return;
        }
        let stored = self.stored.messages.contains(message);
        let detail = match compile(message, self_ty, Scalar::String, self.version, stored).result {
            Compiled::Failed(issues) => format!("messageExpression compilation failed: {issues}"),
            Compiled::Mistyped => "messageExpression must evaluate to a string".to_string(),
            Compiled::Clean => {
                // A message is evaluated once per failure: its cost is not multiplied.
                if let Some(sized) = sized {
                    let cost = cel_cost::estimate(
                        message,
                        &sized.decl,
                        self.version,
                        optional_old_self(rule),
                    );
                    let path = join(rule_at, ".messageExpression");
                    self.budget.observe_message(path.to_string(), cost, errors);
                }
                return;
            }
            Compiled::Unknown => return,
        };
        errors.push(FieldError::invalid(
            join(rule_at, ".messageExpression"),
            self.quoted(rule),
            detail,
        ));
    }

    /// The internal `apiextensions.ValidationRule` as the server prints it: `%#v` until 1.33
    /// (pointers print as addresses only the server knows), JSON of its untagged fields from
    /// 1.34.
    fn quoted(&self, rule: &Value) -> BadValue {
        let string = |k: &str| Value::String(text(rule, k).to_string());
        let reason = rule.get("reason").filter(|r| !r.is_null()).cloned();
        let old_self = rule
            .get("optionalOldSelf")
            .filter(|r| !r.is_null())
            .cloned();
        let mut m = Map::with_capacity(6);
        m.insert("Rule".into(), string("rule"));
        m.insert("Message".into(), string("message"));
        m.insert("MessageExpression".into(), string("messageExpression"));
        m.insert("Reason".into(), reason.clone().unwrap_or(Value::Null));
        m.insert("FieldPath".into(), string("fieldPath"));
        m.insert(
            "OptionalOldSelf".into(),
            old_self.clone().unwrap_or(Value::Null),
        );
        let value = Value::Map(m);
        let pointer = |set: bool, ty: &str| {
            if set {
                format!("({ty})(0x…)")
            } else {
                format!("({ty})(nil)")
            }
        };
        let go_syntax = format!(
            "apiextensions.ValidationRule{{Rule:{}, Message:{}, MessageExpression:{}, Reason:{}, FieldPath:{}, OptionalOldSelf:{}}}",
            go_quote(text(rule, "rule")),
            go_quote(text(rule, "message")),
            go_quote(text(rule, "messageExpression")),
            pointer(reason.is_some(), "*apiextensions.FieldValueErrorReason"),
            go_quote(text(rule, "fieldPath")),
            pointer(old_self.is_some(), "*bool"),
        );
        BadValue::GoValue { value, go_syntax }
    }
}

/// Whether the rule declares `oldSelf` as an optional (`optionalOldSelf: true`), for its rule
/// and its `messageExpression` alike.
fn optional_old_self(rule: &Value) -> bool {
    rule.get("optionalOldSelf").and_then(Value::as_bool) == Some(true)
}

/// A rule node's declaration with its sizes, and how often it can occur.
struct Sized {
    decl: Arc<Decl>,
    cardinality: u64,
}

/// A schema node on the walk: where it is, whether it is a resource's root, and its sizes
/// when its parent's declaration gives them.
struct Node<'s> {
    schema: &'s Value,
    at: &'s str,
    resource_root: bool,
    sizes: Option<Arc<Decl>>,
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    fn crd(rules: &str, spec_rules: &str) -> String {
        format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
  "metadata":{{"name":"widgets.example.com"}},
  "spec":{{"group":"example.com","scope":"Namespaced",
    "names":{{"kind":"Widget","plural":"widgets","singular":"widget","listKind":"WidgetList"}},
    "versions":[{{"name":"v1","served":true,"storage":true,"schema":{{"openAPIV3Schema":{{
      "type":"object","x-kubernetes-validations":[{rules}],
      "properties":{{"spec":{{"type":"object","x-kubernetes-validations":[{spec_rules}],
        "properties":{{"replicas":{{"type":"integer"}}}}}}}}}}}}}}]}}}}"#
        )
    }

    #[test]
    fn children_first_and_the_rule_quoted_per_release() {
        let object = crd(
            r#"{"rule":"self.spec.replicas > 0","messageExpression":"'bad: ' + self.nme","reason":"FieldValueForbidden"}"#,
            r#"{"rule":"self.replica > 0"}"#,
        );
        assert_eq!(
            refusal_causes(&object, None, 37),
            [
                "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: \
                 {\"Rule\":\"self.replica \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: \
                 compilation failed: ERROR: <input>:1:5: undefined field 'replica'",
                " | self.replica > 0",
                " | ....^",
                "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].messageExpression: Invalid value: \
                 {\"Rule\":\"self.spec.replicas \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"'bad: ' + self.nme\",\"Reason\":\"FieldValueForbidden\",\"FieldPath\":\"\",\"OptionalOldSelf\":null}: \
                 messageExpression compilation failed: ERROR: <input>:1:15: undefined field 'nme'",
                " | 'bad: ' + self.nme",
                " | ..............^",
            ]
        );
        let causes = refusal_causes(&object, None, 33);
        assert!(causes[0].contains(
            "Invalid value: apiextensions.ValidationRule{Rule:\"self.replica > 0\", Message:\"\", MessageExpression:\"\", \
             Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed"
        ));
        assert!(causes[3].contains("Reason:(*apiextensions.FieldValueErrorReason)(0x…)"));
    }

    #[test]
    fn old_self_below_lists_and_an_unused_optional_old_self() {
        let object = crd(
            r#"{"rule":"self.spec.replicas > 0","optionalOldSelf":true}"#,
            r#"{"rule":"self.replicas >= 0"}"#,
        )
        .replace(
            r#""replicas":{"type":"integer"}"#,
            r#""replicas":{"type":"integer"},"ports":{"type":"array","items":{"type":"object",
              "x-kubernetes-validations":[{"rule":"self == oldSelf","message":"immutable"}],
              "properties":{"port":{"type":"integer"}}}}"#,
        );
        assert_eq!(
            refusal_causes(&object, None, 37),
            [
                "spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.x-kubernetes-validations[0].rule: \
                 Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within \
                 spec.validation.openAPIV3Schema.properties[spec].properties[ports]",
                "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: \
                 may not be set if oldSelf is not used in rule",
            ]
        );
        // A map list correlates its items.
        let map_list = object.replace(
            r#""type":"array","items""#,
            r#""type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],"items""#,
        ).replace(r#""properties":{"port":{"type":"integer"}}"#, r#""required":["port"],"properties":{"port":{"type":"integer"}}"#);
        assert_eq!(refusal_causes(&map_list, None, 37).len(), 1);
    }

    #[test]
    fn nodes_with_schema_errors_are_not_compiled() {
        let object = crd(
            r#"{"rule":"self.nope == 1"}"#,
            r#"{"rule":"self.nope == 1","message":" "}"#,
        );
        assert_eq!(
            refusal_causes(&object, None, 37),
            ["spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].message: Invalid value: \" \": must be non-empty if specified"]
        );
        // An error elsewhere does not keep a node from being compiled.
        let object = crd("", r#"{"rule":"self.nope == 1"}"#).replace(
            r#""replicas":{"type":"integer"}"#,
            r#""replicas":{"type":"integer"}}},"other":{"type":"string","uniqueItems":true,"x":{"#,
        );
        let causes = refusal_causes(&object, None, 37);
        assert!(causes[0].contains("uniqueItems"), "{causes:?}");
        assert!(causes[1].contains("undefined field 'nope'"), "{causes:?}");
    }

    #[test]
    fn rules_of_the_stored_crd_keep_the_releases_libraries() {
        let object = crd("", r#"{"rule":"[1, 2].all(k, v, v > k)"}"#);
        assert_eq!(refusal_causes(&object, None, 32).len(), 3 * 5 - 1);
        assert!(refusal_causes(&object, None, 33).is_empty());
        assert!(refusal_causes(&object, Some(&object), 32).is_empty());
    }
}
