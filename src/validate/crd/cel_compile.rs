//! The CEL compilation the API server runs on a CRD's `x-kubernetes-validations` rules when
//! the CRD is written (apiextensions `pkg/apiserver/schema/cel/compilation.go` `compileRule`):
//! syntax errors from the parser, then a small checker that reports only what cel-go's
//! (`checker/checker.go`) is sure to report: undeclared identifiers, undefined fields of
//! objects the schema declares, and functions or macros the release's environment lacks.
//! Anything it cannot model exactly makes it give up, so that it refuses no rule the server
//! accepts.

pub use super::cel_decl::{decl_type, Scalar, Ty};
use super::cel_env::{
    available, result_type, ESCAPED_IDENTIFIERS, GATED, MACROS, NAMESPACES,
    RESERVED_WORD_ALTERNATIVE, TYPE_IDENTS,
};
use super::cel_source::{display, positions, tokens, Located, Positions};
use crate::kube::KubeVersion;
use kube_cel::cel::common::ast::{operators, EntryExpr, Expr, LiteralValue};
use kube_cel::cel::parser::{Expression, Parser};

/// What compiling one expression gives.
#[derive(Debug, PartialEq)]
pub enum Compiled {
    /// No error kssa can see (the server may still find one).
    Clean,
    /// cel-go's issues text (`issues.String()`).
    Failed(String),
    /// It compiles to a value of another type than the one required (`cel expression must
    /// evaluate to a bool`, `messageExpression must evaluate to a string`).
    Mistyped,
    /// kssa cannot tell.
    Unknown,
}

/// The outcome of compiling one expression, and whether it refers to the `oldSelf` variable
/// (what cel-go's reference map tells once the expression compiles; it does not when the
/// expression does not parse).
#[derive(Debug, PartialEq)]
pub struct Compilation {
    pub result: Compiled,
    pub uses_old_self: bool,
}

/// Compiles `source` with `self` (and `oldSelf`) of type `self_ty`. `stored`: the expression
/// already existed in the CRD, so the server compiles it with the libraries of its own release
/// rather than those of the previous one.
/// `output`: the type the expression must have (`Bool` for a rule, `String` for a
/// `messageExpression`).
pub fn compile(
    source: &str,
    self_ty: &Ty,
    output: Scalar,
    version: KubeVersion,
    stored: bool,
) -> Compilation {
    let vars = [
        ("self".to_string(), self_ty.clone()),
        (OLD_SELF.to_string(), self_ty.clone()),
    ];
    let env = Env {
        vars: &vars,
        ungated: &[],
    };
    let (checked, uses_old_self) = run(source, &env, version, stored, true);
    let result = match checked {
        Checked::Typed(Ty::Dyn) => Compiled::Clean,
        Checked::Typed(Ty::Scalar(s)) if s == output => Compiled::Clean,
        Checked::Typed(_) => Compiled::Mistyped,
        Checked::Failed(issues) => Compiled::Failed(issues),
        Checked::Unknown => Compiled::Unknown,
    };
    Compilation {
        result,
        uses_old_self,
    }
}

/// The variables an expression is compiled with (other than the CRD's `self`), and the gated
/// functions (`GATED`) the environment has at every release (a library it adds unversioned).
pub struct Env<'a> {
    pub vars: &'a [(String, Ty)],
    pub ungated: &'a [&'a str],
}

/// What checking one expression in an environment gives.
#[derive(Debug, PartialEq)]
pub enum Checked {
    /// No error kssa can see; the type of its value as far as kssa knows it (`Ty::Dyn` when
    /// it does not: cel-go may know better).
    Typed(Ty),
    /// cel-go's issues text (`issues.String()`).
    Failed(String),
    /// kssa cannot tell.
    Unknown,
}

/// Checks `source` with the variables of `env`: the compile errors, or the type of a clean
/// expression (as in `compile`, `stored` picks the libraries of the server's own release).
pub fn check_in(source: &str, env: &Env, version: KubeVersion, stored: bool) -> Checked {
    run(source, env, version, stored, false).0
}

