//! StorageClasses and CSIDrivers, as k8s.io/kubernetes pkg/apis/storage/validation checks them
//! (`ValidateStorageClass`, `ValidateStorageClassUpdate`, `ValidateCSIDriver`,
//! `ValidateCSIDriverUpdate`); the StorageClass strategy runs the create rules on update too
//! (pkg/registry/storage/storageclass/strategy.go `ValidateUpdate`). Both kinds arrive defaulted
//! (`SetDefaults_StorageClass`, `SetDefaults_CSIDriver`); the defaults also stand in for absent
//! fields here, for callers that validate an object that was not.

use super::super::goprint::go_quote;
use super::super::{BadValue, FieldError, Write};
use super::affinity::label_name;
use super::fields::{items, present, spec, text};
use crate::kube::VersionRange;
use crate::validate::field::{indexed, join};
use crate::value::{Map, Value};
use std::collections::HashSet;

/// `supportedReclaimPolicy`, sorted as `sets.String.List` returns it.
const RECLAIM_POLICIES: &[&str] = &["Delete", "Retain"];
/// `supportedVolumeBindingModes`, sorted.
const BINDING_MODES: &[&str] = &["Immediate", "WaitForFirstConsumer"];
/// `maxProvisionerParameterLen`: the number of parameters.
const MAX_PARAMETERS: usize = 512;
/// `maxProvisionerParameterSize`: keys and values together, 256 KiB.
const MAX_PARAMETERS_SIZE: usize = 256 << 10;
/// `supportedFSGroupPolicy`, sorted.
const FS_GROUP_POLICIES: &[&str] = &["File", "None", "ReadWriteOnceWithFSType"];
/// `validateVolumeLifecycleModes`' list, in its order (not sorted).
const LIFECYCLE_MODES: &[&str] = &["Persistent", "Ephemeral"];
/// MutableCSINodeAllocatableCount is on by default from 1.35 (alpha 1.33, beta and off 1.34).
const ALLOCATABLE_PERIOD: VersionRange = VersionRange::since(35);
/// `validateTokenRequests`: ten minutes and 2^32 seconds.
const MIN_TOKEN_SECONDS: i64 = 600;
const MAX_TOKEN_SECONDS: i64 = 1 << 32;

/// A string field's value, or `default` when absent or `null` (a defaulted pointer).
fn defaulted<'v>(v: &'v Value, key: &str, default: &'v str) -> &'v str {
    match present(v, key) {
        Some(x) => x.as_str().unwrap_or(""),
        None => default,
    }
}

/// `ValidateStorageClass`, then on update `ValidateStorageClassUpdate`.
pub fn storage_class(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let provisioner = text(object, "provisioner");
    if provisioner.is_empty() {
        errors.push(FieldError::required("provisioner", ""));
    } else {
        // validateProvisioner: the lowered name must be a qualified name, and is quoted lowered.
        let lowered = provisioner.to_lowercase();
        label_name(&lowered, "provisioner", w.version(), errors);
    }
    parameters(w, object.get("parameters"), errors);
    let reclaim = defaulted(object, "reclaimPolicy", "Delete");
    if !reclaim.is_empty() && !RECLAIM_POLICIES.contains(&reclaim) {
        errors.push(FieldError::not_supported(
            "reclaimPolicy",
            FieldError::string_value(reclaim),
            RECLAIM_POLICIES,
        ));
    }
    let mode = defaulted(object, "volumeBindingMode", "Immediate");
    if !BINDING_MODES.contains(&mode) {
        errors.push(FieldError::not_supported(
            "volumeBindingMode",
            FieldError::string_value(mode),
            BINDING_MODES,
        ));
    }
    allowed_topologies(w, items(object.get("allowedTopologies")), errors);
    if let Some(old) = w.live {
        storage_class_update(w, object, old, errors);
    }
}

