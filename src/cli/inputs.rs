//! Arguments shared by the subcommands that read manifests and live snapshots (`-f`, `-R`,
//! `--live`, `--schema`, `-n`, the apply flags), and their second stage: loading every input,
//! resolving schemas, and pairing each manifest with its live object.

use anyhow::Context as _;
use kssa::io::{
    check_manifest, expand_paths, objects_of, read_source, InputError, Object, ObjectKey, Source,
};
use kssa::kube::{served, GroupVersionKind, KindVersions, ResolvedKind, SchemaRegistry};
use kssa::schema::builtin::builtin;
use kssa::typed::Typed;
use kssa::value::Value;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Where manifests, live objects and schemas come from.
#[derive(Debug, Clone, clap::Args)]
pub struct InputArgs {
    /// Manifest file or directory to read; `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "PATH", required = true)]
    pub filenames: Vec<PathBuf>,
    /// Read directories given with -f and --live recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a
    /// directory. Repeatable.
    #[arg(long, value_name = "PATH")]
    pub live: Vec<PathBuf>,
    /// CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable.
    #[arg(long, value_name = "FILE|DIR")]
    pub schema: Vec<PathBuf>,
    /// Namespace for namespaced objects that name none (default: `default`). Given
    /// explicitly, a namespaced manifest naming another namespace is refused, as kubectl does.
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Refuse kinds no schema describes instead of using the deduced schema.
    #[arg(long)]
    pub strict_schemas: bool,
}

impl InputArgs {
    /// The namespace given with `-n`, else `default`.
    pub fn namespace(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }
}

/// The server-side apply request options, as kubectl spells them.
#[derive(Debug, Clone, clap::Args)]
pub struct ApplyArgs {
    /// Name of the field manager the apply is recorded under.
    #[arg(long, default_value = "kubectl", value_name = "NAME")]
    pub field_manager: String,
    /// Take conflicting fields over from their other managers.
    #[arg(long)]
    pub force_conflicts: bool,
    /// Apply to this subresource (e.g. `status`, `scale`) instead of the main resource.
    #[arg(long, value_name = "NAME")]
    pub subresource: Option<String>,
    /// Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
}

