//! The request's own errors (before anything else) and the store's preconditions (after the
//! field manager, before validation), with the server's texts:
//!
//! - the field manager (k8s.io/apimachinery meta/v1/validation `ValidatePatchOptions`,
//!   `ValidateUpdateOptions`, `ValidateFieldManager`): an apply without one is a 422 on
//!   `PatchOptions`;
//! - the subresource: one the resource does not serve is a 404 from the router, one it serves
//!   without PATCH/PUT a 405 (k8s.io/apiserver endpoints installer);
//! - `metadata.resourceVersion` (registry/generic/registry store.go `Update`): not a number is
//!   the versioner's parse error (500), another version the optimistic-lock 409;
//! - `metadata.uid`: on a create by apply the patch handler's `uid mismatch` 409
//!   (endpoints/handlers/patch.go `applyPatch`), on a PUT the storage precondition's 409
//!   (storage `Preconditions.Check`, `StorageError`);
//! - a PUT without a resourceVersion of a resource whose strategy allows no unconditional
//!   update (custom resources, CRDs, leases, …: [`super::update_policy`]): the store's 422
//!   against the resource (`metadata.resourceVersion: Invalid value: 0: must be specified for
//!   an update`).
//!
//! A resourceVersion on an apply that creates is ignored: the store's create-on-update path
//! never compares it and storage clears it (storage `PrepareObjectForStorage`).

use super::field::{BadValue, FieldError};
use super::{Reason, StatusError, Write};
use crate::defaults::KindClass;
use crate::kube::KubeVersion;
use crate::managed::Operation;
use crate::value::Value;

/// Request-level refusals, before decoding: the field manager, then the subresource.
pub fn check_request(w: &Write) -> Result<(), StatusError> {
    let apply = w.operation == Operation::Apply;
    let errors = field_manager_errors(w.manager, apply, w.version());
    if !errors.is_empty() {
        let options = if apply {
            "PatchOptions"
        } else {
            "UpdateOptions"
        };
        return Err(StatusError::invalid(
            "meta.k8s.io",
            options,
            "",
            &errors,
            w.version(),
        ));
    }
    match subresource_served(w) {
        Served::Yes => Ok(()),
        Served::No => Err(StatusError::plain(
            Reason::NotFound,
            "the server could not find the requested resource",
        )),
        Served::OtherVerbs => Err(StatusError::plain(
            Reason::MethodNotAllowed,
            "the server does not allow this method on the requested resource",
        )),
    }
}

/// The store's preconditions, on the object the write would store (its name and namespace)
/// and the body the client sent (its resourceVersion and uid).
pub fn check(w: &Write, object: &Value) -> Result<(), StatusError> {
    let Some(plural) = w.kind.info.as_ref().and_then(|i| i.plural.as_deref()) else {
        return Ok(());
    };
    let meta = |key: &str| {
        object
            .get_path(&["metadata", key])
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let custom = crate::defaults::classify(w.kind) == KindClass::Custom;
    let resource = Resource {
        group: &w.kind.gvk.group,
        plural,
        namespace: meta("namespace"),
        name: meta("name"),
        custom,
        unconditional_update: super::update_policy::allows_unconditional_update(
            &w.kind.gvk.group,
            plural,
            &w.kind.gvk.version,
            custom,
            w.version(),
        ),
    };
    let write = match (w.operation, w.live) {
        (Operation::Apply, _) => WriteKind::Apply,
        (Operation::Update, Some(_)) if w.patch.is_some() => WriteKind::Patch,
        (Operation::Update, Some(_)) => WriteKind::Put,
        // Only a POST creates without apply.
        (Operation::Update, None) => WriteKind::Create,
    };
    match preconditions(write, &resource, w.body, w.live) {
        None => Ok(()),
        Some(Refusal::Conflict(m)) => Err(StatusError::plain(Reason::Conflict, m)),
        Some(Refusal::Internal(m)) => Err(StatusError::plain(Reason::Unknown, m)),
        // The store reports it against the resource, not the kind (`qualifiedKind`).
        Some(Refusal::ResourceVersionRequired) => Err(StatusError::invalid(
            resource.group,
            plural,
            resource.name,
            &[FieldError::invalid(
                "metadata.resourceVersion",
                // A uint64: `%#v` is hexadecimal before 1.34, JSON since.
                BadValue::GoValue {
                    value: Value::Int(0),
                    go_syntax: "0x0".into(),
                },
                "must be specified for an update",
            )],
            w.version(),
        )),
    }
}

/// `ValidatePatchOptions` / `ValidateUpdateOptions` of the field manager.
fn field_manager_errors(manager: &str, apply: bool, version: KubeVersion) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if apply && manager.is_empty() {
        errors.push(FieldError::required(
            "fieldManager",
            "is required for apply patch",
        ));
    }
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        errors.push(FieldError::too_long(
            "fieldManager",
            FIELD_MANAGER_MAX_LENGTH,
            version,
        ));
    }
    for detail in field_manager_bad_characters(manager) {
        errors.push(FieldError::invalid(
            "fieldManager",
            FieldError::string_value(manager),
            detail,
        ));
    }
    errors
}