/// How `ValidateStorageClassUpdate` words a change, per release: until 1.35 parameters,
/// provisioner and reclaim policy are `Forbidden` (`updates to parameters are forbidden.`), the
/// parameters compared with `reflect.DeepEqual` (an empty map is not a nil one); 1.36 makes all
/// four fields `ValidateImmutableField` (`field is immutable`, quoting the new value,
/// `Semantic.DeepEqual`). Read in the 1.35 and 1.36 sources (kubernetes#136822 prepares the
/// fields for declarative validation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UpdateStyle {
    Forbidden,
    Immutable,
}

const UPDATE_STYLES: &[(VersionRange, UpdateStyle)] = &[
    (VersionRange::until(35), UpdateStyle::Forbidden),
    (VersionRange::since(36), UpdateStyle::Immutable),
];

/// `ValidateStorageClassUpdate`: parameters, provisioner, reclaim policy and binding mode may
/// not change (absent fields count as their defaults).
fn storage_class_update(w: &Write, new: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    let style = w.version().pick(UPDATE_STYLES);
    let params = |v: &Value| {
        v.get("parameters")
            .and_then(Value::as_map)
            .filter(|m| !m.is_empty())
            .cloned()
    };
    let (new_params, old_params) = (params(new), params(old));
    // The stored parameters are never an empty map (protobuf keeps no empty map); the request's
    // are when the client sent `parameters: {}` and no other entries remain, which only
    // `reflect.DeepEqual` tells from none.
    let sent_empty = new_params.is_none()
        && w.body
            .get("parameters")
            .and_then(Value::as_map)
            .is_some_and(Map::is_empty);
    let changed = new_params != old_params || (style == UpdateStyle::Forbidden && sent_empty);
    let immutable =
        |at: &str, value: BadValue| FieldError::invalid(at, value, "field is immutable");
    if changed {
        errors.push(match style {
            UpdateStyle::Forbidden => {
                FieldError::forbidden("parameters", "updates to parameters are forbidden.")
            }
            UpdateStyle::Immutable => immutable(
                "parameters",
                // A `map[string]string`, whose keys `json.Marshal` sorts.
                BadValue::Value(
                    new_params.map_or(Value::Null, |m| Value::Map(m).with_sorted_keys()),
                ),
            ),
        });
    }
    let provisioner = text(new, "provisioner");
    if provisioner != text(old, "provisioner") {
        errors.push(match style {
            UpdateStyle::Forbidden => {
                FieldError::forbidden("provisioner", "updates to provisioner are forbidden.")
            }
            UpdateStyle::Immutable => {
                immutable("provisioner", FieldError::string_value(provisioner))
            }
        });
    }
    let reclaim = defaulted(new, "reclaimPolicy", "Delete");
    if reclaim != defaulted(old, "reclaimPolicy", "Delete") {
        errors.push(match style {
            UpdateStyle::Forbidden => {
                FieldError::forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden.")
            }
            UpdateStyle::Immutable => immutable("reclaimPolicy", FieldError::string_value(reclaim)),
        });
    }
    let mode = defaulted(new, "volumeBindingMode", "Immediate");
    if mode != defaulted(old, "volumeBindingMode", "Immediate") {
        errors.push(immutable(
            "volumeBindingMode",
            FieldError::string_value(mode),
        ));
    }
}

/// `validateParameters` (empty maps allowed): at most 512 entries, no empty key, 256 KiB.
pub(super) fn parameters(w: &Write, params: Option<&Value>, errors: &mut Vec<FieldError>) {
    let Some(params) = params.and_then(Value::as_map) else {
        return;
    };
    if params.len() > MAX_PARAMETERS {
        errors.push(FieldError::too_long(
            "parameters",
            MAX_PARAMETERS,
            w.version(),
        ));
        return;
    }
    let mut size = 0;
    for (k, v) in params.iter() {
        if k.is_empty() {
            errors.push(FieldError::invalid(
                "parameters",
                FieldError::string_value(""),
                "field can not be empty.",
            ));
        }
        size += k.len() + v.as_str().map_or(0, str::len);
    }
    if size > MAX_PARAMETERS_SIZE {
        errors.push(FieldError::too_long(
            "parameters",
            MAX_PARAMETERS_SIZE,
            w.version(),
        ));
    }
}