/// How the merged object becomes what the cluster stores; shared by every writing command.
#[derive(Debug, Clone, clap::Args)]
pub struct StoreArgs {
    /// Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see
    /// docs/unions.md).
    #[arg(long)]
    pub normalize_unions: bool,
    /// Show the raw merge: no typed round trip, no built-in or CRD defaults.
    #[arg(long)]
    pub no_defaults: bool,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Resolves `--color` once: `auto` colours only a terminal, and only without `NO_COLOR`.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// Formats seconds since the epoch as RFC 3339 UTC, second precision (as metav1.Time).
pub fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn valid_rfc3339(t: &str) -> bool {
    let b = t.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    let shape = b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !shape {
        return false;
    }
    let mut rest = &t[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    matches!(rest, "Z" | "z")
        || (rest.len() == 6
            && matches!(rest.as_bytes()[0], b'+' | b'-')
            && rest.as_bytes()[3] == b':'
            && rest[1..3]
                .bytes()
                .chain(rest[4..].bytes())
                .all(|c| c.is_ascii_digit()))
}

/// The time to record: `--now`, else `SOURCE_DATE_EPOCH`, else the clock.
pub fn resolve_now(now: Option<&str>) -> anyhow::Result<String> {
    if let Some(t) = now {
        anyhow::ensure!(
            valid_rfc3339(t),
            "--now {t:?}: not an RFC 3339 time (e.g. 2024-01-02T15:04:05Z)"
        );
        return Ok(t.to_string());
    }
    if let Ok(epoch) = std::env::var("SOURCE_DATE_EPOCH") {
        let secs: i64 = epoch
            .trim()
            .parse()
            .with_context(|| format!("SOURCE_DATE_EPOCH={epoch:?} is not a number of seconds"))?;
        return Ok(rfc3339(secs));
    }
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    Ok(rfc3339(secs))
}

/// Whether objects of a kind live in a namespace. Kinds without a schema keep the scope the
/// built-in or loaded schemas give them at another version; unknown kinds are namespaced.
fn namespaced(registry: &SchemaRegistry, r: &ResolvedKind) -> bool {
    if let Some(info) = &r.info {
        return info.namespaced;
    }
    let g = &r.gvk;
    builtin().versions(&g.group, &g.kind).first().map_or_else(
        || registry_scope(registry, g).unwrap_or(true),
        |k| k.namespaced,
    )
}

fn registry_scope(registry: &SchemaRegistry, g: &GroupVersionKind) -> Option<bool> {
    // Another served version of a CRD the user gave.
    ["v1", "v1beta1", "v1alpha1", "v2", "v1beta2", "v2beta1"]
        .iter()
        .filter_map(|v| registry.resolve(&format!("{}/{v}", g.group), &g.kind).ok())
        .find_map(|r| r.info.map(|i| i.namespaced))
}

/// A manifest, its schema, and the live object it applies to.
pub struct Pair {
    pub manifest: Object,
    pub resolved: ResolvedKind,
    /// Index into [`Loaded::live`].
    pub live: Option<usize>,
}

/// A live snapshot file as read, for writing back.
pub struct LiveFile {
    pub path: PathBuf,
    pub text: String,
}

/// A live object, decoded as the API server reads it, and the file it came from.
pub struct LiveObject {
    pub object: Object,
    /// Index into [`Loaded::live_files`]; `None` for stdin.
    pub file: Option<usize>,
    /// Fields of the snapshot that the server's decoding drops.
    pub dropped: Vec<String>,
}

/// Everything read, checked and paired.
pub struct Loaded {
    pub pairs: Vec<Pair>,
    pub live: Vec<LiveObject>,
    pub live_files: Vec<LiveFile>,
    /// One line each: kinds that fell back to the deduced schema.
    pub notices: Vec<String>,
}

/// Every input error at once, as one error whose lines each start with `error: `.
fn input_errors(errors: Vec<InputError>) -> anyhow::Error {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    anyhow::anyhow!("{}", lines.join("\nerror: "))
}

fn read_all(
    paths: &[PathBuf],
    recursive: bool,
    errors: &mut Vec<InputError>,
    stdin_used: &mut bool,
) -> Vec<(Source, Vec<Object>, String)> {
    let (sources, errs) = expand_paths(paths, recursive);
    errors.extend(errs);
    let mut out = Vec::new();
    for source in sources {
        if source == Source::Stdin {
            if *stdin_used {
                errors.push(InputError::Other(
                    "stdin (`-`) can only be read once".into(),
                ));
                continue;
            }
            *stdin_used = true;
        }
        match read_source(&source, &mut std::io::stdin().lock()) {
            Ok(text) => {
                let (objs, errs) = objects_of(&text);
                errors.extend(errs);
                let raw = String::from_utf8_lossy(&text.bytes).into_owned();
                out.push((source, objs, raw));
            }
            Err(e) => errors.push(e),
        }
    }
    out
}

impl Loaded {
    pub fn load(args: &InputArgs) -> anyhow::Result<Loaded> {
        Loaded::load_with(args, true, true)
    }

    /// `validate` false skips checking manifests against their schema, as kubectl's
    /// client-side apply does not check them (the server does, after patching). With `decode`,
    /// live objects are decoded as the API server reads them ([`kssa::defaults::decode_stored`];
    /// off for `--no-defaults`, the raw view).
    pub fn load_with(args: &InputArgs, validate: bool, decode: bool) -> anyhow::Result<Loaded> {
        let mut errors = Vec::new();
        let mut stdin_used = false;
        let mut registry = SchemaRegistry::new();

        for (_, objs, _) in read_all(&args.schema, true, &mut errors, &mut stdin_used) {
            for o in objs {
                match registry.add_document(&o.value) {
                    Ok(_) => {}
                    Err(e) => errors.push(InputError::invalid(&o.origin, "", e)),
                }
            }
        }
        let manifests: Vec<Object> = read_all(
            &args.filenames,
            args.recursive,
            &mut errors,
            &mut stdin_used,
        )
        .into_iter()
        .flat_map(|(_, objs, _)| objs)
        .collect();
        for m in &manifests {
            if m.kind() == "CustomResourceDefinition" && m.group() == "apiextensions.k8s.io" {
                match registry.add_document(&m.value) {
                    Ok(_) => {}
                    Err(e) => errors.push(InputError::invalid(&m.origin, "", e)),
                }
            }
        }

        let mut live = Vec::new();
        let mut live_files = Vec::new();
        for (source, objs, text) in
            read_all(&args.live, args.recursive, &mut errors, &mut stdin_used)
        {
            let file = match source {
                Source::File(path) => {
                    live_files.push(LiveFile { path, text });
                    Some(live_files.len() - 1)
                }
                Source::Stdin => None,
            };
            for object in objs {
                if let Err(e) = kssa::managed::decode_managed_fields(&object.value) {
                    errors.push(InputError::invalid(
                        &object.origin,
                        ".metadata.managedFields",
                        e,
                    ));
                    continue;
                }
                live.push(LiveObject {
                    object,
                    file,
                    dropped: Vec::new(),
                });
            }
        }

        let mut notices = Vec::new();
        let mut index: HashMap<ObjectKey, usize> = HashMap::new();
        for (i, l) in live.iter_mut().enumerate() {
            let o = &mut l.object;
            let mut key = o.key();
            match registry.resolve(o.api_version(), o.kind()) {
                Ok(r) => {
                    let namespaced = namespaced(&registry, &r);
                    default_namespace(o, namespaced, args.namespace());
                    key = object_key(o, namespaced);
                    if decode {
                        l.dropped = kssa::defaults::decode_stored(&mut o.value, &r).dropped;
                    }
                }
                Err(e) => errors.push(InputError::invalid(&o.origin, "", e)),
            }
            if let Some(prev) = index.insert(key, i) {
                let _ = prev;
                errors.push(InputError::invalid(
                    &o.origin,
                    "",
                    "a live object with the same group, kind, namespace and name was given before",
                ));
            }
        }
        let mut pairs = Vec::new();
        let mut seen: HashMap<ObjectKey, String> = HashMap::new();
        for mut manifest in manifests {
            if let Err(e) = check_manifest(&manifest) {
                errors.push(e);
                continue;
            }
            let resolved = match registry.resolve(manifest.api_version(), manifest.kind()) {
                Ok(r) => r,
                Err(e) => {
                    errors.push(InputError::invalid(&manifest.origin, "", e));
                    continue;
                }
            };
            if let Err(e) = check_kind_served(&manifest, &resolved, args.strict_schemas) {
                errors.push(InputError::invalid(&manifest.origin, "", e));
                continue;
            }
            if let Some(notice) = resolved.deduced_notice() {
                let notice = format!("notice: {notice}");
                if !notices.contains(&notice) {
                    notices.push(notice);
                }
            }
            let is_namespaced = namespaced(&registry, &resolved);
            if let Err(e) = check_namespace(&manifest, is_namespaced, args.namespace.as_deref()) {
                errors.push(InputError::invalid(&manifest.origin, "", e));
                continue;
            }
            default_namespace(&mut manifest, is_namespaced, args.namespace());
            if let Err(errs) = Typed::new(&resolved.schema, &resolved.type_ref)
                .validate(&manifest.value, false)
                .or_else(|e| if validate { Err(e) } else { Ok(()) })
            {
                for e in errs.0 {
                    errors.push(InputError::invalid(&manifest.origin, &e.path, &e.message));
                }
                continue;
            }
            let key = object_key(&manifest, is_namespaced);
            if let Some(first) = seen.insert(key.clone(), manifest.origin.to_string()) {
                errors.push(InputError::invalid(
                    &manifest.origin,
                    "",
                    format!("the same object is also given at {first}"),
                ));
                continue;
            }
            let live_index = index.get(&key).copied();
            pairs.push(Pair {
                manifest,
                resolved,
                live: live_index,
            });
        }
        if !errors.is_empty() {
            return Err(input_errors(errors));
        }
        anyhow::ensure!(!pairs.is_empty(), "no objects passed to apply");
        Ok(Loaded {
            pairs,
            live,
            live_files,
            notices,
        })
    }
}

/// The object's identity; a cluster-scoped object's stray `metadata.namespace` is no part of
/// it (the API server clears it, [`kssa::kube::storage::clear_namespace`]).
fn object_key(o: &Object, namespaced: bool) -> ObjectKey {
    let mut key = o.key();
    if !namespaced {
        key.namespace.clear();
    }
    key
}

/// kubectl's check of a namespaced object against an explicit `-n` (cli-runtime
/// pkg/resource/visitor.go `RequireNamespace`, with its exact message).
fn check_namespace(o: &Object, namespaced: bool, explicit: Option<&str>) -> Result<(), String> {
    match explicit {
        Some(ns) if namespaced && !o.namespace().is_empty() && o.namespace() != ns => Err(format!(
            "the namespace from the provided object {:?} does not match the namespace {ns:?}. \
             You must pass '--namespace={}' to perform this operation.",
            o.namespace(),
            o.namespace()
        )),
        _ => Ok(()),
    }
}

/// kubectl's RESTMapper refuses kinds and versions a built-in group does not serve; with
/// `--strict-schemas` a kind no schema describes is refused too. Kinds the user described
/// (CRDs, schema files) are always served.
fn check_kind_served(o: &Object, r: &ResolvedKind, strict: bool) -> Result<(), String> {
    served::check_api_version(o.api_version()).map_err(|e| e.to_string())?;
    if r.deduced || r.versions == KindVersions::Builtin {
        served::check_served(&r.gvk, served::DEFAULT_RELEASE).map_err(|e| {
            format!(
                "{e} (ensure CRDs are installed first, or pass the kind's schema with --schema)"
            )
        })?;
    }
    if strict && r.deduced {
        return Err(format!(
            "no schema for {} and --strict-schemas is set: pass its CRD or OpenAPI document \
             with --schema",
            r.gvk
        ));
    }
    Ok(())
}

/// Fills in the namespace of a namespaced object that names none.
fn default_namespace(o: &mut Object, namespaced: bool, namespace: &str) {
    if !namespaced || !o.namespace().is_empty() {
        return;
    }
    if let Some(Value::Map(meta)) = o.value.as_map_mut().and_then(|m| m.get_mut("metadata")) {
        meta.insert("namespace".into(), Value::from(namespace));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_seconds_format_as_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn now_must_be_rfc3339() {
        assert!(valid_rfc3339("2024-01-02T15:04:05Z"));
        assert!(valid_rfc3339("2024-01-02T15:04:05.123+02:00"));
        assert!(!valid_rfc3339("2024-01-02 15:04:05"));
        assert!(!valid_rfc3339("yesterday"));
    }
}
