//! The CEL compilation of admission expressions (webhook and ValidatingAdmissionPolicy match
//! conditions, a policy's variables, validations, message and audit annotation expressions),
//! as k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go runs it
//! (`validateMatchConditionsExpression`, `validateVariable`, `validateValidationExpression`,
//! `validateMessageExpression`, `validateAuditAnnotation`) through k8s.io/apiserver
//! pkg/admission/plugin/cel/compile.go `CompileCELExpression`, on kssa's checker
//! (`crate::validate::crd::cel_compile`).

use super::super::FieldError;
use crate::kube::KubeVersion;
use crate::validate::crd::cel_compile::{check_in, Checked, Env, Scalar, Ty};
use kube_cel::cel::common::ast::{operators, Expr};
use kube_cel::cel::parser::{Expression, Parser};

/// `OptionalVariableDeclarations`, and the policy's composited `variables` (declared when the
/// policy has variables: `createCompiler(needsComposition)`).
#[derive(Clone, Copy)]
pub(super) struct Decls<'v> {
    pub params: bool,
    pub authorizer: bool,
    pub variables: Option<&'v [(String, Ty)]>,
}

impl Decls<'_> {
    /// What a webhook's match condition sees: no params (`allowParamsInMatchConditions` is
    /// false for webhooks), the authorizer.
    pub const WEBHOOK: Decls<'static> = Decls {
        params: false,
        authorizer: true,
        variables: None,
    };

    /// `createEnvForOpts`: `object`, `oldObject` (dyn), `namespaceObject`, `request` (typed),
    /// then `params`, `authorizer` and `authorizer.requestResource`, and the composited
    /// `variables` (`newCompositionState`: an object with one field per variable).
    fn vars(&self) -> Vec<(String, Ty)> {
        let mut vars = vec![
            ("object".to_string(), Ty::Dyn),
            ("oldObject".to_string(), Ty::Dyn),
            ("namespaceObject".to_string(), namespace_type()),
            ("request".to_string(), request_type()),
        ];
        if self.params {
            vars.push(("params".to_string(), Ty::Dyn));
        }
        if self.authorizer {
            // `authorizer.requestResource` is a variable of its own; kssa gives up on any
            // selection on the authorizer.
            vars.push(("authorizer".to_string(), Ty::Opaque));
        }
        if let Some(variables) = self.variables {
            let fields = variables.iter().cloned();
            vars.push(("variables".to_string(), Ty::object(fields)));
        }
        vars
    }
}

/// The type an expression must have (`ExpressionAccessor.ReturnTypes`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Returns {
    /// `MatchCondition`, `ValidationCondition`.
    Bool,
    /// `MessageExpressionCondition`.
    String,
    /// `AuditAnnotationCondition` (string or null) and `Variable` (any): not checked.
    Unchecked,
}

/// One expression compiled: the error the server reports at `at` (`convertCELErrorToValidationError`:
/// `Invalid value: "<quoted>": <detail>`), and the type of its value for a variable
/// (`convertCelTypeToDeclType`: scalars, lists and maps keep theirs, the rest is dyn).
pub(super) fn compile(
    source: &str,
    quoted: &str,
    at: &str,
    decls: Decls,
    returns: Returns,
    version: KubeVersion,
    stored: bool,
) -> (Option<FieldError>, Ty) {
    let vars = decls.vars();
    let env = Env {
        vars: &vars,
        ungated: &[],
    };
    let invalid = |detail: String| {
        Some(FieldError::invalid(
            at,
            FieldError::string_value(quoted),
            detail,
        ))
    };
    match check_in(source, &env, version, stored) {
        Checked::Failed(issues) => (invalid(format!("compilation failed: {issues}")), Ty::Dyn),
        Checked::Unknown => (None, Ty::Dyn),
        Checked::Typed(ty) => {
            let got = match &ty {
                Ty::Scalar(s) => s.cel_name(),
                Ty::Dyn if certainly_dyn(source, &vars) => Some("dyn"),
                _ => None,
            };
            let want = match returns {
                Returns::Bool => Some("bool"),
                Returns::String => Some("string"),
                Returns::Unchecked => None,
            };
            let error = match (want, got) {
                (Some(want), Some(got)) if want != got => {
                    invalid(format!("must evaluate to {want} but got {got}"))
                }
                _ => None,
            };
            (error, declared(ty))
        }
    }
}