/// `validateAllowedTopologies`: each term by `ValidateTopologySelectorTerm` (core validation),
/// and no two terms with the same expressions (`Duplicate value: ""`). Upstream compares each
/// term with a slice that starts with one nil map per term (`make(…, len(topologies))`), which
/// `Semantic.DeepEqual` finds equal to an empty one: a term without expressions is a duplicate
/// too.
fn allowed_topologies(w: &Write, terms: &[Value], errors: &mut Vec<FieldError>) {
    let mut seen: Vec<Map> = Vec::new();
    for (i, term) in terms.iter().enumerate() {
        let at = indexed("allowedTopologies", i);
        let exprs_at = join(&at, ".matchLabelExpressions");
        // key -> the set of its values, as `exprMap` holds them.
        let mut expr_map = Map::default();
        for (j, req) in items(term.get("matchLabelExpressions")).iter().enumerate() {
            let req_at = indexed(&exprs_at, j);
            let values = items(req.get("values"));
            let values_at = join(&req_at, ".values");
            if values.is_empty() {
                errors.push(FieldError::required(values_at.as_str(), ""));
            }
            let mut set: Vec<&str> = Vec::new();
            for (k, v) in values.iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                if set.contains(&v) {
                    errors.push(FieldError::duplicate(
                        indexed(&values_at, k),
                        FieldError::string_value(v),
                    ));
                } else {
                    set.push(v);
                }
            }
            let key = text(req, "key");
            label_name(key, &join(&req_at, ".key"), w.version(), errors);
            if expr_map.contains_key(key) {
                errors.push(FieldError::duplicate(
                    join(&req_at, ".key"),
                    FieldError::string_value(key),
                ));
            }
            set.sort_unstable();
            let set = set.into_iter().map(Value::from).collect();
            expr_map.insert(key.into(), Value::List(set));
        }
        if expr_map.is_empty() || seen.iter().any(|m| same_sets(m, &expr_map)) {
            errors.push(FieldError::duplicate(
                exprs_at,
                FieldError::string_value(""),
            ));
        }
        seen.push(expr_map);
    }
}

/// Whether two `exprMap`s are deeply equal (maps compare regardless of order).
fn same_sets(a: &Map, b: &Map) -> bool {
    a.len() == b.len() && a.iter().all(|(k, v)| b.get(k) == Some(v))
}