/// Whether the kind serves the write's subresource for PATCH and PUT.
enum Served {
    Yes,
    /// The router knows no such path (404).
    No,
    /// The subresource exists for other verbs only (405: `binding`, `log`, `token`, …).
    OtherVerbs,
}

/// Built-in subresources beyond `status`: which resources serve them for PATCH and PUT
/// (k8s.io/kubernetes pkg/registry: deployments, replicasets, statefulsets and
/// replicationcontrollers `scale`; pods `ephemeralcontainers` and, from 1.33, `resize`;
/// certificatesigningrequests `approval`; namespaces `finalize`).
const WRITABLE: &[(&str, &str, &str, u8)] = &[
    ("apps", "deployments", "scale", 30),
    ("apps", "replicasets", "scale", 30),
    ("apps", "statefulsets", "scale", 30),
    ("", "replicationcontrollers", "scale", 30),
    ("", "pods", "ephemeralcontainers", 30),
    ("", "pods", "resize", 33),
    (
        "certificates.k8s.io",
        "certificatesigningrequests",
        "approval",
        30,
    ),
    ("", "namespaces", "finalize", 30),
];

/// Subresources served for other verbs only (creating a binding or an eviction, reading logs,
/// connecting, requesting a token).
const OTHER_VERBS: &[(&str, &str, &str)] = &[
    ("", "pods", "binding"),
    ("", "pods", "eviction"),
    ("", "pods", "log"),
    ("", "pods", "exec"),
    ("", "pods", "attach"),
    ("", "pods", "portforward"),
    ("", "pods", "proxy"),
    ("", "services", "proxy"),
    ("", "nodes", "proxy"),
    ("", "serviceaccounts", "token"),
];

fn subresource_served(w: &Write) -> Served {
    let sub = w.subresource;
    let Some(info) = w.kind.info.as_ref() else {
        return Served::Yes;
    };
    let (Some(plural), false) = (info.plural.as_deref(), sub.is_empty() || w.kind.deduced) else {
        return Served::Yes;
    };
    let group = w.kind.gvk.group.as_str();
    if sub == "status" {
        return if info.has_status_subresource {
            Served::Yes
        } else {
            Served::No
        };
    }
    if crate::defaults::classify(w.kind) == KindClass::Custom {
        // A custom resource's scale subresource is not recorded; only it can exist.
        return if sub == "scale" {
            Served::Yes
        } else {
            Served::No
        };
    }
    let minor = w.version().minor();
    if WRITABLE
        .iter()
        .any(|(g, r, s, since)| *g == group && *r == plural && *s == sub && minor >= *since)
    {
        return Served::Yes;
    }
    if OTHER_VERBS
        .iter()
        .any(|(g, r, s)| *g == group && *r == plural && *s == sub)
    {
        return Served::OtherVerbs;
    }
    Served::No
}

/// The resource a write addresses.
#[derive(Debug, Clone, Copy)]
pub struct Resource<'a> {
    pub group: &'a str,
    pub plural: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
    /// A custom resource (stored under its group).
    pub custom: bool,
    /// The strategy's `AllowUnconditionalUpdate`: a PUT may leave out the resourceVersion
    /// ([`super::update_policy`]).
    pub unconditional_update: bool,
}

impl Resource<'_> {
    /// `schema.GroupResource.String()`: `deployments.apps`, `configmaps`.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural.to_string()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    /// `errors.NewConflict`'s message.
    pub fn conflict(&self, cause: &str) -> String {
        format!(
            "Operation cannot be fulfilled on {} {}: {cause}",
            self.qualified(),
            super::goprint::go_quote(self.name)
        )
    }

    /// The object's etcd key under kube-apiserver's default `--etcd-prefix=/registry`:
    /// the resource's storage prefix (kubeapiserver `SpecialDefaultResourcePrefixes`, the
    /// group for apiextensions, apiregistration and custom resources), then namespace and name.
    pub fn storage_key(&self) -> String {
        const SPECIAL: &[(&str, &str, &str)] = &[
            ("", "replicationcontrollers", "controllers"),
            ("", "endpoints", "services/endpoints"),
            ("", "nodes", "minions"),
            ("", "services", "services/specs"),
            ("extensions", "ingresses", "ingress"),
            ("networking.k8s.io", "ingresses", "ingress"),
            ("extensions", "podsecuritypolicies", "podsecuritypolicy"),
            ("policy", "podsecuritypolicies", "podsecuritypolicy"),
        ];
        const GROUP_PREFIXED: &[&str] = &["apiextensions.k8s.io", "apiregistration.k8s.io"];
        let prefix = match SPECIAL
            .iter()
            .find(|(g, r, _)| *g == self.group && *r == self.plural)
        {
            Some((_, _, p)) => p.to_string(),
            None if self.custom || GROUP_PREFIXED.contains(&self.group) => {
                format!("{}/{}", self.group, self.plural)
            }
            None => self.plural.to_string(),
        };
        if self.namespace.is_empty() {
            format!("/registry/{prefix}/{}", self.name)
        } else {
            format!("/registry/{prefix}/{}/{}", self.namespace, self.name)
        }
    }
}

