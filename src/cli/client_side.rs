//! `--client-side` for `apply` and `diff`: kubectl's default (client-side) apply predicted by
//! [`kssa::client_apply`], its patch shown with `--show-patch` and in `-o json`, and
//! `diff --compare-modes`, which sets it beside server-side apply of the same manifests.

use super::apply::{without_managed_fields, Outcome, Predicted};
use super::inputs::{resolve_now, ApplyArgs, Loaded, Pair};
use kssa::client_apply::{
    plan, store, ClientOptions, Plan, Request, StoreError, CLIENT_SIDE_MANAGER,
};
use kssa::managed::{Operation, WriteError, WriteRequest};
use kssa::validate::StatusError;
use kssa::value::{from_json_str, to_json_string_pretty, Map, Value};

/// The flags that choose kubectl's client-side apply, spelled as kubectl spells them.
#[derive(Debug, Clone, clap::Args)]
pub struct ModeArgs {
    /// Predict `kubectl apply` without `--server-side`: a three-way patch from the
    /// last-applied annotation, recorded as an Update by kubectl-client-side-apply.
    #[arg(long)]
    pub client_side: bool,
    /// `--server-side=false` is kubectl's spelling of --client-side.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub server_side: Option<bool>,
    /// Client-side only: with `--overwrite=false`, a patch touching fields changed live since
    /// the last apply fails as a conflict (kubectl's default is true).
    #[arg(long, value_name = "BOOL", default_value_t = true, num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub overwrite: bool,
    /// Client-side only: show the request kubectl sends (POST, or the PATCH body and type).
    #[arg(long)]
    pub show_patch: bool,
}

impl ModeArgs {
    /// Whether client-side apply is asked for; contradictory flags are an error.
    pub fn client_side(&self) -> anyhow::Result<bool> {
        let client = match (self.client_side, self.server_side) {
            (true, Some(true)) => {
                anyhow::bail!("--client-side and --server-side=true contradict each other")
            }
            (true, _) | (false, Some(false)) => true,
            (false, _) => false,
        };
        anyhow::ensure!(
            client || (self.overwrite && !self.show_patch),
            "--overwrite and --show-patch apply to client-side apply only (add --client-side)"
        );
        Ok(client)
    }
}

/// One manifest's client-side prediction.
pub struct ClientPredicted<'a> {
    pub pair: &'a Pair,
    pub live: Option<&'a Value>,
    pub plan: Plan,
    /// What the server stores; `None` when kubectl fails before sending anything or the
    /// server refuses the request.
    pub stored: Option<Value>,
    /// The server's refusal of kubectl's request.
    pub refused: Option<StatusError>,
    /// The server's warnings (`Warning: …`).
    pub server_warnings: Vec<String>,
}

/// The manager kubectl writes as: `--field-manager` unless left at the server-side default.
fn manager(args: &ApplyArgs) -> &str {
    if args.field_manager == "kubectl" {
        CLIENT_SIDE_MANAGER
    } else {
        &args.field_manager
    }
}

