//! Arguments shared by the subcommands that read manifests and live snapshots (`-f`, `-R`,
//! `--live`, `--schema`, `-n`, the apply flags), and their second stage: loading every input,
//! resolving schemas, and pairing each manifest with its live object.

use super::deferred::Deferred;
use anyhow::Context as _;
use kssa::io::{
    check_manifest, expand_paths, managed_fields_error, objects_of, read_source, skipped_file,
    validation_error, InputError, Object, ObjectKey, Origin, ReadOptions, Source, SourceText,
    Stdin,
};
use kssa::kube::{served, GroupVersionKind, KindVersions, ResolvedKind, SchemaRegistry};
use kssa::schema::builtin::builtin;
use kssa::typed::Typed;
use kssa::value::Value;
use rustc_hash::FxHashMap;
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
    #[command(flatten)]
    pub kube: super::version::KubeVersionArgs,
    /// Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a
    /// notice, instead of failing on them (kustomization and Helm chart files are always skipped).
    #[arg(long)]
    pub skip_non_objects: bool,
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
    #[command(flatten)]
    pub validate: ValidateArgs,
    /// Whether the command reads the results' managedFields (not a flag): a diff that hides
    /// them lets the server layer skip their encoding.
    #[arg(skip = true)]
    pub managed_fields: bool,
}

/// kubectl's `--validate`: the server's checks always run (objects it refuses are reported as
/// invalid); the mode says what unknown and duplicate fields are.
#[derive(Debug, Clone, clap::Args)]
pub struct ValidateArgs {
    /// Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a
    /// `Warning:` per field, `ignore` (or `false`) drops them.
    #[arg(long = "validate", value_name = "MODE", default_value = "strict", num_args = 0..=1, default_missing_value = "strict")]
    pub mode: kssa::validate::FieldValidation,
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
    /// Empty when the manifests were too large to keep: then [`Loaded::each_pair`] reads them
    /// again, one document at a time.
    pub pairs: Vec<Pair>,
    pub live: Vec<LiveObject>,
    pub live_files: Vec<LiveFile>,
    /// One line each: kinds that fell back to the deduced schema.
    pub notices: Vec<String>,
    /// How many pairs there are, kept or not.
    pub count: usize,
    deferred: Option<Deferred>,
}

/// How manifests and live objects are read.
pub(super) fn object_options(args: &InputArgs) -> ReadOptions {
    ReadOptions {
        recursive: args.recursive,
        skip_non_objects: args.skip_non_objects,
        ..ReadOptions::default()
    }
}

/// Manifests above this many bytes are checked first and read again object by object while
/// merging, so memory stays bounded by the largest object rather than by the input.
pub(super) const KEEP_LIMIT: usize = 8 << 20;

/// Every input error at once, shown as lines that each start with `error: `; kept typed so
/// CI reports (`-o sarif`, `-o junit`) can locate each one.
#[derive(Debug)]
pub struct InputErrors(pub Vec<InputError>);

impl std::fmt::Display for InputErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&lines.join("\nerror: "))
    }
}

impl std::error::Error for InputErrors {}

pub(super) fn input_errors(errors: Vec<InputError>) -> anyhow::Error {
    anyhow::Error::new(InputErrors(errors))
}

/// Reads the sources of `paths` in order, each as its text or the error that replaces it;
/// path expansion errors go to `errors`, skipped files' notices to `notices`.
fn read_texts(
    paths: &[PathBuf],
    options: ReadOptions,
    errors: &mut Vec<InputError>,
    notices: &mut Vec<String>,
    stdin: &mut Stdin,
) -> Vec<Result<SourceText, InputError>> {
    let (sources, errs) = expand_paths(paths, options.recursive);
    errors.extend(errs);
    let mut out = Vec::new();
    for source in sources {
        if let Some(why) = skipped_file(&source) {
            notices.push(format!("notice: {source}: skipped: {why}"));
            continue;
        }
        if source == Source::Stdin {
            if let Err(e) = stdin.take() {
                out.push(Err(e));
                continue;
            }
        }
        out.push(read_source(&source, &mut std::io::stdin().lock()));
    }
    out
}

