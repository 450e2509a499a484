//! Schemas from documents a user hands over: a CustomResourceDefinition (converted per served
//! version as the API server does), an OpenAPI v2/v3 document, or SMD schema YAML.

use super::builtin::{builtin, named_refs};
use super::openapi::{
    convert_definitions, convert_schema, document_definitions, document_kinds, set_resource_fields,
    ConvertOptions, OBJECT_META,
};
use super::*;
use crate::validate::crd::LazySchema;
use std::collections::HashSet;
use std::sync::Arc;

/// A schema and the kinds it serves.
#[derive(Debug, Clone)]
pub struct LoadedSchemas {
    pub schema: Arc<Schema>,
    /// Empty for SMD schema YAML, which names no kinds.
    pub kinds: Vec<KindInfo>,
    /// For a CustomResourceDefinition: its name and how its versions convert.
    pub crd: Option<CrdConversion>,
    /// For a CustomResourceDefinition: each served version's `openAPIV3Schema` as the
    /// validation of custom resources reads it.
    pub validation: Vec<(String, Arc<LazySchema>)>,
}

/// How the API server converts a custom resource between its versions
/// (`spec.conversion.strategy`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrdConversion {
    /// `metadata.name` of the CRD (`crontabs.stable.example.com`).
    pub name: String,
    /// `Webhook`: only the CRD's webhook can convert; `None` (the default) rewrites apiVersion.
    pub webhook: bool,
}

impl LoadedSchemas {
    pub fn kind(&self, group: &str, version: &str, kind: &str) -> Option<&KindInfo> {
        self.kinds
            .iter()
            .find(|k| k.group == group && k.version == version && k.kind == kind)
    }
}

/// Loads a CRD, an OpenAPI document (v2 `definitions` or v3 `components.schemas`) or SMD schema
/// YAML (top-level `types:`), whichever `doc` is.
pub fn load_schema_document(doc: &Value) -> Result<LoadedSchemas, SchemaError> {
    if doc.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition") {
        load_crd(doc)
    } else if doc.get("types").is_some() {
        Ok(LoadedSchemas {
            schema: Arc::new(parse_smd_schema_value(doc)?.with_types_added(untyped_types())),
            kinds: Vec::new(),
            crd: None,
            validation: Vec::new(),
        })
    } else if document_definitions(doc).is_some() {
        load_openapi(doc)
    } else {
        Err(SchemaError::Invalid(
            "expected a CustomResourceDefinition, an OpenAPI document or SMD schema YAML (types:)"
                .into(),
        ))
    }
}

/// An OpenAPI document's definitions and kinds; references it lacks are taken from the
/// built-in types when they have them (a per-group v3 document referring to meta types).
pub fn load_openapi(doc: &Value) -> Result<LoadedSchemas, SchemaError> {
    let definitions = document_definitions(doc)
        .ok_or_else(|| SchemaError::Invalid("no definitions in the OpenAPI document".into()))?;
    let types = convert_definitions(definitions, ConvertOptions::default())?;
    Ok(LoadedSchemas {
        schema: Arc::new(with_builtin_references(types)?),
        kinds: document_kinds(doc),
        crd: None,
        validation: Vec::new(),
    })
}

