//! What kssa adds to the `cel` crate's context for `x-kubernetes-validations` rules: the
//! `kube-cel` libraries, the URL library (`cel_url.rs`), the macros the crate lacks
//! (`cel_macros.rs`), and errors that carry cel-go's text for the data.

use kube_cel::cel::common::ast::{operators, EntryExpr, Expr};
use kube_cel::cel::objects::OptionalValue;
use kube_cel::cel::parser::{Expression, ExpressionReferences, ParseErrors, Parser};
use kube_cel::cel::{Context, ExecutionError, FunctionContext, ResolveResult, Value};
use kube_cel::KubeCelExt;
use std::sync::Arc;

/// A parsed rule. The syntax includes optionals (`a.?b`, `m[?k]`, `{?k: v}`): the server's
/// environment has `cel.OptionalTypes` (since 1.28), which the `cel` crate's `Program` leaves off.
#[derive(Debug)]
pub(super) struct Program(Expression);

impl Program {
    pub(super) fn compile(source: &str) -> Result<Program, ParseErrors> {
        let mut expression = Parser::new().enable_optional_syntax(true).parse(source)?;
        reroute(&mut expression, 0);
        Ok(Program(expression))
    }

    pub(super) fn execute(&self, ctx: &Context) -> ResolveResult {
        Value::resolve(&self.0, ctx)
    }

    pub(super) fn references(&self) -> ExpressionReferences<'_> {
        self.0.references()
    }
}

/// The function name marking an error over the data whose message is cel-go's own text.
const DATA_ERROR: &str = "@kssa.data";

/// The context of the Kubernetes CEL environment, as far as kssa evaluates it.
pub(super) fn context() -> Context<'static> {
    let mut ctx = Context::default();
    ctx.register_all();
    super::cel_url::register(&mut ctx);
    super::cel_macros::register(&mut ctx);
    ctx.add_function(OPTIONAL_SELECT, optional_select);
    ctx
}

/// The function kssa evaluates `a.?b` with: the crate's own makes a missing field an error
/// instead of `optional.none()`.
const OPTIONAL_SELECT: &str = "@kssa.optionalSelect";

/// Conversions the crate evaluates as `x.f()` when written `f(x)`: its argument extractor for
/// `f(x)` replaces an error of `x` (`no such key`, a URL error) by its own.
const CONVERSIONS: [&str; 5] = ["int", "uint", "double", "string", "size"];

/// Works around two faults of the crate's evaluation (the parser bounds the depth): every `a.?b`
/// goes to `OPTIONAL_SELECT`, every conversion `f(x)` becomes `x.f()`.
fn reroute(e: &mut Expression, depth: usize) {
    if depth > 256 {
        return;
    }
    let walk = |e: &mut Expression| reroute(e, depth + 1);
    match &mut e.expr {
        Expr::Call(call) => {
            if call.func_name == operators::OPT_SELECT {
                call.func_name = OPTIONAL_SELECT.to_string();
            }
            if call.target.is_none()
                && call.args.len() == 1
                && CONVERSIONS.contains(&call.func_name.as_str())
            {
                call.target = call.args.pop().map(Box::new);
            }
            if let Some(target) = call.target.as_deref_mut() {
                walk(target);
            }
            call.args.iter_mut().for_each(walk);
        }
        Expr::Comprehension(c) => {
            for e in [
                &mut c.iter_range,
                &mut c.accu_init,
                &mut c.loop_cond,
                &mut c.loop_step,
                &mut c.result,
            ] {
                walk(e);
            }
        }
        Expr::List(list) => list.elements.iter_mut().for_each(walk),
        Expr::Map(map) => {
            for entry in &mut map.entries {
                if let EntryExpr::MapEntry(m) = &mut entry.expr {
                    walk(&mut m.key);
                    walk(&mut m.value);
                }
            }
        }
        Expr::Select(select) => walk(&mut select.operand),
        _ => {}
    }
}

/// `a.?b` (cel-go optional field selection): `optional.of(a.b)` when `a` has the field,
/// `optional.none()` when it lacks it or `a` is none.
fn optional_select(ftx: &FunctionContext) -> ResolveResult {
    let (Some(operand), Some(field)) = (ftx.args.first(), ftx.args.get(1)) else {
        return Err(ExecutionError::MissingArgumentOrTarget);
    };
    let operand = Value::resolve(operand, ftx.ptx)?;
    let Value::String(field) = Value::resolve(field, ftx.ptx)? else {
        return Err(ExecutionError::NoSuchOverload);
    };
    let operand = match &operand {
        Value::Opaque(_) => {
            let optional: &OptionalValue = (&operand).try_into()?;
            match optional.value() {
                Some(v) => v.clone(),
                None => return Ok(Value::Opaque(Arc::new(OptionalValue::none()))),
            }
        }
        _ => operand,
    };
    let Value::Map(map) = operand else {
        return Err(ExecutionError::NoSuchOverload);
    };
    let found = map
        .map
        .get(&kube_cel::cel::objects::Key::String(field))
        .cloned();
    Ok(Value::Opaque(Arc::new(match found {
        Some(v) => OptionalValue::of(v),
        None => OptionalValue::none(),
    })))
}

/// A runtime error over the data, which the server reports as `<message> evaluating rule: …`.
pub(super) fn data_error(message: impl Into<String>) -> ExecutionError {
    ExecutionError::FunctionError {
        function: DATA_ERROR.to_string(),
        message: message.into(),
    }
}

/// The text of an error made by `data_error`.
pub(super) fn data_error_text(e: &ExecutionError) -> Option<String> {
    match e {
        ExecutionError::FunctionError { function, message } if function == DATA_ERROR => {
            Some(message.clone())
        }
        _ => None,
    }
}

/// Evaluates an expression without variables (tests).
#[cfg(test)]
pub(super) fn eval(expr: &str) -> Result<Value, ExecutionError> {
    let program = Program::compile(expr).expect("the expression parses");
    program.execute(&context())
}