/// Parses and checks; with `old_self`, the second variable is the CRD's `oldSelf` and its
/// use is reported.
fn run(
    source: &str,
    env: &Env,
    version: KubeVersion,
    stored: bool,
    old_self: bool,
) -> (Checked, bool) {
    let parsed = Parser::new().enable_optional_syntax(true).parse(source);
    let expr = match parsed {
        Ok(e) => e,
        Err(errors) => {
            let checked = match syntax_errors(source, &errors.errors, version) {
                Compiled::Failed(issues) => Checked::Failed(issues),
                _ => Checked::Unknown,
            };
            return (checked, false);
        }
    };
    let mut checker = Checker {
        version,
        stored,
        ungated: env.ungated,
        scopes: env.vars.to_vec(),
        old_self,
        found: Vec::new(),
        selects: Vec::new(),
        gave_up: false,
        uses_old_self: false,
    };
    let ty = checker.check(&expr);
    let checked = match (tokens(source).map(|t| positions(&t)), checker.gave_up) {
        (Some(pos), false) if !pos.messages => {
            if checker.found.is_empty() {
                Checked::Typed(ty)
            } else {
                match locate(&checker.found, &checker.selects, &pos) {
                    Some(located) => Checked::Failed(display(source, &located)),
                    None => Checked::Unknown,
                }
            }
        }
        _ => Checked::Unknown,
    };
    (checked, checker.uses_old_self)
}

const OLD_SELF: &str = "oldSelf";

fn syntax_errors(
    source: &str,
    errors: &[kube_cel::cel::parser::ParseError],
    version: KubeVersion,
) -> Compiled {
    let escaped = ESCAPED_IDENTIFIERS
        .iter()
        .find(|(r, _)| r.contains(version))
        .is_some_and(|(_, e)| *e);
    // Only the ANTLR errors are cel-go's own words; columns are code points only for ASCII.
    if !source.is_ascii()
        || errors.is_empty()
        || errors.iter().any(|e| !e.msg.starts_with("Syntax error: "))
        // Where an operator could continue an expression, the `cel` crate's ANTLR runtime
        // lists the operators among the expected tokens; Go's lists only what the enclosing
        // rule expects (`expecting <EOF>`, `expecting ':'`).
        || errors.iter().any(|e| e.msg.contains("'=='"))
        || (!escaped && source.contains('`'))
    {
        return Compiled::Unknown;
    }
    let located: Vec<Located> = errors
        .iter()
        .filter_map(|e| {
            let mut message = if escaped {
                e.msg.clone()
            } else {
                e.msg.replace(", ESC_IDENTIFIER}", "}")
            };
            for word in RESERVED_WORD_ALTERNATIVE {
                let prefix = "no viable alternative at input '";
                if let Some(at) = message.find(prefix) {
                    let rest = &message[at + prefix.len()..];
                    let mut chars = rest.chars();
                    let skipped = chars.next().map_or(0, char::len_utf8);
                    if rest[skipped..]
                        .strip_prefix(word)
                        .is_some_and(|r| r.starts_with('\''))
                    {
                        let end = at + prefix.len() + skipped + word.len() + 1;
                        message.replace_range(
                            at..end,
                            &format!("mismatched input '{word}' expecting IDENTIFIER"),
                        );
                    }
                }
            }
            Some(Located {
                line: usize::try_from(e.pos.0).ok()?,
                column: usize::try_from(e.pos.1 - 1).ok()?,
                message,
            })
        })
        .collect();
    if located.len() != errors.len() {
        return Compiled::Unknown;
    }
    Compiled::Failed(display(source, &located))
}

/// A checker error before its position is known.
#[derive(Debug, Clone, PartialEq)]
enum Found {
    Undeclared(String),
    UndefinedField,
    UnknownFunction(String),
}

struct Checker<'e> {
    version: KubeVersion,
    stored: bool,
    ungated: &'e [&'e str],
    /// Whether the second variable is the CRD's `oldSelf`.
    old_self: bool,
    scopes: Vec<(String, Ty)>,
    found: Vec<Found>,
    /// Every field selection met, in source order: name, optional, undefined.
    selects: Vec<(String, bool, bool)>,
    gave_up: bool,
    /// Whether an identifier resolved to the `oldSelf` variable.
    uses_old_self: bool,
}

