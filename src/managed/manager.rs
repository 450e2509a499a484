//! Manager identity as the API server keys it (`BuildManagerIdentifier`): the JSON of the entry
//! without fields and time, and without the API version for appliers, so one applier keeps one
//! entry across versions while updaters get one entry per version and subresource.

use super::entry::Operation;
use crate::value::{write_json, Value};

/// Who wrote a set of fields, and how.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ManagerId {
    pub manager: String,
    pub operation: Operation,
    /// Empty for appliers.
    pub api_version: String,
    /// Empty for the main resource.
    pub subresource: String,
}

impl ManagerId {
    /// An identity; the API version is dropped for appliers, as the server does.
    pub fn new(
        manager: &str,
        operation: Operation,
        api_version: &str,
        subresource: &str,
    ) -> ManagerId {
        ManagerId {
            manager: manager.to_string(),
            operation,
            api_version: match operation {
                Operation::Apply => String::new(),
                Operation::Update => api_version.to_string(),
            },
            subresource: subresource.to_string(),
        }
    }

    /// The identifier string the server keys managers by (Go's JSON of the trimmed entry).
    pub fn key(&self) -> String {
        let mut out = String::from("{");
        let field = |out: &mut String, name: &str, value: &str| {
            if !value.is_empty() {
                if out.len() > 1 {
                    out.push(',');
                }
                out.push('"');
                out.push_str(name);
                out.push_str("\":");
                write_json(out, &Value::from(value));
            }
        };
        field(&mut out, "manager", &self.manager);
        let operation = match self.operation {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        };
        field(&mut out, "operation", operation);
        field(&mut out, "apiVersion", &self.api_version);
        field(&mut out, "subresource", &self.subresource);
        out.push('}');
        out
    }

    /// Reads an identifier written by [`ManagerId::key`]; `None` for anything else.
    pub fn from_key(key: &str) -> Option<ManagerId> {
        let v: serde_json::Value = serde_json::from_str(key).ok()?;
        let text = |k: &str| {
            v.get(k)
                .and_then(|s| s.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let operation = match text("operation").as_str() {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return None,
        };
        Some(ManagerId {
            manager: text("manager"),
            operation,
            api_version: text("apiVersion"),
            subresource: text("subresource"),
        })
    }

    /// How conflict messages name the manager (`printManager`):
    /// `"hpa" with subresource "status" using apps/v1`; appliers show no version.
    pub fn describe(&self) -> String {
        let mut s = format!("{:?}", self.manager);
        if !self.subresource.is_empty() {
            s.push_str(&format!(" with subresource {:?}", self.subresource));
        }
        if self.operation == Operation::Update {
            s.push_str(&format!(" using {}", self.api_version));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_as_the_server_builds_them() {
        let apply = ManagerId::new("kubectl", Operation::Apply, "apps/v1", "");
        assert_eq!(apply.key(), r#"{"manager":"kubectl","operation":"Apply"}"#);
        let update = ManagerId::new("kcm", Operation::Update, "apps/v1", "status");
        assert_eq!(
            update.key(),
            r#"{"manager":"kcm","operation":"Update","apiVersion":"apps/v1","subresource":"status"}"#
        );
        assert_eq!(ManagerId::from_key(&update.key()), Some(update.clone()));
        assert_eq!(
            update.describe(),
            r#""kcm" with subresource "status" using apps/v1"#
        );
        assert_eq!(apply.describe(), r#""kubectl""#);
    }
}