/// What a failed precondition answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 409 `Conflict` with this message.
    Conflict(String),
    /// 500 without a reason (an error the server does not classify).
    Internal(String),
    /// 422 `metadata.resourceVersion: Invalid value: 0: must be specified for an update`: a PUT
    /// without a resourceVersion of a kind whose strategy allows no unconditional update.
    ResourceVersionRequired,
}

/// `apiserver/pkg/registry/generic/registry` `OptimisticLockErrorMsg`.
pub const OPTIMISTIC_LOCK: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

/// The kind of write, for the preconditions that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// Server-side apply (a PATCH of type apply).
    Apply,
    /// A PUT with the full object: its uid is a storage precondition.
    Put,
    /// A JSON, merge or strategic merge patch.
    Patch,
    /// A POST.
    Create,
}

/// `storage.ErrResourceVersionSetOnCreate`, which the store's `Create` returns as it is (a
/// 500 without a reason).
pub const RESOURCE_VERSION_SET_ON_CREATE: &str =
    "resourceVersion should not be set on objects to be created";

/// The resourceVersion and uid preconditions of `body` (what the client sent: the applied
/// configuration, the PUT body, or the patched object) against `live` (`None`: the write
/// creates the object).
pub fn preconditions(
    write: WriteKind,
    resource: &Resource,
    body: &Value,
    live: Option<&Value>,
) -> Option<Refusal> {
    let meta = |v: &Value, key: &str| -> Option<String> {
        v.get_path(&["metadata", key])
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let body_uid = meta(body, "uid");
    let Some(live) = live else {
        return match write {
            // An apply's uid names an object that is not there.
            WriteKind::Apply => body_uid.map(|uid| Refusal::Conflict(resource.conflict(&format!(
                "uid mismatch: the provided object specified uid {uid}, and no existing object was found"
            )))),
            // A POST's uid is replaced; a resourceVersion that parses to a version is refused
            // by storage (etcd3 store `Create`), one that does not is ignored.
            WriteKind::Create => meta(body, "resourceVersion")
                .and_then(|rv| parse_uint(&rv).ok())
                .filter(|&rv| rv != 0)
                .map(|_| Refusal::Internal(RESOURCE_VERSION_SET_ON_CREATE.into())),
            WriteKind::Put | WriteKind::Patch => None,
        };
    };
    let live_uid = meta(live, "uid");
    // A PUT's uid is checked by storage before the update function runs.
    if let (WriteKind::Put, Some(want), Some(have)) = (write, &body_uid, &live_uid) {
        if want != have {
            return Some(Refusal::Conflict(resource.conflict(&format!(
                "StorageError: invalid object, Code: 4, Key: {}, ResourceVersion: 0, \
                 AdditionalErrorMsg: Precondition failed: UID in precondition: {want}, UID in object meta: {have}",
                resource.storage_key()
            ))));
        }
    }
    // A strategy that allows no unconditional update (custom resources, CRDs, leases, …;
    // super::update_policy) makes the store refuse a PUT whose resourceVersion is missing or
    // 0 (registry store.go `Update`) before comparing versions.
    let body_rv = meta(body, "resourceVersion");
    if write == WriteKind::Put
        && !resource.unconditional_update
        && body_rv.as_deref().is_none_or(|rv| parse_uint(rv) == Ok(0))
    {
        return Some(Refusal::ResourceVersionRequired);
    }
    let body_rv = body_rv?;
    let wanted = match parse_uint(&body_rv) {
        Ok(n) => n,
        Err(e) => return Some(Refusal::Internal(e)),
    };
    // A snapshot without a resourceVersion cannot say which version it is.
    let stored = meta(live, "resourceVersion").and_then(|rv| parse_uint(&rv).ok())?;
    (wanted != stored).then(|| Refusal::Conflict(resource.conflict(OPTIMISTIC_LOCK)))
}

/// `strconv.ParseUint(s, 10, 64)` with its error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    let quoted = super::goprint::go_quote(s);
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.ParseUint: parsing {quoted}: invalid syntax"
        ));
    }
    s.parse::<u64>()
        .map_err(|_| format!("strconv.ParseUint: parsing {quoted}: value out of range"))
}

