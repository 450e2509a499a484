//! Comprehension variables as cel-go's estimator tracks them (`pushIterSingle`,
//! `pushIterKey`, `pushIterValue`: a list's indexes and items, a map's keys and values), and
//! cel-go's two-variable comprehension macros (`ext/comprehensions.go`: `all`, `exists`,
//! `existsOne`, `transformList`, `transformMap`, `transformMapEntry`), which the `cel` crate
//! leaves as calls: rebuilt here as the comprehension cel-go expands them to, so that the
//! estimate prices them as cel-go does.

use super::cel_cost::{CelType, Coster, Local, Range, Scalar};
use kube_cel::cel::common::ast::{
    operators, CallExpr, ComprehensionExpr, Expr, ListExpr, LiteralValue, MapExpr,
};
use kube_cel::cel::parser::Expression;

/// The name cel-go gives the accumulator of the macros it expands.
const ACCUMULATOR: &str = "@result";

/// Builds expressions with ids of their own, counting down from the top of the id space (the
/// parser counts up from 1).
struct Builder<'c> {
    next_id: &'c mut u64,
}

impl Builder<'_> {
    fn node(&mut self, expr: Expr) -> Expression {
        *self.next_id -= 1;
        Expression {
            id: *self.next_id,
            expr,
        }
    }
    fn accu(&mut self) -> Expression {
        self.node(Expr::Ident(ACCUMULATOR.to_string()))
    }
    fn literal(&mut self, v: LiteralValue) -> Expression {
        self.node(Expr::Literal(v))
    }
    fn call(&mut self, name: &str, args: Vec<Expression>) -> Expression {
        self.node(Expr::Call(CallExpr {
            func_name: name.to_string(),
            target: None,
            args,
        }))
    }
}

impl Coster {
    /// The cost of `target.name(k, v, …)` if it is one of the two-variable macros; `None` when
    /// it is not, or when its variables are not plain names.
    pub(super) fn two_variable_macro(&mut self, e: &Expression, call: &CallExpr) -> Option<Range> {
        let target = call.target.as_deref()?;
        let (var1, var2) = match (call.args.first(), call.args.get(1)) {
            (Some(a), Some(b)) => match (&a.expr, &b.expr) {
                (Expr::Ident(a), Expr::Ident(b)) => (a.clone(), b.clone()),
                _ => return None,
            },
            _ => return None,
        };
        let rest = &call.args[2..];
        let mut next_id = self.next_synthetic_id;
        let mut b = Builder {
            next_id: &mut next_id,
        };
        let (init, cond, step, result) = match (call.func_name.as_str(), rest) {
            ("all", [pred]) => {
                let cond = {
                    let accu = b.accu();
                    b.call(operators::NOT_STRICTLY_FALSE, vec![accu])
                };
                let accu = b.accu();
                let step = b.call(operators::LOGICAL_AND, vec![accu, pred.clone()]);
                (
                    b.literal(LiteralValue::Boolean(true.into())),
                    cond,
                    step,
                    b.accu(),
                )
            }
            ("exists", [pred]) => {
                let cond = {
                    let accu = b.accu();
                    let not = b.call(operators::LOGICAL_NOT, vec![accu]);
                    b.call(operators::NOT_STRICTLY_FALSE, vec![not])
                };
                let accu = b.accu();
                let step = b.call(operators::LOGICAL_OR, vec![accu, pred.clone()]);
                (
                    b.literal(LiteralValue::Boolean(false.into())),
                    cond,
                    step,
                    b.accu(),
                )
            }
            ("existsOne" | "exists_one", [pred]) => {
                let accu = b.accu();
                let one = b.literal(LiteralValue::Int(1.into()));
                let plus = b.call(operators::ADD, vec![accu, one]);
                let accu = b.accu();
                let step = b.call(operators::CONDITIONAL, vec![pred.clone(), plus, accu]);
                let accu = b.accu();
                let one = b.literal(LiteralValue::Int(1.into()));
                let result = b.call(operators::EQUALS, vec![accu, one]);
                let cond = b.literal(LiteralValue::Boolean(true.into()));
                (b.literal(LiteralValue::Int(0.into())), cond, step, result)
            }
            ("transformList", [.., transform]) if rest.len() <= 2 => {
                let accu = b.accu();
                let item = b.node(Expr::List(ListExpr::new(vec![transform.clone()])));
                let step = b.call(operators::ADD, vec![accu, item]);
                let step = filtered(&mut b, rest, step);
                let init = b.node(Expr::List(ListExpr::new(Vec::new())));
                let cond = b.literal(LiteralValue::Boolean(true.into()));
                (init, cond, step, b.accu())
            }
            ("transformMap" | "transformMapEntry", [.., transform]) if rest.len() <= 2 => {
                let accu = b.accu();
                let mut args = vec![accu];
                if call.func_name == "transformMap" {
                    args.push(b.node(Expr::Ident(var1.clone())));
                }
                args.push(transform.clone());
                let step = b.call("cel.@mapInsert", args);
                let step = filtered(&mut b, rest, step);
                let init = b.node(Expr::Map(MapExpr::default()));
                let cond = b.literal(LiteralValue::Boolean(true.into()));
                (init, cond, step, b.accu())
            }
            _ => return None,
        };
        let comprehension = ComprehensionExpr {
            iter_range: target.clone(),
            iter_var: var1,
            iter_var2: Some(var2),
            accu_var: ACCUMULATOR.to_string(),
            accu_init: init,
            loop_cond: cond,
            loop_step: step,
            result,
        };
        self.next_synthetic_id = next_id;
        self.comprehension(e, &comprehension)
    }