impl Checker<'_> {
    fn lookup(&mut self, name: &str) -> Option<&Ty> {
        let i = self.scopes.iter().rposition(|(n, _)| n == name)?;
        if i == 1 && self.old_self {
            self.uses_old_self = true;
        }
        Some(&self.scopes[i].1)
    }

    fn check(&mut self, e: &Expression) -> Ty {
        match &e.expr {
            Expr::Ident(name) => match self.lookup(name).cloned() {
                Some(t) => t,
                None if TYPE_IDENTS.contains(&name.as_str()) || name.starts_with('@') => Ty::Dyn,
                None if NAMESPACES.contains(&name.as_str()) || name.starts_with("__") => {
                    self.gave_up = true;
                    Ty::Dyn
                }
                None => {
                    self.found.push(Found::Undeclared(name.clone()));
                    Ty::Dyn
                }
            },
            Expr::Select(sel) => {
                let operand = self.check(&sel.operand);
                self.select(&operand, &sel.field, false)
            }
            Expr::Call(call) if call.func_name == operators::OPT_SELECT => {
                let operand = call.args.first().map_or(Ty::Dyn, |a| self.check(a));
                match call.args.get(1).map(|f| &f.expr) {
                    Some(Expr::Literal(LiteralValue::String(field))) => {
                        let t = self.select(&operand, field, true);
                        Ty::Optional(Box::new(t))
                    }
                    _ => {
                        self.gave_up = true;
                        Ty::Dyn
                    }
                }
            }
            Expr::Call(call) => self.call(call),
            Expr::List(list) => {
                for el in &list.elements {
                    self.check(el);
                }
                Ty::Dyn
            }
            Expr::Map(map) => {
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        self.check(&m.key);
                        self.check(&m.value);
                    }
                }
                Ty::Dyn
            }
            Expr::Comprehension(c) => {
                let range = self.check(&c.iter_range);
                self.check(&c.accu_init);
                let elem = match (range, c.iter_var2.is_some()) {
                    (Ty::List(t), false) => *t,
                    (Ty::List(_), true) => Ty::Scalar(Scalar::Int),
                    (Ty::Map(_), _) => Ty::Scalar(Scalar::String),
                    (Ty::Dyn, _) => Ty::Dyn,
                    _ => {
                        self.gave_up = true;
                        Ty::Dyn
                    }
                };
                let depth = self.scopes.len();
                self.scopes.push((c.accu_var.clone(), Ty::Dyn));
                self.scopes.push((c.iter_var.clone(), elem));
                if let Some(v2) = &c.iter_var2 {
                    self.scopes.push((v2.clone(), Ty::Dyn));
                }
                for part in [&c.loop_cond, &c.loop_step, &c.result] {
                    self.check(part);
                }
                self.scopes.truncate(depth);
                Ty::Dyn
            }
            Expr::Literal(l) => Ty::Scalar(Scalar::of_literal(l)),
            Expr::Struct(_) | Expr::Unspecified => {
                self.gave_up = true;
                Ty::Dyn
            }
        }
    }

    /// `checkSelectField`: a field of an object must be declared; maps give their values.
    fn select(&mut self, operand: &Ty, field: &str, optional: bool) -> Ty {
        let operand = match operand {
            Ty::Optional(t) => t.as_ref(),
            t => t,
        };
        match operand {
            Ty::Object(fields) => {
                let declared = fields.get(field).cloned();
                self.selects
                    .push((field.to_string(), optional, declared.is_none()));
                if declared.is_none() {
                    self.found.push(Found::UndefinedField);
                }
                declared.unwrap_or(Ty::Dyn)
            }
            Ty::Map(t) => {
                self.selects.push((field.to_string(), optional, false));
                (**t).clone()
            }
            Ty::Dyn => {
                self.selects.push((field.to_string(), optional, false));
                Ty::Dyn
            }
            // `type '…' does not support field selection`: not reproduced.
            _ => {
                self.gave_up = true;
                Ty::Dyn
            }
        }
    }

    fn call(&mut self, call: &kube_cel::cel::common::ast::CallExpr) -> Ty {
        let name = call.func_name.as_str();
        let arity = call.args.len();
        // `a.b.f()` may name a function `a.b.f` (a namespace: `format.named`, `ip.isCanonical`,
        // `strings.quote` …) when `a` is no variable: cel-go tries that first.
        if call
            .target
            .as_deref()
            .and_then(qualified_root)
            .is_some_and(|root| self.scopes.iter().all(|(n, _)| n != root))
        {
            self.gave_up = true;
            return Ty::Dyn;
        }
        let available = |introduced: u8| available(introduced, self.version, self.stored);
        if let Some((_, _, vars, introduced)) = MACROS
            .iter()
            .find(|(n, a, _, _)| *n == name && *a == arity && call.target.is_some())
        {
            if available(*introduced) {
                let target = call.target.as_deref().map_or(Ty::Dyn, |t| self.check(t));
                let elem = match target {
                    Ty::List(t) if *vars == 1 => *t,
                    Ty::List(_) | Ty::Map(_) | Ty::Dyn | Ty::Optional(_) => Ty::Dyn,
                    // Not a range (`cannot be range of a comprehension`): not reproduced.
                    Ty::Object(_) | Ty::Scalar(_) | Ty::Opaque => {
                        self.gave_up = true;
                        Ty::Dyn
                    }
                };
                let depth = self.scopes.len();
                for v in &call.args[..*vars] {
                    match &v.expr {
                        Expr::Ident(v) => self.scopes.push((v.clone(), elem.clone())),
                        _ => self.gave_up = true,
                    }
                }
                for a in &call.args[*vars..] {
                    self.check(a);
                }
                self.scopes.truncate(depth);
                return Ty::Dyn;
            }
            return self.unknown_function(call);
        }
        if let Some((_, introduced)) = GATED.iter().find(|(n, _)| *n == name) {
            if !available(*introduced) && !self.ungated.contains(&name) {
                return self.unknown_function(call);
            }
        }
        if name == operators::INDEX || name == operators::OPT_INDEX {
            let operand = call.args.first().map_or(Ty::Dyn, |a| self.check(a));
            for a in call.args.iter().skip(1) {
                self.check(a);
            }
            return match operand {
                Ty::List(t) | Ty::Map(t) if name == operators::INDEX => *t,
                Ty::Object(_) | Ty::Opaque => {
                    self.gave_up = true;
                    Ty::Dyn
                }
                _ => Ty::Dyn,
            };
        }
        if let Some(t) = &call.target {
            self.check(t);
        }
        let args: Vec<Ty> = call.args.iter().map(|a| self.check(a)).collect();
        result_type(name, call.target.is_some(), &args)
    }

    /// A call of a function the environment lacks: its arguments and target are checked
    /// (the variables of a macro the release lacks are undeclared), then the name is.
    fn unknown_function(&mut self, call: &kube_cel::cel::common::ast::CallExpr) -> Ty {
        if let Some(t) = &call.target {
            self.check(t);
        }
        for a in &call.args {
            self.check(a);
        }
        self.found
            .push(Found::UnknownFunction(call.func_name.clone()));
        Ty::Dyn
    }
}