/// `ValidateCSIDriver` (the spec) and on update `ValidateCSIDriverUpdate`: `attachRequired`
/// and `volumeLifecycleModes` immutable (reported at `spec.attachedRequired`, upstream's
/// spelling).
pub fn csi_driver(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    if let Some(policy) = present(spec, "fsGroupPolicy") {
        let policy = policy.as_str().unwrap_or("");
        if !FS_GROUP_POLICIES.contains(&policy) {
            errors.push(FieldError::not_supported(
                "spec.fsGroupPolicy",
                FieldError::string_value(policy),
                FS_GROUP_POLICIES,
            ));
        }
    }
    token_requests(items(spec.get("tokenRequests")), errors);
    for mode in items(spec.get("volumeLifecycleModes")) {
        let mode = mode.as_str().unwrap_or("");
        if !LIFECYCLE_MODES.contains(&mode) {
            errors.push(FieldError::not_supported(
                "spec.volumeLifecycleModes",
                FieldError::string_value(mode),
                LIFECYCLE_MODES,
            ));
        }
    }
    // MutableCSINodeAllocatableCount: off in 1.33–1.34, where the strategy drops the period
    // unless the stored driver has one.
    let stored_period = w
        .live
        .and_then(|old| present(self::spec(old), "nodeAllocatableUpdatePeriodSeconds"))
        .is_some();
    if ALLOCATABLE_PERIOD.contains(w.version()) || stored_period {
        if let Some(period) = present(spec, "nodeAllocatableUpdatePeriodSeconds")
            .and_then(Value::as_i64)
            .filter(|p| *p < 10)
        {
            errors.push(FieldError::invalid(
                "spec.nodeAllocatableUpdatePeriodSeconds",
                BadValue::Value(Value::Int(period)),
                "must be greater than or equal to 10 seconds",
            ));
        }
    }
    // `validateServiceAccountTokenInSecrets` (the field and CSIServiceAccountTokenSecrets,
    // on by default, are new in 1.35).
    if let Some(in_secrets) = present(spec, "serviceAccountTokenInSecrets") {
        if items(spec.get("tokenRequests")).is_empty() {
            errors.push(FieldError::invalid(
                "spec.serviceAccountTokenInSecrets",
                BadValue::Value(in_secrets.clone()),
                "serviceAccountTokenInSecrets is set but no tokenRequests are specified",
            ));
        }
    }
    let Some(old) = w.live.map(self::spec) else {
        return;
    };
    let attach = |s: &Value| present(s, "attachRequired").and_then(Value::as_bool);
    let new_attach = attach(spec).unwrap_or(true);
    if new_attach != attach(old).unwrap_or(true) {
        errors.push(FieldError::invalid(
            "spec.attachedRequired",
            BadValue::Value(Value::Bool(new_attach)),
            "field is immutable",
        ));
    }
    let modes = lifecycle_modes(spec);
    if modes != lifecycle_modes(old) {
        let quoted: Vec<String> = modes.iter().map(|m| go_quote(m)).collect();
        errors.push(FieldError::invalid(
            "spec.volumeLifecycleModes",
            BadValue::GoValue {
                value: Value::List(modes.iter().map(|m| Value::from(m.as_str())).collect()),
                go_syntax: format!("[]storage.VolumeLifecycleMode{{{}}}", quoted.join(", ")),
            },
            "field is immutable",
        ));
    }
}

/// The lifecycle modes, `[Persistent]` when none (the default).
fn lifecycle_modes(spec: &Value) -> Vec<String> {
    let modes: Vec<String> = items(spec.get("volumeLifecycleModes"))
        .iter()
        .map(|m| m.as_str().unwrap_or("").to_string())
        .collect();
    if modes.is_empty() {
        vec!["Persistent".to_string()]
    } else {
        modes
    }
}