/// Reads some paths through `io`, collecting errors and skip notices.
fn read_all(
    paths: &[PathBuf],
    options: ReadOptions,
    errors: &mut Vec<InputError>,
    notices: &mut Vec<String>,
    stdin: &mut Stdin,
) -> Vec<(Source, Vec<Object>, String)> {
    let mut out = Vec::new();
    for text in read_texts(paths, options, errors, notices, stdin) {
        match text {
            Ok(text) => {
                let (objs, errs) = objects_of(&text, options, notices);
                errors.extend(errs);
                let raw = String::from_utf8_lossy(&text.bytes).into_owned();
                out.push(((*text.source).clone(), objs, raw));
            }
            Err(e) => errors.push(e),
        }
    }
    out
}

pub(super) fn is_crd(o: &Object) -> bool {
    o.kind() == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io"
}

/// The per-manifest checks of [`Loaded::load`]; `checked` skips what a first pass already did.
pub(super) struct PairMaker<'r> {
    pub registry: &'r SchemaRegistry,
    pub live_index: &'r FxHashMap<ObjectKey, usize>,
    pub args: &'r InputArgs,
    pub validate: bool,
}

impl PairMaker<'_> {
    /// Checks a manifest, resolves its schema, fills in its namespace and finds its live
    /// object; a deduced schema's notice goes to `notices` unless `checked`. Returns the pair
    /// and the object's identity.
    pub fn pair(
        &self,
        mut manifest: Object,
        checked: bool,
        notices: &mut Vec<String>,
    ) -> Result<(Pair, ObjectKey), Vec<InputError>> {
        let invalid = |m: &Object, e: String| vec![InputError::invalid(&m.origin, "", e)];
        if !checked {
            check_manifest(&manifest).map_err(|e| vec![e])?;
            self.registry
                .check_in_version(manifest.api_version(), manifest.kind())
                .map_err(|e| invalid(&manifest, e.to_string()))?;
        }
        let resolved = self
            .registry
            .resolve(manifest.api_version(), manifest.kind())
            .map_err(|e| invalid(&manifest, e.to_string()))?;
        let is_namespaced = namespaced(self.registry, &resolved);
        if !checked {
            check_kind_served(&manifest, &resolved, self.args.strict_schemas)
                .map_err(|e| invalid(&manifest, e))?;
            if let Some(notice) = resolved.deduced_notice() {
                let notice = format!("notice: {notice}");
                if !notices.contains(&notice) {
                    notices.push(notice);
                }
            }
            check_namespace(&manifest, is_namespaced, self.args.namespace.as_deref())
                .map_err(|e| invalid(&manifest, e))?;
        }
        default_namespace(&mut manifest, is_namespaced, self.args.namespace());
        if !checked && self.validate {
            if let Err(errs) =
                Typed::new(&resolved.schema, &resolved.type_ref).validate(&manifest.value, false)
            {
                // Which fields exist depends on the Kubernetes version: say which one.
                return Err(errs
                    .0
                    .iter()
                    .map(|e| {
                        let error = validation_error(&manifest.origin, e);
                        match e.message == kssa::typed::FIELD_NOT_DECLARED {
                            true => error.with_note(&resolved.version_note()),
                            false => error,
                        }
                    })
                    .collect());
            }
        }
        let key = object_key(&manifest, is_namespaced);
        let live = self.live_index.get(&key).copied();
        let pair = Pair {
            manifest,
            resolved,
            live,
        };
        Ok((pair, key))
    }
}

impl Loaded {
    pub fn load(args: &InputArgs) -> anyhow::Result<Loaded> {
        Loaded::load_with(args, true, true)
    }

    /// `validate` false skips checking manifests against their schema here: kubectl's
    /// client-side apply does not check them (the server does, after patching), and a
    /// server-side apply leaves it to the write, which refuses as the server's field manager
    /// does (`failed to create typed patch object`, an object refused, not unreadable input).
    /// With `decode`,
    /// live objects are decoded as the API server reads them ([`kssa::defaults::decode_stored`];
    /// off for `--no-defaults`, the raw view).
    pub fn load_with(args: &InputArgs, validate: bool, decode: bool) -> anyhow::Result<Loaded> {
        Self::read(args, validate, decode, None)
    }

    /// [`Loaded::load_with`] for a caller that takes its pairs through [`Loaded::each_pair`],
    /// so that large manifests need not be kept.
    pub fn load_streaming(
        args: &InputArgs,
        validate: bool,
        decode: bool,
    ) -> anyhow::Result<Loaded> {
        Self::read(args, validate, decode, Some(KEEP_LIMIT))
    }