/// Runs kubectl's client-side flow and the server's handling for every manifest.
pub fn predict<'a>(
    loaded: &'a Loaded,
    args: &ApplyArgs,
    mode: &ModeArgs,
) -> anyhow::Result<Vec<ClientPredicted<'a>>> {
    anyhow::ensure!(
        args.subresource.is_none() && !args.force_conflicts,
        "--subresource and --force-conflicts apply to server-side apply only"
    );
    let now = resolve_now(args.now.as_deref())?;
    let req = WriteRequest {
        operation: Operation::Update,
        manager: manager(args),
        force: false,
        subresource: "",
        now: &now,
        reset_fields: true,
        normalize_unions: args.store.normalize_unions,
        defaulting: !args.store.no_defaults,
        validation: Some(args.validate.mode),
        managed_fields: true,
        patch: None,
    };
    let options = ClientOptions {
        overwrite: mode.overwrite,
    };
    let mut out = Vec::with_capacity(loaded.pairs.len());
    let mut errors = Vec::new();
    for pair in &loaded.pairs {
        let live = pair.live.map(|i| &loaded.live[i].object.value);
        let plan = plan(&pair.manifest.value, live, &pair.resolved, options);
        let mut refused = None;
        let mut server_warnings = Vec::new();
        let stored = match &plan.outcome {
            Ok(request) => match store(live, request, &pair.resolved, &req) {
                Ok(s) => {
                    server_warnings = s.warnings;
                    Some(s.object)
                }
                Err(StoreError::Write(WriteError::Refused(e, warnings))) => {
                    refused = Some(e);
                    server_warnings = warnings;
                    None
                }
                Err(e) => {
                    errors.push(format!("{}: {e}", pair.manifest.origin));
                    None
                }
            },
            Err(_) => None,
        };
        out.push(ClientPredicted {
            pair,
            live,
            plan,
            stored,
            refused,
            server_warnings,
        });
    }
    anyhow::ensure!(errors.is_empty(), "{}", errors.join("\nerror: "));
    Ok(out)
}

impl<'a> ClientPredicted<'a> {
    /// The result as the server-side pipeline's outcome: a kubectl failure leaves the object
    /// as it was, like a conflict.
    pub fn as_predicted(&self) -> Predicted<'a> {
        let outcome = match (&self.stored, &self.plan.outcome) {
            _ if self.refused.is_some() => Outcome::Invalid {
                error: self.refused.clone().expect("checked"),
            },
            (Some(object), _) => Outcome::Applied {
                changed: Some(object) != self.live,
                object: object.clone(),
            },
            (None, Err(f)) => Outcome::Conflicts {
                conflicts: Vec::new(),
                message: format!("kubectl apply fails: {f}"),
            },
            (None, Ok(_)) => Outcome::Conflicts {
                conflicts: Vec::new(),
                message: "kubectl apply fails".into(),
            },
        };
        Predicted {
            pair: self.pair,
            live: self.live,
            dropped: &[],
            outcome,
            warnings: super::apply::server_warnings(&self.server_warnings),
        }
    }

    /// One line saying what kubectl sends, for `--show-patch`.
    pub fn request_line(&self) -> String {
        let name = format!(
            "{} {}",
            self.pair.manifest.kind(),
            self.pair.manifest.name()
        );
        match &self.plan.outcome {
            Ok(Request::Create { .. }) => format!("# {name}: kubectl sends POST (create)"),
            Ok(Request::Nothing { .. }) => {
                format!("# {name}: kubectl sends nothing (the patch is {{}})")
            }
            Ok(Request::Patch {
                patch_type, text, ..
            }) => format!(
                "# {name}: kubectl sends PATCH {}: {text}",
                patch_type.content_type()
            ),
            Err(_) => format!("# {name}: kubectl fails; nothing is sent"),
        }
    }

    /// The `-o json` item: the request, the warnings and the stored object (or the error).
    pub fn report_item(&self, show_managed_fields: bool) -> Value {
        let mut item = Map::default();
        item.insert(
            "source".into(),
            Value::from(self.pair.manifest.origin.to_string()),
        );
        let (patch_type, patch_text) = match &self.plan.outcome {
            Ok(r) => (r.type_name(), r.patch_text().map(str::to_string)),
            Err(f) => (f.patch_type.as_str(), None),
        };
        item.insert("patchType".into(), Value::from(patch_type));
        if let Ok(request) = &self.plan.outcome {
            let parsed = patch_text.as_deref().and_then(|t| from_json_str(t).ok());
            item.insert("patch".into(), parsed.unwrap_or(Value::Null));
            item.insert(
                "patchText".into(),
                patch_text.map_or(Value::Null, Value::from),
            );
            if let Request::Create { .. } = request {
                item.insert("patch".into(), Value::Null);
            }
        }
        if let Err(f) = &self.plan.outcome {
            item.insert("error".into(), Value::from(f.message.clone()));
        }
        if let Some(object) = &self.stored {
            let object = if show_managed_fields {
                object.clone()
            } else {
                without_managed_fields(object)
            };
            item.insert("object".into(), object);
        }
        item.insert(
            "warnings".into(),
            Value::List(
                self.plan
                    .warnings
                    .iter()
                    .map(|w| Value::from(w.clone()))
                    .collect(),
            ),
        );
        Value::Map(item)
    }
}

