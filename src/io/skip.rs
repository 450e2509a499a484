//! Inputs that are not Kubernetes objects, as a repository holds them next to manifests:
//! kustomization files and Helm chart files, recognised by name, and (when asked) documents that
//! have neither `apiVersion` nor `kind`. A document with only one of the two still looks like an
//! object and stays an error.

use super::load::Source;
use crate::value::Value;
use std::path::Path;

/// Why a whole file is not read, or `None` when it is read.
pub fn skipped_file(source: &Source) -> Option<&'static str> {
    let Source::File(path) = source else {
        return None;
    };
    let name = Path::new(path).file_name()?.to_str()?;
    let yaml = |stem: &str| {
        [".yaml", ".yml"]
            .iter()
            .any(|ext| name == format!("{stem}{ext}"))
    };
    if yaml("kustomization") || name == "Kustomization" {
        return Some("a kustomization file, not Kubernetes objects");
    }
    if yaml("Chart") {
        return Some("a Helm chart file, not Kubernetes objects");
    }
    let values = name
        .strip_suffix(".yaml")
        .or_else(|| name.strip_suffix(".yml"))
        .is_some_and(|stem| stem == "values" || stem.starts_with("values-"));
    if values {
        return Some("a Helm values file, not Kubernetes objects");
    }
    None
}

/// Whether a document is not an object at all: not a map, or a map with neither `apiVersion`
/// nor `kind`.
pub fn is_non_object(doc: &Value) -> bool {
    match doc {
        Value::Map(m) => ["apiVersion", "kind"]
            .iter()
            .all(|k| m.get(k).is_none_or(Value::is_null)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn file(name: &str) -> Option<&'static str> {
        skipped_file(&Source::File(name.into()))
    }

    #[test]
    fn kustomize_and_helm_files_by_name() {
        assert!(file("deploy/kustomization.yaml").is_some());
        assert!(file("kustomization.yml").is_some());
        assert!(file("base/Kustomization").is_some());
        assert!(file("chart/values.yaml").is_some());
        assert!(file("chart/values-prod.yml").is_some());
        assert!(file("chart/Chart.yaml").is_some());
        assert!(file("deploy/values.json").is_none());
        assert!(file("deploy/my-values.yaml").is_none());
        assert!(file("deploy/web.yaml").is_none());
        assert!(skipped_file(&Source::Stdin).is_none());
    }

    #[test]
    fn non_objects_lack_both_fields() {
        let v = |s: &str| from_json_str(s).unwrap();
        assert!(is_non_object(&v(r#"{"repos": []}"#)));
        assert!(is_non_object(&v(r#"[1]"#)));
        assert!(!is_non_object(&v(r#"{"kind": "X"}"#)));
        assert!(!is_non_object(&v(r#"{"apiVersion": "v1"}"#)));
    }
}
