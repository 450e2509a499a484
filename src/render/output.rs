//! Printing objects as `kubectl apply -o yaml|json|name` does.

use crate::value::{to_json_string_pretty, Map, Value};
use crate::yaml::to_yaml_string;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Yaml,
    Json,
    /// `kind.group/name`, kind lowercased.
    Name,
}

fn resource_name(v: &Value) -> String {
    let s = |p: &[&str]| {
        v.get_path(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let kind = s(&["kind"]).to_lowercase();
    let group = s(&["apiVersion"])
        .rsplit_once('/')
        .map(|(g, _)| g.to_string())
        .unwrap_or_default();
    let name = s(&["metadata", "name"]);
    if group.is_empty() {
        format!("{kind}/{name}")
    } else {
        format!("{kind}.{group}/{name}")
    }
}

/// The objects in `format`: YAML documents separated by `---`, JSON as one object or a `v1`
/// `List`, names one per line.
pub fn render_objects(objects: &[&Value], format: OutputFormat) -> String {
    match format {
        OutputFormat::Name => objects.iter().map(|o| resource_name(o) + "\n").collect(),
        OutputFormat::Yaml => objects
            .iter()
            .map(|o| to_yaml_string(o))
            .collect::<Vec<_>>()
            .join("---\n"),
        OutputFormat::Json => {
            let mut text = match objects {
                [] => String::new(),
                [one] => to_json_string_pretty(one),
                many => {
                    let mut list = Map::default();
                    list.insert("apiVersion".into(), Value::from("v1"));
                    list.insert(
                        "items".into(),
                        Value::List(many.iter().map(|o| (*o).clone()).collect()),
                    );
                    list.insert("kind".into(), Value::from("List"));
                    let mut meta = Map::default();
                    meta.insert("resourceVersion".into(), Value::from(""));
                    list.insert("metadata".into(), Value::Map(meta));
                    to_json_string_pretty(&Value::Map(list))
                }
            };
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn names_like_kubectl() {
        let d = from_json_str(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}"#,
        )
        .unwrap();
        let c = from_json_str(r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#)
            .unwrap();
        assert_eq!(
            render_objects(&[&d, &c], OutputFormat::Name),
            "deployment.apps/web\nconfigmap/c\n"
        );
    }

    #[test]
    fn yaml_documents_are_separated() {
        let a = from_json_str(r#"{"a":1}"#).unwrap();
        assert_eq!(
            render_objects(&[&a, &a], OutputFormat::Yaml),
            "a: 1\n---\na: 1\n"
        );
    }
}