/// `convertCelTypeToDeclType`: what a variable's field of `variables` is declared as.
fn declared(ty: Ty) -> Ty {
    match ty {
        Ty::Scalar(_) => ty,
        Ty::List(t) => Ty::List(Box::new(declared(*t))),
        Ty::Map(t) => Ty::Map(Box::new(declared(*t))),
        Ty::Dyn | Ty::Object(_) | Ty::Optional(_) | Ty::Opaque => Ty::Dyn,
    }
}

/// Whether the expression is only field selections and indexes below a variable the
/// environment declares as dyn (`object.spec.paused`): cel-go types it dyn for sure.
fn certainly_dyn(source: &str, vars: &[(String, Ty)]) -> bool {
    fn chain(e: &Expression, vars: &[(String, Ty)]) -> bool {
        match &e.expr {
            Expr::Ident(name) => {
                ["object", "oldObject", "params"].contains(&name.as_str())
                    && vars.iter().any(|(n, t)| n == name && *t == Ty::Dyn)
            }
            Expr::Select(sel) => !sel.test && chain(&sel.operand, vars),
            Expr::Call(call) if call.func_name == operators::INDEX && call.target.is_none() => {
                call.args.first().is_some_and(|a| chain(a, vars))
            }
            _ => false,
        }
    }
    Parser::new()
        .enable_optional_syntax(true)
        .parse(source)
        .is_ok_and(|e| chain(&e, vars))
}

fn object(fields: &[(&str, Ty)]) -> Ty {
    Ty::object(fields.iter().map(|(n, t)| (n.to_string(), t.clone())))
}

fn string() -> Ty {
    Ty::Scalar(Scalar::String)
}

fn strings() -> Ty {
    Ty::List(Box::new(string()))
}

/// `BuildRequestType`: `kubernetes.AdmissionRequest`.
fn request_type() -> Ty {
    let gvk = object(&[
        ("group", string()),
        ("version", string()),
        ("kind", string()),
    ]);
    let gvr = object(&[
        ("group", string()),
        ("version", string()),
        ("resource", string()),
    ]);
    let user = object(&[
        ("username", string()),
        ("uid", string()),
        ("groups", strings()),
        ("extra", Ty::Map(Box::new(strings()))),
    ]);
    object(&[
        ("kind", gvk.clone()),
        ("resource", gvr.clone()),
        ("subResource", string()),
        ("requestKind", gvk),
        ("requestResource", gvr),
        ("requestSubResource", string()),
        ("name", string()),
        ("namespace", string()),
        ("operation", string()),
        ("userInfo", user),
        ("dryRun", Ty::Scalar(Scalar::Bool)),
        ("options", Ty::Dyn),
    ])
}

/// `BuildNamespaceType`: `kubernetes.Namespace`.
fn namespace_type() -> Ty {
    let timestamp = Ty::Scalar(Scalar::Timestamp);
    let int = Ty::Scalar(Scalar::Int);
    let labels = Ty::Map(Box::new(string()));
    let condition = object(&[
        ("status", string()),
        ("type", string()),
        ("lastTransitionTime", timestamp.clone()),
        ("message", string()),
        ("reason", string()),
    ]);
    let metadata = object(&[
        ("name", string()),
        ("generateName", string()),
        ("namespace", string()),
        ("labels", labels.clone()),
        ("annotations", labels),
        ("UID", string()),
        ("creationTimestamp", timestamp.clone()),
        ("deletionGracePeriodSeconds", int.clone()),
        ("deletionTimestamp", timestamp),
        ("generation", int),
        ("resourceVersion", string()),
        ("finalizers", strings()),
    ]);
    object(&[
        ("metadata", metadata),
        ("spec", object(&[("finalizers", strings())])),
        (
            "status",
            object(&[
                ("conditions", Ty::List(Box::new(condition))),
                ("phase", string()),
            ]),
        ),
    ])
}

#[cfg(test)]
#[path = "admission_cel_tests.rs"]
mod tests;