    /// `pushIterSingle`: the variable's path is the range's, into its items (lists) or keys.
    pub(super) fn iteration_variable(
        &mut self,
        name: &str,
        range: &Expression,
        range_ty: &CelType,
    ) -> Option<Local> {
        let entries = self.entry_sizes(range);
        let list = match entries {
            Some(en) => en.list,
            None => matches!(range_ty, CelType::List(_)),
        };
        let ty = match range_ty {
            CelType::List(t) => (**t).clone(),
            CelType::Map(_) => CelType::Scalar(Scalar::String),
            CelType::Dyn => CelType::Dyn,
            _ => return None,
        };
        let mut path = self.path(range);
        if !self.tracked_locals && !matches!(range_ty, CelType::List(_) | CelType::Map(_)) {
            // Before 1.33 a variable over a `dyn` range had no path at all.
            path.clear();
        } else {
            path.push(if list { "@items" } else { "@keys" }.to_string());
        }
        let size = if list {
            entries.map(|en| en.value)
        } else {
            entries.map(|en| en.key)
        };
        Some(Local {
            name: name.to_string(),
            path,
            size: size.filter(|_| self.tracked_locals),
            entries: None,
            ty,
        })
    }

    /// `pushIterKey` and `pushIterValue`: a list's index and item, a map's key and value.
    pub(super) fn iteration_pair(
        &mut self,
        key: &str,
        value: &str,
        range: &Expression,
        range_ty: &CelType,
    ) -> Option<[Local; 2]> {
        let entries = self.entry_sizes(range);
        let list = match entries {
            Some(en) => en.list,
            None => matches!(range_ty, CelType::List(_)),
        };
        let (key_ty, value_ty) = match range_ty {
            CelType::List(t) => (CelType::Scalar(Scalar::Int), (**t).clone()),
            CelType::Map(t) => (CelType::Scalar(Scalar::String), (**t).clone()),
            _ => return None,
        };
        let path = self.path(range);
        let with = |step: &str| {
            let mut p = path.clone();
            p.push(step.to_string());
            p
        };
        let (key_step, value_step) = if list {
            ("@indices", "@items")
        } else {
            ("@keys", "@values")
        };
        Some([
            Local {
                name: key.to_string(),
                path: with(key_step),
                size: entries.map(|en| en.key),
                entries: None,
                ty: key_ty,
            },
            Local {
                name: value.to_string(),
                path: with(value_step),
                size: entries.map(|en| en.value),
                entries: None,
                ty: value_ty,
            },
        ])
    }
}

/// A step kept only where the macro's filter (the argument before the transform) holds.
fn filtered(b: &mut Builder, rest: &[Expression], step: Expression) -> Expression {
    match rest {
        [filter, _] => {
            let accu = b.accu();
            b.call(operators::CONDITIONAL, vec![filter.clone(), step, accu])
        }
        _ => step,
    }
}