/// The served versions of a CustomResourceDefinition (`apiextensions.k8s.io/v1`, or v1beta1's
/// top-level `validation`/`subresources`): one kind and one root type per version.
pub fn load_crd(crd: &Value) -> Result<LoadedSchemas, SchemaError> {
    let spec = crd
        .get("spec")
        .ok_or_else(|| SchemaError::Invalid("CustomResourceDefinition without spec".into()))?;
    let text = |path: &[&str]| spec.get_path(path).and_then(Value::as_str);
    let missing =
        |what: &str| SchemaError::Invalid(format!("CustomResourceDefinition without {what}"));
    let group = text(&["group"]).ok_or_else(|| missing("spec.group"))?;
    let kind = text(&["names", "kind"]).ok_or_else(|| missing("spec.names.kind"))?;
    let plural = text(&["names", "plural"]).map(str::to_string);
    let namespaced = text(&["scope"]).unwrap_or("Namespaced") == "Namespaced";
    let options = ConvertOptions {
        preserve_unknown_fields: spec.get("preserveUnknownFields").and_then(Value::as_bool)
            == Some(true),
        embedded_resources: true,
    };

    let mut versions: Vec<&Value> = spec
        .get("versions")
        .and_then(Value::as_list)
        .map(|v| v.iter().collect())
        .unwrap_or_default();
    let single;
    if versions.is_empty() {
        // v1beta1's single `spec.version`.
        single = Value::Map(
            [(
                "name".to_string(),
                spec.get("version").cloned().unwrap_or_default(),
            )]
            .into_iter()
            .collect(),
        );
        versions.push(&single);
    }

    let mut kinds = Vec::new();
    let mut types = Vec::new();
    let mut validation = Vec::new();
    for v in versions {
        if v.get("served").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        let version = v
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| missing("spec.versions[].name"))?;
        let per_version_or_spec = |path: &[&str]| v.get_path(path).or_else(|| spec.get_path(path));
        let type_name = crd_type_name(group, version, kind);
        let schema = per_version_or_spec(&["schema", "openAPIV3Schema"])
            .or_else(|| spec.get_path(&["validation", "openAPIV3Schema"]));
        types.push(crd_root_type(&type_name, schema, options)?);
        if let Some(s) = schema {
            validation.push((
                version.to_string(),
                Arc::new(LazySchema::new(s.clone(), options.preserve_unknown_fields)),
            ));
        }
        kinds.push(KindInfo {
            group: group.to_string(),
            version: version.to_string(),
            kind: kind.to_string(),
            type_name,
            plural: plural.clone(),
            namespaced,
            has_status_subresource: per_version_or_spec(&["subresources", "status"]).is_some(),
            custom_resource: true,
        });
    }
    let name = crd
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .map_or_else(
            || format!("{}.{group}", plural.clone().unwrap_or_default()),
            str::to_string,
        );
    let webhook = text(&["conversion", "strategy"]) == Some("Webhook");
    Ok(LoadedSchemas {
        schema: Arc::new(with_builtin_references(types)?),
        kinds,
        crd: Some(CrdConversion { name, webhook }),
        validation,
    })
}

/// The definition name the API server's CRD OpenAPI builder uses: the group reversed, then
/// version and kind (`cert-manager.io`, `v1`, `Certificate` → `io.cert-manager.v1.Certificate`).
pub fn crd_type_name(group: &str, version: &str, kind: &str) -> String {
    let mut parts: Vec<&str> = group.split('.').filter(|p| !p.is_empty()).collect();
    parts.reverse();
    parts.extend([version, kind]);
    parts.join(".")
}

/// A version's root type: its structural schema (or "anything" without one), with
/// `apiVersion`, `kind` and `metadata` as for every resource.
fn crd_root_type(
    name: &str,
    schema: Option<&Value>,
    options: ConvertOptions,
) -> Result<TypeDef, SchemaError> {
    let mut def = match schema {
        Some(s) => convert_schema(name, s, options)?,
        None => {
            let anything = Value::Map(
                [
                    ("type".to_string(), Value::from("object")),
                    (
                        "x-kubernetes-preserve-unknown-fields".to_string(),
                        Value::Bool(true),
                    ),
                ]
                .into_iter()
                .collect(),
            );
            convert_schema(name, &anything, options)?
        }
    };
    let map = def.atom.map.get_or_insert_with(|| {
        Box::new(MapType::new(
            Vec::new(),
            Vec::new(),
            TypeRef::default(),
            ElementRelationship::Separable,
        ))
    });
    let mut fields = std::mem::take(&mut map.fields);
    set_resource_fields(&mut fields);
    fields.sort_by(|a, b| a.name.cmp(&b.name));
    **map = MapType::new(
        fields,
        std::mem::take(&mut map.unions),
        map.element_type.clone(),
        map.element_relationship,
    );
    Ok(def)
}