/// `ValidateFieldManager`'s printable-character rule: the first rune `unicode.IsPrint`
/// refuses, with its byte position, as `invalid character U+0009 (at position 3)`.
pub fn field_manager_bad_characters(manager: &str) -> Vec<String> {
    manager
        .char_indices()
        .filter(|(_, c)| c.is_control() || (*c != ' ' && c.is_whitespace()))
        .map(|(i, c)| format!("invalid character U+{:04X} (at position {i})", c as u32))
        .collect()
}

/// `FieldManagerMaxLength`.
pub const FIELD_MANAGER_MAX_LENGTH: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    fn deploy() -> Resource<'static> {
        Resource {
            group: "apps",
            plural: "deployments",
            namespace: "default",
            name: "web",
            custom: false,
            unconditional_update: true,
        }
    }

    fn v(json: &str) -> Value {
        from_json_str(json).unwrap()
    }

    #[test]
    fn keys_and_names_follow_the_apiserver() {
        assert_eq!(deploy().qualified(), "deployments.apps");
        assert_eq!(deploy().storage_key(), "/registry/deployments/default/web");
        let svc = Resource {
            group: "",
            plural: "services",
            ..deploy()
        };
        assert_eq!(svc.storage_key(), "/registry/services/specs/default/web");
        assert_eq!(svc.qualified(), "services");
        let cr = Resource {
            group: "example.com",
            plural: "widgets",
            namespace: "",
            custom: true,
            unconditional_update: false,
            ..deploy()
        };
        assert_eq!(cr.storage_key(), "/registry/example.com/widgets/web");
    }

    #[test]
    fn stale_resource_version_is_the_optimistic_lock_conflict() {
        let live = v(r#"{"metadata":{"resourceVersion":"200","uid":"a"}}"#);
        let body = v(r#"{"metadata":{"resourceVersion":"100"}}"#);
        assert_eq!(
            preconditions(WriteKind::Apply, &deploy(), &body, Some(&live)),
            Some(Refusal::Conflict(
                "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again".into()
            ))
        );
        let same = v(r#"{"metadata":{"resourceVersion":"200"}}"#);
        assert_eq!(
            preconditions(WriteKind::Apply, &deploy(), &same, Some(&live)),
            None
        );
        let bad = v(r#"{"metadata":{"resourceVersion":"abc"}}"#);
        assert_eq!(
            preconditions(WriteKind::Put, &deploy(), &bad, Some(&live)),
            Some(Refusal::Internal(
                "strconv.ParseUint: parsing \"abc\": invalid syntax".into()
            ))
        );
    }

    #[test]
    fn uid_preconditions_differ_by_write() {
        let live = v(r#"{"metadata":{"resourceVersion":"200","uid":"a"}}"#);
        let body = v(r#"{"metadata":{"uid":"b"}}"#);
        let Some(Refusal::Conflict(m)) =
            preconditions(WriteKind::Put, &deploy(), &body, Some(&live))
        else {
            panic!()
        };
        assert_eq!(
            m,
            "Operation cannot be fulfilled on deployments.apps \"web\": StorageError: invalid object, Code: 4, Key: /registry/deployments/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: b, UID in object meta: a"
        );
        // An apply onto the object changes an immutable field instead (validation's 422).
        assert_eq!(
            preconditions(WriteKind::Apply, &deploy(), &body, Some(&live)),
            None
        );
        let Some(Refusal::Conflict(m)) = preconditions(WriteKind::Apply, &deploy(), &body, None)
        else {
            panic!()
        };
        assert!(m.ends_with(
            "uid mismatch: the provided object specified uid b, and no existing object was found"
        ));
        // A resourceVersion on a create by apply is ignored; a POST refuses it.
        let rv = v(r#"{"metadata":{"resourceVersion":"1"}}"#);
        assert_eq!(preconditions(WriteKind::Apply, &deploy(), &rv, None), None);
        assert_eq!(
            preconditions(WriteKind::Create, &deploy(), &rv, None),
            Some(Refusal::Internal(RESOURCE_VERSION_SET_ON_CREATE.into()))
        );
        let odd = v(r#"{"metadata":{"resourceVersion":"-1"}}"#);
        assert_eq!(
            preconditions(WriteKind::Create, &deploy(), &odd, None),
            None
        );
    }

    #[test]
    fn field_manager_characters() {
        assert!(field_manager_bad_characters("kubectl").is_empty());
        assert_eq!(
            field_manager_bad_characters("a\tb"),
            ["invalid character U+0009 (at position 1)"]
        );
    }
}