/// `kssa diff --client-side`: the predictions as the diff pipeline takes them; kubectl's
/// warnings and errors (and with `--show-patch` its requests) go to stderr.
pub fn predict_for_diff<'a>(
    loaded: &'a Loaded,
    args: &ApplyArgs,
    mode: &ModeArgs,
) -> anyhow::Result<Vec<Predicted<'a>>> {
    let results = predict(loaded, args, mode)?;
    print_warnings(&results);
    if mode.show_patch {
        for r in &results {
            eprintln!("{}", r.request_line());
        }
    }
    Ok(results.iter().map(|r| r.as_predicted()).collect())
}

/// Prints kubectl's stderr lines (warnings, then the error) for every object.
pub fn print_warnings(results: &[ClientPredicted]) -> usize {
    let mut failures = 0;
    for r in results {
        for w in &r.plan.warnings {
            eprint!("{w}");
        }
        for w in &r.server_warnings {
            eprintln!("{w}");
        }
        if let Err(f) = &r.plan.outcome {
            failures += 1;
            eprintln!("error: {}: {f}", r.pair.manifest.origin);
        }
    }
    failures
}

/// The `-o json` document of a client-side apply.
pub fn render_report(results: &[ClientPredicted], show_managed_fields: bool) -> String {
    let mut doc = Map::default();
    doc.insert("kind".into(), Value::from("ClientSideApplyReport"));
    doc.insert(
        "items".into(),
        Value::List(
            results
                .iter()
                .map(|r| r.report_item(show_managed_fields))
                .collect(),
        ),
    );
    to_json_string_pretty(&Value::Map(doc)) + "\n"
}