    /// Reads everything; manifests larger than `defer_above` bytes are not kept (see
    /// [`KEEP_LIMIT`]).
    fn read(
        args: &InputArgs,
        validate: bool,
        decode: bool,
        defer_above: Option<usize>,
    ) -> anyhow::Result<Loaded> {
        let mut errors = Vec::new();
        let mut notices = Vec::new();
        let mut stdin = Stdin::default();
        let mut registry = SchemaRegistry::for_version(args.kube.kube_version);
        let schemas = ReadOptions {
            recursive: true,
            ..ReadOptions::default()
        };
        let objects = object_options(args);

        for (_, objs, _) in read_all(&args.schema, schemas, &mut errors, &mut notices, &mut stdin) {
            for o in objs {
                match registry.add_document(&o.value) {
                    Ok(_) => {}
                    Err(e) => errors.push(InputError::invalid(&o.origin, "", e)),
                }
            }
        }
        // Errors keep kubectl's order: each source's read or YAML errors, then CRD errors,
        // then the live objects', then each manifest's.
        let slots = read_texts(
            &args.filenames,
            objects,
            &mut errors,
            &mut notices,
            &mut stdin,
        );
        let size: usize = slots.iter().flatten().map(|t| t.bytes.len()).sum();
        // Objects may only be checked one source at a time when no manifest defines a CRD
        // that an earlier one would need.
        let defer = defer_above.is_some_and(|limit| size > limit)
            && !slots
                .iter()
                .flatten()
                .any(|t| kssa::search::find_bytes(&t.bytes, b"CustomResourceDefinition").is_some());
        if !defer && size >= crate::memory::HUGE_PAGES_FROM {
            crate::memory::huge_pages(true);
        }
        let mut source_errors: Vec<Vec<InputError>> = Vec::with_capacity(slots.len());
        let mut texts = Vec::with_capacity(slots.len());
        let mut parsed: Vec<Vec<Object>> = Vec::new();
        // The sources are parsed in parallel; their notices keep the order of the sources.
        let read_slots = match defer {
            true => Vec::new(),
            false => super::pipeline::map_in_order(&slots, |slot| {
                slot.as_ref().ok().map(|text| {
                    let mut notes = Vec::new();
                    let (objs, errs) = objects_of(text, objects, &mut notes);
                    (objs, errs, notes)
                })
            })?,
        };
        let mut read_slots = read_slots.into_iter();
        for slot in slots {
            let read = read_slots.next().flatten();
            match slot {
                Ok(text) => {
                    match read {
                        Some((objs, errs, notes)) => {
                            notices.extend(notes);
                            source_errors.push(errs);
                            parsed.push(objs);
                        }
                        None => source_errors.push(Vec::new()),
                    }
                    texts.push(text);
                }
                Err(e) => source_errors.push(vec![e]),
            }
        }
        let mut crd_errors = Vec::new();
        for m in parsed.iter().flatten().filter(|m| is_crd(m)) {
            if let Err(e) = registry.add_document(&m.value) {
                // A CRD the API server refuses anyway gets its 422 when it is written.
                if !kssa::validate::builtin::crd_refused_unloadable(&m.value) {
                    crd_errors.push(InputError::invalid(&m.origin, "", e));
                }
            }
        }

        let mut live_errors = Vec::new();
        let mut live = Vec::new();
        let mut live_files = Vec::new();
        for (source, objs, text) in read_all(
            &args.live,
            objects,
            &mut live_errors,
            &mut notices,
            &mut stdin,
        ) {
            let file = match source {
                Source::File(path) => {
                    live_files.push(LiveFile { path, text });
                    Some(live_files.len() - 1)
                }
                Source::Stdin => None,
            };
            for object in objs {
                if let Err(e) = kssa::managed::decode_managed_fields(&object.value) {
                    live_errors.push(managed_fields_error(&object.origin, &e));
                    continue;
                }
                live.push(LiveObject {
                    object,
                    file,
                    dropped: Vec::new(),
                });
            }
        }

        let mut index: FxHashMap<ObjectKey, usize> = FxHashMap::default();
        for (i, l) in live.iter_mut().enumerate() {
            let o = &mut l.object;
            if let Err(e) = registry.check_in_version(o.api_version(), o.kind()) {
                live_errors.push(InputError::invalid(&o.origin, "", e));
            }
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
                Err(e) => live_errors.push(InputError::invalid(&o.origin, "", e)),
            }
            if index.insert(key, i).is_some() {
                live_errors.push(InputError::invalid(
                    &o.origin,
                    "",
                    "a live object with the same group, kind, namespace and name was given before",
                ));
            }
        }
        let maker = PairMaker {
            registry: &registry,
            live_index: &index,
            args,
            validate,
        };
        let mut pairs = Vec::new();
        let mut pair_errors = Vec::new();
        let mut count = 0;
        // Origins, not their text: printing one locates it, which re-reads its document.
        let mut seen: HashMap<ObjectKey, Origin> = HashMap::new();
        let mut crd_seen = false;
        let mut take = |manifest: Object, pair_errors: &mut Vec<InputError>| {
            crd_seen |= defer && is_crd(&manifest);
            let (pair, key) = match maker.pair(manifest, false, &mut notices) {
                Ok(p) => p,
                Err(errs) => return pair_errors.extend(errs),
            };
            let manifest = &pair.manifest;
            if let Some(first) = seen.insert(key, manifest.origin.clone()) {
                pair_errors.push(InputError::invalid(
                    &manifest.origin,
                    "",
                    format!("the same object is also given at {first}"),
                ));
                return;
            }
            count += 1;
            if !defer {
                pairs.push(pair);
            }
        };
        let mut skipped = Vec::new();
        // Errors found so far must come before the manifests', so the manifests are then all
        // checked first; else they are checked in the one pass that merges them.
        let checked = defer
            && !(source_errors.iter().all(Vec::is_empty)
                && live_errors.is_empty()
                && super::deferred::one_pass_possible(&texts));
        // Manifests read in one pass are checked and counted there (see `known_count`).
        if checked {
            let with_text = source_errors.iter_mut().filter(|e| e.is_empty());
            for (text, errs) in texts.iter().zip(with_text) {
                kssa::io::each_object(text, objects, &mut skipped, |o| match o {
                    Ok(o) => take(o, &mut pair_errors),
                    Err(e) => errs.push(e),
                });
            }
        } else if !defer {
            for manifest in parsed.into_iter().flatten() {
                take(manifest, &mut pair_errors);
            }
        }
        notices.extend(skipped);
        if crd_seen {
            // A CRD spelled so that the byte search missed it: read everything the usual way.
            return Self::read(args, validate, decode, None);
        }
        errors.extend(source_errors.into_iter().flatten());
        errors.extend(crd_errors);
        errors.extend(live_errors);
        errors.extend(pair_errors);
        if !errors.is_empty() {
            return Err(input_errors(errors));
        }
        // Nothing left because everything was skipped is fine (a commit of only values files);
        // nothing at all is an error, as it is to kubectl.
        // Manifests read in one pass are counted there.
        let counted = !defer || checked;
        anyhow::ensure!(
            count > 0 || !notices.is_empty() || !counted,
            "no objects passed to apply"
        );
        let deferred = defer.then(|| Deferred {
            texts,
            registry,
            live_index: index,
            args: args.clone(),
            validate,
            checked,
        });
        Ok(Loaded {
            pairs,
            live,
            live_files,
            notices,
            count,
            deferred,
        })
    }

    /// How many objects there are, when known before [`Loaded::each_pair`]: manifests read
    /// and checked in one pass are only counted by it.
    pub fn known_count(&self) -> Option<usize> {
        match &self.deferred {
            Some(d) if !d.checked => None,
            _ => Some(self.count),
        }
    }

    /// Runs `work` on every pair on `workers` threads, which also read the manifests, when
    /// they are read once while merging (see [`super::deferred`]); `take` gets the results in
    /// order. `None` when the pairs come from [`Loaded::each_pair`] instead.
    pub fn work_in_one_pass<R: Send>(
        &mut self,
        workers: usize,
        work: &(impl Fn(Pair) -> R + Sync),
        take: impl FnMut(R) -> anyhow::Result<()>,
    ) -> Option<anyhow::Result<()>> {
        let Loaded {
            notices,
            count,
            deferred,
            ..
        } = self;
        match deferred {
            Some(d) if !d.checked && workers > 1 => {
                Some(d.each_worked(notices, count, workers, work, take))
            }
            _ => None,
        }
    }

    /// Hands every pair to `f` in order: the kept ones, or those of manifests read again.
    /// Stops at the first error `f` returns.
    pub fn each_pair(&mut self, f: impl FnMut(Pair) -> anyhow::Result<()>) -> anyhow::Result<()> {
        let Loaded {
            pairs,
            notices,
            count,
            deferred,
            ..
        } = self;
        match deferred {
            Some(d) => d.each_pair(notices, count, f),
            None => std::mem::take(pairs).into_iter().try_for_each(f),
        }
    }
}