/// The first identifier of a qualified name (`a` of `a.b.c`), if the expression is one.
fn qualified_root(e: &Expression) -> Option<&str> {
    match &e.expr {
        Expr::Ident(name) => Some(name),
        Expr::Select(sel) if !sel.test => qualified_root(&sel.operand),
        _ => None,
    }
}

/// The positions of the errors: every occurrence of an undeclared name or an unknown function
/// is an error, so the counts must match the source's; the field selections the checker met
/// (in source order) must be the source's, one for one.
fn locate(
    found: &[Found],
    selects: &[(String, bool, bool)],
    pos: &Positions,
) -> Option<Vec<Located>> {
    let at = |t: &super::cel_source::Token, message: String| Located {
        line: t.line,
        column: t.column,
        message,
    };
    let mut out = Vec::new();
    let mut done: Vec<&Found> = Vec::new();
    for f in found {
        let (sites, name): (Vec<_>, &String) = match f {
            _ if done.contains(&f) => continue,
            Found::Undeclared(name) => {
                (pos.idents.iter().filter(|(n, _)| n == name).collect(), name)
            }
            Found::UnknownFunction(name) => {
                (pos.calls.iter().filter(|(n, _)| n == name).collect(), name)
            }
            Found::UndefinedField => continue,
        };
        done.push(f);
        if sites.len() != found.iter().filter(|g| *g == f).count() {
            return None;
        }
        let message = format!("undeclared reference to '{name}' (in container '')");
        out.extend(sites.iter().map(|(_, t)| at(t, message.clone())));
    }
    if found.contains(&Found::UndefinedField) {
        if selects.len() != pos.selects.len() {
            return None;
        }
        for ((name, optional, tok), (m_name, m_optional, undefined)) in
            pos.selects.iter().zip(selects)
        {
            if name != m_name || optional != m_optional {
                return None;
            }
            if *undefined {
                out.push(at(tok, format!("undefined field '{name}'")));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
#[path = "cel_compile_tests.rs"]
mod tests;