/// `validateTokenRequests`: audiences unique, expirations between ten minutes and 2^32 s.
fn token_requests(requests: &[Value], errors: &mut Vec<FieldError>) {
    let mut audiences = HashSet::new();
    for (i, request) in requests.iter().enumerate() {
        let at = indexed("spec.tokenRequests", i);
        let audience = text(request, "audience");
        if !audiences.insert(audience) {
            errors.push(FieldError::duplicate(
                join(&at, ".audience"),
                FieldError::string_value(audience),
            ));
            continue;
        }
        let Some(seconds) = present(request, "expirationSeconds").and_then(Value::as_i64) else {
            continue;
        };
        let at = join(&at, ".expirationSeconds");
        if seconds < MIN_TOKEN_SECONDS {
            errors.push(FieldError::invalid(
                at.as_str(),
                BadValue::Value(Value::Int(seconds)),
                "may not specify a duration less than 10 minutes",
            ));
        }
        if seconds > MAX_TOKEN_SECONDS {
            errors.push(FieldError::invalid(
                at,
                BadValue::Value(Value::Int(seconds)),
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const CLASS: &str = r#"{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
      "metadata":{"name":"slow"},"provisioner":"kubernetes.io/gce-pd",
      "parameters":{"type":"pd-standard"}}"#;

    #[test]
    fn a_valid_class_passes_and_defaults_count_as_set() {
        assert_eq!(refusal(CLASS, None, 37), None);
        let explicit = CLASS.replace(
            r#""provisioner""#,
            r#""reclaimPolicy":"Delete","volumeBindingMode":"Immediate","provisioner""#,
        );
        assert_eq!(refusal(&explicit, Some(CLASS), 37), None);
    }

    #[test]
    fn create_rules() {
        let bad = CLASS
            .replace("kubernetes.io/gce-pd", "Example.com/My_Driver!")
            .replace(
                r#""parameters""#,
                r#""reclaimPolicy":"Recycle","volumeBindingMode":"Later","parameters""#,
            );
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The StorageClass \"slow\" is invalid: \n\
             * provisioner: Invalid value: \"example.com/my_driver!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n\
             * reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"\n\
             * volumeBindingMode: Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\""
        );
    }

    #[test]
    fn allowed_topologies() {
        let bad = CLASS.replace(
            r#""parameters""#,
            r#""allowedTopologies":[
              {"matchLabelExpressions":[{"key":"zone","values":["a","a"]},{"key":"zone","values":[]}]},
              {"matchLabelExpressions":[{"key":"b","values":["x","y"]}]},
              {"matchLabelExpressions":[{"key":"b","values":["y","x"]}]},
              {"matchLabelExpressions":[]}],"parameters""#,
        );
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The StorageClass \"slow\" is invalid: \n\
             * allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: \"a\"\n\
             * allowedTopologies[0].matchLabelExpressions[1].values: Required value\n\
             * allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: \"zone\"\n\
             * allowedTopologies[2].matchLabelExpressions: Duplicate value: \"\"\n\
             * allowedTopologies[3].matchLabelExpressions: Duplicate value: \"\""
        );
    }

    #[test]
    fn updates_keep_provisioner_parameters_and_policies() {
        let changed = CLASS
            .replace("kubernetes.io/gce-pd", "pd.csi.storage.gke.io")
            .replace(
                r#""parameters""#,
                r#""reclaimPolicy":"Retain","parameters""#,
            );
        assert_eq!(
            refusal(&changed, Some(CLASS), 30).unwrap(),
            "The StorageClass \"slow\" is invalid: \n\
             * provisioner: Forbidden: updates to provisioner are forbidden.\n\
             * reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden."
        );
        let mode = CLASS.replace(
            r#""parameters""#,
            r#""volumeBindingMode":"WaitForFirstConsumer","parameters""#,
        );
        assert_eq!(
            refusal(&mode, Some(CLASS), 36).unwrap(),
            "The StorageClass \"slow\" is invalid: volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable"
        );
        assert_eq!(refusal(&mode, None, 37), None);
    }

    /// 1.36 words every change as `field is immutable` and compares semantically; until 1.35
    /// `parameters: {}` sent over a class without parameters is a change (`reflect.DeepEqual`).
    #[test]
    fn update_wording_and_empty_parameters_per_release() {
        let changed = CLASS
            .replace("kubernetes.io/gce-pd", "pd.csi.storage.gke.io")
            .replace(r#""type":"pd-standard""#, r#""type":"pd-ssd""#)
            .replace(
                r#""parameters""#,
                r#""reclaimPolicy":"Retain","parameters""#,
            );
        assert_eq!(
            refusal(&changed, Some(CLASS), 36).unwrap(),
            "The StorageClass \"slow\" is invalid: \n\
             * parameters: Invalid value: {\"type\":\"pd-ssd\"}: field is immutable\n\
             * provisioner: Invalid value: \"pd.csi.storage.gke.io\": field is immutable\n\
             * reclaimPolicy: Invalid value: \"Retain\": field is immutable"
        );
        let bare = r#"{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"slow"},"provisioner":"kubernetes.io/gce-pd"}"#;
        let empty = bare.replace(r#""provisioner""#, r#""parameters":{},"provisioner""#);
        assert_eq!(
            refusal(&empty, Some(bare), 35).unwrap(),
            "The StorageClass \"slow\" is invalid: parameters: Forbidden: updates to parameters are forbidden."
        );
        assert_eq!(refusal(&empty, Some(bare), 36), None);
        assert_eq!(refusal(bare, Some(bare), 35), None);
    }

    const DRIVER: &str = r#"{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver",
      "metadata":{"name":"pd.csi.storage.gke.io"},
      "spec":{"attachRequired":true,"podInfoOnMount":false}}"#;

    /// `validateNodeAllocatableUpdatePeriodSeconds` once MutableCSINodeAllocatableCount is on
    /// (1.35), or on a stored period; `validateServiceAccountTokenInSecrets` (1.35).
    #[test]
    fn csi_driver_period_and_token_secrets() {
        let short = DRIVER.replace(
            r#""podInfoOnMount":false"#,
            r#""podInfoOnMount":false,"nodeAllocatableUpdatePeriodSeconds":5"#,
        );
        assert_eq!(refusal(&short, None, 34), None);
        let want = "The CSIDriver \"pd.csi.storage.gke.io\" is invalid: spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds";
        assert_eq!(refusal(&short, None, 35).unwrap(), want);
        let stored = short.replace(":5}", ":60}");
        assert_eq!(refusal(&short, Some(&stored), 34).unwrap(), want);
        let secrets = DRIVER.replace(
            r#""podInfoOnMount":false"#,
            r#""podInfoOnMount":false,"serviceAccountTokenInSecrets":true"#,
        );
        assert_eq!(
            refusal(&secrets, None, 36).unwrap(),
            "The CSIDriver \"pd.csi.storage.gke.io\" is invalid: spec.serviceAccountTokenInSecrets: Invalid value: true: serviceAccountTokenInSecrets is set but no tokenRequests are specified"
        );
    }

    #[test]
    fn csi_driver_rules() {
        assert_eq!(refusal(DRIVER, None, 37), None);
        let bad = DRIVER.replace(
            r#""podInfoOnMount":false"#,
            r#""podInfoOnMount":true,"fsGroupPolicy":"Sometimes","volumeLifecycleModes":["Persistent","Inline"],
               "tokenRequests":[{"audience":"a","expirationSeconds":60},{"audience":"a"}]"#,
        );
        assert_eq!(
            refusal(&bad, None, 37).unwrap(),
            "The CSIDriver \"pd.csi.storage.gke.io\" is invalid: \n\
             * spec.fsGroupPolicy: Unsupported value: \"Sometimes\": supported values: \"File\", \"None\", \"ReadWriteOnceWithFSType\"\n\
             * spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n\
             * spec.tokenRequests[1].audience: Duplicate value: \"a\"\n\
             * spec.volumeLifecycleModes: Unsupported value: \"Inline\": supported values: \"Persistent\", \"Ephemeral\""
        );
    }

    #[test]
    fn csi_driver_updates() {
        let changed = DRIVER.replace(
            r#""attachRequired":true,"podInfoOnMount":false"#,
            r#""attachRequired":false,"podInfoOnMount":true,"volumeLifecycleModes":["Ephemeral"]"#,
        );
        assert_eq!(
            refusal(&changed, Some(DRIVER), 33).unwrap(),
            "The CSIDriver \"pd.csi.storage.gke.io\" is invalid: \n\
             * spec.attachedRequired: Invalid value: false: field is immutable\n\
             * spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{\"Ephemeral\"}: field is immutable"
        );
        assert_eq!(
            refusal(&changed, Some(DRIVER), 34).unwrap(),
            "The CSIDriver \"pd.csi.storage.gke.io\" is invalid: \n\
             * spec.attachedRequired: Invalid value: false: field is immutable\n\
             * spec.volumeLifecycleModes: Invalid value: [\"Ephemeral\"]: field is immutable"
        );
        let pod_info = DRIVER.replace(r#""podInfoOnMount":false"#, r#""podInfoOnMount":true"#);
        assert_eq!(refusal(&pod_info, Some(DRIVER), 37), None);
    }
}