/// The object's identity; a cluster-scoped object's stray `metadata.namespace` is no part of
/// it (the API server clears it, [`kssa::kube::storage::clear_namespace`]).
/// A resource served under two groups (core and `events.k8s.io` Events) is one object.
fn object_key(o: &Object, namespaced: bool) -> ObjectKey {
    let mut key = o.key();
    if !namespaced {
        key.namespace.clear();
    }
    let (group, kind) = served::stored_group_kind(&key.group, &key.kind);
    let (group, kind) = (group.to_string(), kind.to_string());
    key.group = group;
    key.kind = kind;
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
        served::check_served(&r.gvk, served::Minor::of(r.kube_version)).map_err(|e| {
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

    fn args(filenames: &[&std::path::Path], live: &[&str]) -> InputArgs {
        InputArgs {
            filenames: filenames.iter().map(|p| p.to_path_buf()).collect(),
            recursive: false,
            live: live.iter().map(PathBuf::from).collect(),
            schema: Vec::new(),
            namespace: None,
            strict_schemas: false,
            skip_non_objects: false,
            kube: super::super::version::KubeVersionArgs {
                kube_version: kssa::kube::KubeVersion::NEWEST,
            },
        }
    }

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }

    /// Manifests read again one document at a time pair up exactly as kept ones do.
    #[test]
    fn deferred_manifests_pair_as_kept_ones() {
        let (manifests, live) = (
            root().join("examples/manifests"),
            root().join("examples/live"),
        );
        let a = args(&[&manifests], &[live.to_str().unwrap()]);
        let kept = Loaded::load(&a).unwrap();
        let mut deferred = Loaded::read(&a, true, true, Some(0)).unwrap();
        assert!(deferred.pairs.is_empty() && deferred.deferred.is_some());
        let mut again = Vec::new();
        deferred
            .each_pair(|p| {
                again.push(p);
                Ok(())
            })
            .unwrap();
        // Read in one pass, they are counted and their notices found as they are read.
        assert_eq!(
            (deferred.count, &deferred.notices),
            (kept.count, &kept.notices)
        );
        assert_eq!(again.len(), kept.pairs.len());
        for (d, k) in again.iter().zip(&kept.pairs) {
            assert_eq!(d.manifest.origin, k.manifest.origin);
            assert_eq!(d.manifest.value, k.manifest.value);
            assert_eq!((d.live, &d.resolved.gvk), (k.live, &k.resolved.gvk));
        }
    }

    /// Deferring changes nothing in what is reported about bad input, nor its order, whether
    /// the manifests are checked in a first pass (a backslash in them) or while merging.
    #[test]
    fn deferred_manifests_report_the_same_errors() {
        for (first_pass, comment) in [(false, ""), (true, "# a\\b\n")] {
            let dir = tempfile::tempdir().unwrap();
            let files = [
                (
                    "a.yaml",
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n~\n---\n# c\n---\nkind: X\n",
                ),
                (
                    "b.yaml",
                    // The error ends the file: the object after it is never read.
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [\n---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: a}\n",
                ),
                (
                    "c.yaml",
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: 1\n",
                ),
                (
                    "d.yaml",
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
                ),
            ];
            let paths: Vec<PathBuf> = files
                .iter()
                .map(|(name, text)| {
                    let p = dir.path().join(name);
                    std::fs::write(&p, format!("{comment}{text}")).unwrap();
                    p
                })
                .collect();
            let refs: Vec<&std::path::Path> = paths.iter().map(PathBuf::as_path).collect();
            let a = args(&refs, &[]);
            let kept = Loaded::load(&a).err().unwrap().to_string();
            let deferred = match Loaded::read(&a, true, true, Some(0)) {
                Err(e) => e,
                Ok(mut loaded) => {
                    assert!(!first_pass);
                    let mut fed = 0;
                    let e = loaded
                        .each_pair(|_| {
                            fed += 1;
                            Ok(())
                        })
                        .err()
                        .unwrap();
                    // Nothing after the first error reaches the pipeline.
                    assert_eq!(fed, 1);
                    e
                }
            };
            assert_eq!(deferred.to_string(), kept);
            assert_eq!(kept.matches("\nerror: ").count(), 3, "{kept}");
            assert!(kept.contains("the same object is also given at"), "{kept}");
        }
    }

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