/// `kssa apply --client-side`.
pub fn run_apply(args: &super::apply::Args, loaded: &Loaded) -> anyhow::Result<super::Status> {
    use super::apply::ApplyOutput as Output;
    use kssa::render::{render_objects, OutputFormat};
    use std::io::Write as _;
    let results = predict(loaded, &args.apply, &args.mode)?;
    let failures = print_warnings(&results);
    let mut invalid = 0;
    for r in &results {
        if let Some(e) = &r.refused {
            invalid += 1;
            eprint!("{}", super::refused::error_line(&r.pair.manifest.origin, e));
        }
    }
    let text = match args.output {
        Output::Json => render_report(&results, args.show_managed_fields),
        Output::Sarif | Output::Junit => {
            let predicted: Vec<Predicted> = results.iter().map(|r| r.as_predicted()).collect();
            let findings = super::report::findings_of("apply", &predicted, &args.apply, false);
            let format = args
                .output
                .report()
                .unwrap_or(super::report::ReportFormat::Sarif);
            super::report::report_text(&findings, format, &args.apply)?
        }
        Output::Yaml | Output::Name => {
            let format = if args.output == Output::Yaml {
                OutputFormat::Yaml
            } else {
                OutputFormat::Name
            };
            let mut text = String::new();
            for r in &results {
                if format == OutputFormat::Yaml && !text.is_empty() {
                    text.push_str("---\n");
                }
                if args.mode.show_patch {
                    text.push_str(&r.request_line());
                    text.push('\n');
                }
                let Some(object) = &r.stored else { continue };
                let object = if args.show_managed_fields {
                    object.clone()
                } else {
                    without_managed_fields(object)
                };
                text.push_str(&render_objects(&[&object], format));
            }
            text
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    if args.write {
        let predicted: Vec<Predicted> = results.iter().map(|r| r.as_predicted()).collect();
        super::apply::write_back(loaded, &predicted, &args.inputs)?;
    }
    if failures > 0 {
        eprintln!("{failures} object(s) would make kubectl apply fail and were not changed");
    }
    eprint!("{}", super::refused::not_applied(0, invalid));
    if failures + invalid > 0 {
        return Ok(super::Status::Found);
    }
    Ok(super::Status::Clean)
}

/// Masks Secret material in a comparison unless `--show-secrets`.
fn mask_secret_values(secret: bool, values: [&mut Option<Value>; 3]) {
    if secret {
        for v in values.into_iter().flatten() {
            *v = kssa::render::masked();
        }
    }
}

/// `kssa diff --compare-modes`: client-side and server-side apply of the same manifests, side
/// by side, built on the two predictions (server-side conflicts, then the stored objects, the
/// server-side one forced past its conflicts).
pub fn run_compare(args: &super::diff::Args) -> anyhow::Result<super::Status> {
    use kssa::client_apply::compare_results;
    use kssa::render::{
        render_modes_json, render_modes_text, value_at, ModeComparison, ModeConflict,
    };
    use std::io::Write as _;
    let loaded = Loaded::load(&args.inputs)?;
    for n in &loaded.notices {
        eprintln!("{n}");
    }
    let server = super::apply::predict(&loaded, &args.apply)?;
    let forced_args = ApplyArgs {
        force_conflicts: true,
        ..args.apply.clone()
    };
    let forced = super::apply::predict(&loaded, &forced_args)?;
    let client = predict(&loaded, &args.apply, &args.mode)?;
    for w in client.iter().flat_map(|c| &c.plan.warnings) {
        eprint!("{w}");
    }
    let mut comparisons = Vec::new();
    for ((s, f), c) in server.iter().zip(&forced).zip(&client) {
        let m = &c.pair.manifest;
        let namespace = m.namespace();
        let object = format!(
            "{} {} {}{}",
            m.api_version(),
            m.kind(),
            if namespace.is_empty() {
                String::new()
            } else {
                format!("{namespace}/")
            },
            m.name()
        );
        let secret = m.kind() == "Secret" && !args.show_secrets;
        let mut comparison = ModeComparison {
            object,
            source: m.origin.to_string(),
            client_side_error: c.plan.outcome.as_ref().err().map(|f| f.message.clone()),
            conflicts: Vec::new(),
            fields: Vec::new(),
        };
        if let Outcome::Conflicts { conflicts, .. } = &s.outcome {
            for d in conflicts {
                let path = d.path.to_string();
                match comparison.conflicts.iter_mut().find(|k| k.path == path) {
                    Some(k) => k.managers.push(d.manager.clone()),
                    None => {
                        let at = |v: Option<&Value>| v.and_then(|v| value_at(v, &d.path)).cloned();
                        let mut k = ModeConflict {
                            path,
                            managers: vec![d.manager.clone()],
                            live: at(c.live),
                            client_side: at(c.stored.as_ref()),
                        };
                        let secret_path = secret && kssa::render::is_secret_path(&m.value, &d.path);
                        mask_secret_values(
                            secret_path,
                            [&mut k.live, &mut k.client_side, &mut None],
                        );
                        comparison.conflicts.push(k);
                    }
                }
            }
        }
        if let (Some(client_object), Outcome::Applied { object, .. }) = (&c.stored, &f.outcome) {
            comparison.fields = compare_results(c.live, client_object, object);
            for d in &mut comparison.fields {
                let secret_path =
                    secret && (d.path.starts_with(".data") || d.path.starts_with(".stringData"));
                mask_secret_values(
                    secret_path,
                    [&mut d.live, &mut d.client_side, &mut d.server_side],
                );
            }
        }
        comparisons.push(comparison);
    }
    let text = match args.output {
        super::diff::DiffOutput::Json => render_modes_json(&comparisons),
        _ => render_modes_text(&comparisons),
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(if comparisons.iter().any(ModeComparison::differs) {
        super::Status::Found
    } else {
        super::Status::Clean
    })
}