/// Builds a schema from `types`, adding the built-in types (with their closures) that they
/// refer to but do not define, and the untyped helpers. Unknown references stay unresolved.
fn with_builtin_references(types: Vec<TypeDef>) -> Result<Schema, SchemaError> {
    let defined: HashSet<&str> = types.iter().map(|t| t.name.as_str()).collect();
    let mut wanted: Vec<&str> = Vec::new();
    let mut walk = Vec::new();
    for t in &types {
        walk.clear();
        named_refs(&t.atom, &mut walk);
        for name in walk.drain(..) {
            if !defined.contains(name)
                && !wanted.contains(&name)
                && (name == OBJECT_META || builtin().has_type(name))
            {
                wanted.push(name);
            }
        }
    }
    let extra = builtin().closure(&wanted)?;
    let mut all = types;
    let present: HashSet<String> = all.iter().map(|t| t.name.clone()).collect();
    all.extend(extra.into_iter().filter(|t| !present.contains(&t.name)));
    Ok(Schema::new(all).with_types_added(untyped_types()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn yaml_documents(text: &str) -> Vec<Value> {
        serde_yaml::Deserializer::from_str(text)
            .map(|d| serde::Deserialize::deserialize(d).unwrap())
            .filter(|v: &Value| !v.is_null())
            .collect()
    }

    fn load_file(path: &Path) -> Vec<LoadedSchemas> {
        let text = std::fs::read_to_string(path).unwrap();
        yaml_documents(&text)
            .iter()
            .filter(|d| d.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition"))
            .map(|d| load_schema_document(d).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
            .collect()
    }

    fn testdata(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/crds")
            .join(name)
    }

    /// The type reached from `root` through map fields and list items (`[]`).
    fn type_at(schema: &Schema, root: &str, path: &[&str]) -> TypeRef {
        let mut tr = schema.type_ref(root).unwrap();
        for name in path {
            let r = schema.resolve(&tr).unwrap();
            let next = match (*name, r.list, r.map) {
                ("[]", Some(l), _) => l.element_type.clone(),
                (_, _, Some(m)) => m.type_of(name).clone(),
                _ => panic!("cannot descend into {name}"),
            };
            tr = next;
        }
        tr
    }

    #[test]
    fn certificate_crd() {
        let loaded = load_file(&testdata("cert-manager.io_certificates.yaml"));
        let l = &loaded[0];
        let k = l.kind("cert-manager.io", "v1", "Certificate").unwrap();
        assert_eq!(k.type_name, "io.cert-manager.v1.Certificate");
        assert_eq!(k.plural.as_deref(), Some("certificates"));
        assert!(k.namespaced && k.has_status_subresource);
        let s = &l.schema;
        let labels = type_at(s, &k.type_name, &["metadata", "labels"]);
        let labels = s.resolve(&labels).unwrap();
        assert_eq!(
            labels.map_relationship(),
            Some(ElementRelationship::Separable)
        );
        let dns = type_at(s, &k.type_name, &["spec", "dnsNames"]);
        let dns = s.resolve(&dns).unwrap();
        assert_eq!(dns.list_relationship(), Some(ElementRelationship::Atomic));
        let kind = type_at(s, &k.type_name, &["kind"]);
        assert_eq!(s.resolve(&kind).unwrap().scalar, Some(Scalar::String));
    }

    #[test]
    fn servicemonitor_crd_keyed_lists_and_int_or_string() {
        let loaded = load_file(&testdata("0servicemonitorCustomResourceDefinition.yaml"));
        let l = &loaded[0];
        let k = l
            .kind("monitoring.coreos.com", "v1", "ServiceMonitor")
            .unwrap();
        assert!(k.namespaced);
        let port = type_at(
            &l.schema,
            &k.type_name,
            &["spec", "endpoints", "[]", "targetPort"],
        );
        assert_eq!(
            l.schema.resolve(&port).unwrap().scalar,
            Some(Scalar::Untyped)
        );
    }

    #[test]
    fn argo_appproject_crd() {
        let loaded = load_file(&testdata("appproject-crd.yaml"));
        let k = &loaded[0].kinds[0];
        assert_eq!(
            (k.group.as_str(), k.kind.as_str()),
            ("argoproj.io", "AppProject")
        );
        assert!(k.namespaced);
    }

    #[test]
    fn smd_yaml_and_openapi_documents() {
        let smd: Value = serde_yaml::from_str("types:\n- name: a\n  scalar: string\n").unwrap();
        let l = load_schema_document(&smd).unwrap();
        assert!(l.schema.find("a").is_some() && l.kinds.is_empty());

        let doc = crate::value::from_json_str(
            r##"{"components": {"schemas": {"x.v1.Thing": {"type": "object",
                 "properties": {"metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}},
                 "x-kubernetes-group-version-kind": [{"group": "x", "version": "v1", "kind": "Thing"}]}}},
               "paths": {"/apis/x/v1/namespaces/{namespace}/things/{name}/status":
                 {"get": {"x-kubernetes-group-version-kind": {"group": "x", "version": "v1", "kind": "Thing"}}},
                 "/apis/x/v1/namespaces/{namespace}/things/{name}":
                 {"get": {"x-kubernetes-group-version-kind": {"group": "x", "version": "v1", "kind": "Thing"}}}}}"##,
        )
        .unwrap();
        let l = load_schema_document(&doc).unwrap();
        let k = l.kind("x", "v1", "Thing").unwrap();
        assert!(k.namespaced && k.has_status_subresource);
        assert_eq!(k.plural.as_deref(), Some("things"));
        assert!(l.schema.find(OBJECT_META).is_some());

        let err = load_schema_document(&Value::from("x")).unwrap_err();
        assert!(matches!(err, SchemaError::Invalid(_)));
    }

    #[test]
    fn embedded_resources_and_cluster_scope() {
        let crd: Value = serde_yaml::from_str(
            "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: example.com
  scope: Cluster
  names: {kind: Wrapper, plural: wrappers}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          template:
            type: object
            x-kubernetes-embedded-resource: true
            x-kubernetes-preserve-unknown-fields: true
  - name: v0
    served: false
",
        )
        .unwrap();
        let l = load_schema_document(&crd).unwrap();
        assert_eq!(l.kinds.len(), 1);
        let k = &l.kinds[0];
        assert_eq!(k.type_name, "com.example.v1.Wrapper");
        assert!(!k.namespaced && !k.has_status_subresource);
        let meta = type_at(&l.schema, &k.type_name, &["template", "metadata"]);
        assert_eq!(meta.named.as_deref(), Some(OBJECT_META));
        let other = type_at(&l.schema, &k.type_name, &["template", "spec"]);
        assert_eq!(other.named.as_deref(), Some(UNTYPED_DEDUCED));
    }

    #[test]
    fn crd_type_names_reverse_the_group() {
        assert_eq!(
            crd_type_name("monitoring.coreos.com", "v1", "Probe"),
            "com.coreos.monitoring.v1.Probe"
        );
    }

    /// Every CRD of the shared corpus loads (skipped without the corpus).
    #[test]
    fn corpus_crds_load() {
        let roots = [
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/real"),
            Path::new("/work/shared/corpus/real").to_path_buf(),
        ];
        let Some(root) = roots.iter().find(|r| r.is_dir()) else {
            eprintln!("skipped: no shared corpus");
            return;
        };
        let dirs = [
            "kube-prometheus/manifests/setup",
            "cert-manager/deploy/crds",
            "argo-cd/manifests/crds",
            "argo-cd/manifests",
        ];
        let mut count = 0;
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
            paths.sort();
            for path in paths
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            {
                for loaded in load_file(path) {
                    assert!(!loaded.kinds.is_empty(), "{}", path.display());
                    for k in &loaded.kinds {
                        assert!(loaded.schema.find(&k.type_name).is_some());
                    }
                    count += 1;
                }
            }
        }
        assert!(count >= 19, "only {count} CRDs found");
    }
}
