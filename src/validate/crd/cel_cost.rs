//! The static cost estimate the API server computes for a CRD's CEL rules when the CRD is
//! written (cel-go `checker/cost.go` `Cost`, with k8s.io/apiserver `pkg/cel/library/cost.go`
//! `CostEstimator` and apiextensions' `sizeEstimator` over the schema). Only the worst case
//! (`Max`) is kept: it is what the budget is compared with.
//!
//! The estimate follows cel-go's walk over the checked expression: the types it needs (for
//! overloads and field selections) are derived here from the schema. Wherever kssa cannot be
//! sure of cel-go's overload (a `dyn` operand, a function it does not model, optional syntax),
//! it gives no estimate, so that no rule the server accepts is refused.

pub use super::cel_budget::CostBudget;
use super::cel_cost_decl::DeclKind;
pub use super::cel_cost_decl::{decl, max_children, request_cardinality, Decl};
use super::cel_cost_fns::{function_cost, CallSite};
pub use super::cel_cost_types::{CelType, Entries, Range};
pub use super::cel_decl::Scalar;
use crate::kube::{KubeVersion, VersionRange};
use kube_cel::cel::common::ast::{operators, EntryExpr, Expr, LiteralValue};
use kube_cel::cel::parser::{Expression, Parser};
use std::collections::HashMap;
use std::sync::Arc;

/// cel-go v0.23 (Kubernetes 1.33) reworked the estimator: local variables carry sizes, and
/// list and map entries are tracked. Before, a comprehension's size was always its range's.
const TRACKED_LOCALS: VersionRange = VersionRange::since(33);

pub(super) struct Local {
    pub(super) name: String,
    pub(super) path: Vec<String>,
    pub(super) size: Option<Range>,
    pub(super) entries: Option<Entries>,
    pub(super) ty: CelType,
}

/// `multiplyWithOverflowGuard`: a rule's cost times how often it runs, at most `u64::MAX`.
pub fn saturating_product(cost: u64, times: u64) -> u64 {
    cost.saturating_mul(times)
}

/// The estimated worst-case cost of `source` with `self` (and `oldSelf`, an optional with
/// `optional_old_self`) declared as `root`; `None` where kssa cannot reproduce cel-go's
/// estimate.
pub fn estimate(
    source: &str,
    root: &Arc<Decl>,
    version: KubeVersion,
    optional_old_self: bool,
) -> Option<u64> {
    let expr = Parser::new()
        .enable_optional_syntax(true)
        .parse(source)
        .ok()?;
    let mut coster = Coster {
        root: root.clone(),
        version,
        next_synthetic_id: u64::MAX,
        tracked_locals: TRACKED_LOCALS.contains(version),
        locals: Vec::new(),
        paths: HashMap::new(),
        sizes: HashMap::new(),
        entries: HashMap::new(),
        types: HashMap::new(),
    };
    for var in ["self", "oldSelf"] {
        let ty = match (var, optional_old_self) {
            ("oldSelf", true) => CelType::Optional(Box::new(CelType::of(root))),
            _ => CelType::of(root),
        };
        coster.locals.push(Local {
            name: var.to_string(),
            path: vec![var.to_string()],
            size: None,
            entries: None,
            ty,
        });
    }
    coster.cost(&expr).map(|c| c.max)
}

pub(super) struct Coster {
    root: Arc<Decl>,
    pub(super) version: KubeVersion,
    /// The next id for the expressions of an expanded two-variable macro.
    pub(super) next_synthetic_id: u64,
    pub(super) tracked_locals: bool,
    locals: Vec<Local>,
    paths: HashMap<u64, Vec<String>>,
    sizes: HashMap<u64, Range>,
    entries: HashMap<u64, Entries>,
    types: HashMap<u64, CelType>,
}

/// The macros of cel-go's two-variable comprehension library (three or four arguments).
const TWO_VARIABLE_MACROS: &[&str] = &[
    "all",
    "exists",
    "existsOne",
    "exists_one",
    "transformList",
    "transformMap",
    "transformMapEntry",
];

const SELECT_AND_IDENT: Range = Range::fixed(1);
const LIST_CREATE: Range = Range::fixed(10);
const MAP_CREATE: Range = Range::fixed(30);

impl Coster {
    fn cost(&mut self, e: &Expression) -> Option<Range> {
        let cost = match &e.expr {
            Expr::Literal(l) => {
                self.types
                    .insert(e.id, CelType::Scalar(Scalar::of_literal(l)));
                Range::fixed(0)
            }
            Expr::Ident(name) => self.ident(e, name)?,
            Expr::Select(sel) => {
                let operand = self.cost(&sel.operand)?;
                if sel.test {
                    // `has()`: free in Kubernetes (`PresenceTestHasCost(false)`).
                    self.types.insert(e.id, CelType::Scalar(Scalar::Bool));
                    return Some(operand);
                }
                let operand_ty = self.ty(&sel.operand);
                let (field_ty, select) = match &operand_ty {
                    CelType::Object(decl) => {
                        let DeclKind::Object(fields) = &decl.kind else {
                            return None;
                        };
                        (
                            CelType::of(fields.get(sel.field.as_str())?),
                            SELECT_AND_IDENT,
                        )
                    }
                    CelType::Map(v) => ((**v).clone(), SELECT_AND_IDENT),
                    CelType::Dyn => (CelType::Dyn, Range::fixed(0)),
                    _ => return None,
                };
                let mut path = self.path(&sel.operand);
                path.push(sel.field.to_string());
                self.paths.insert(e.id, path);
                self.types.insert(e.id, field_ty);
                operand.add(select)
            }
            Expr::Call(call) => self.call(e, call)?,
            Expr::List(list) => {
                if !list.optional_indices.is_empty() {
                    return None;
                }
                let mut sum = Range::fixed(0);
                let mut item = if list.elements.is_empty() {
                    Range::fixed(0)
                } else {
                    Range {
                        min: u64::MAX,
                        max: 0,
                    }
                };
                let mut elem_ty = None;
                for el in &list.elements {
                    sum = sum.add(self.cost(el)?);
                    item = item.union(self.size(el).unwrap_or(Range::UNKNOWN));
                    let t = self.ty(el);
                    elem_ty = Some(match elem_ty {
                        Some(prev) if prev != t => CelType::Dyn,
                        _ => t,
                    });
                }
                self.entries.insert(
                    e.id,
                    Entries {
                        list: true,
                        key: Range::fixed(1),
                        value: item,
                    },
                );
                let elem = elem_ty.unwrap_or(CelType::Dyn);
                self.types.insert(e.id, CelType::List(Box::new(elem)));
                sum.add(LIST_CREATE)
            }
            Expr::Map(map) => {
                let mut sum = Range::fixed(0);
                let empty = map.entries.is_empty();
                let start = Range {
                    min: if empty { 0 } else { u64::MAX },
                    max: 0,
                };
                let (mut keys, mut values) = (start, start);
                for entry in &map.entries {
                    let EntryExpr::MapEntry(m) = &entry.expr else {
                        return None;
                    };
                    if m.optional {
                        return None;
                    }
                    sum = sum.add(self.cost(&m.key)?).add(self.cost(&m.value)?);
                    keys = keys.union(self.size(&m.key).unwrap_or(Range::UNKNOWN));
                    values = values.union(self.size(&m.value).unwrap_or(Range::UNKNOWN));
                }
                self.entries.insert(
                    e.id,
                    Entries {
                        list: false,
                        key: keys,
                        value: values,
                    },
                );
                self.types
                    .insert(e.id, CelType::Map(Box::new(CelType::Dyn)));
                sum.add(MAP_CREATE)
            }
            Expr::Comprehension(c) => self.comprehension(e, c)?,
            Expr::Struct(_) | Expr::Unspecified => return None,
        };
        Some(cost)
    }

    fn ident(&mut self, e: &Expression, name: &str) -> Option<Range> {
        let local = self.locals.iter().rev().find(|l| l.name == name)?;
        let (path, ty) = (local.path.clone(), local.ty.clone());
        self.paths.insert(e.id, path);
        self.types.insert(e.id, ty);
        Some(SELECT_AND_IDENT)
    }

    fn call(
        &mut self,
        e: &Expression,
        call: &kube_cel::cel::common::ast::CallExpr,
    ) -> Option<Range> {
        let name = call.func_name.as_str();
        if name == operators::OPT_SELECT || name == operators::OPT_INDEX {
            return None;
        }
        if TWO_VARIABLE_MACROS.contains(&name) && call.args.len() >= 3 {
            return self.two_variable_macro(e, call);
        }
        if name == "dyn" && call.target.is_none() && call.args.len() == 1 {
            // `dyn(x)` only hides a type: one unit plus its argument, with its sizes.
            let arg = &call.args[0];
            let cost = self.cost(arg)?;
            if let Some(s) = self.size(arg) {
                self.sizes.insert(e.id, s);
            }
            if let Some(en) = self.entry_sizes(arg) {
                self.entries.insert(e.id, en);
            }
            self.types.insert(e.id, CelType::Dyn);
            return Some(Range::fixed(1).add(cost));
        }
        let mut arg_costs = Vec::with_capacity(call.args.len());
        for a in &call.args {
            arg_costs.push(self.cost(a)?);
        }
        let mut sum = Range::fixed(0);
        if let Some(t) = &call.target {
            sum = sum.add(self.cost(t)?);
        }
        let site = CallSite {
            call: e,
            name,
            target: call.target.as_deref(),
            args: &call.args,
            arg_costs: &arg_costs,
        };
        let (fn_cost, result_size) = function_cost(self, &site)?;
        match result_size {
            Some(s) => {
                self.sizes.insert(e.id, s);
            }
            None => {
                if let Some(s) = self.size(e) {
                    self.sizes.insert(e.id, s);
                }
            }
        }
        Some(sum.add(fn_cost))
    }

    pub(super) fn comprehension(
        &mut self,
        e: &Expression,
        c: &kube_cel::cel::common::ast::ComprehensionExpr,
    ) -> Option<Range> {
        let mut sum = self.cost(&c.iter_range)?;
        sum = sum.add(self.cost(&c.accu_init)?);
        let range_ty = self.ty(&c.iter_range);
        let accu_ty = self.ty(&c.accu_init);
        let accu = Local {
            name: c.accu_var.clone(),
            path: self.path(&c.accu_init),
            size: self.local_size(&c.accu_init),
            entries: self.local_entries(&c.accu_init),
            ty: accu_ty,
        };
        self.locals.push(accu);
        let pushed = match &c.iter_var2 {
            // Two-variable comprehensions came with cel-go 0.22's estimator, whose second
            // variable had no path; kssa prices them from 1.33 only.
            Some(_) if !self.tracked_locals => return None,
            Some(value) => {
                let pair = self.iteration_pair(&c.iter_var, value, &c.iter_range, &range_ty)?;
                self.locals.extend(pair);
                2
            }
            None => {
                let iter = self.iteration_variable(&c.iter_var, &c.iter_range, &range_ty)?;
                self.locals.push(iter);
                1
            }
        };
        let loop_cost = self.cost(&c.loop_cond)?;
        let step_cost = self.cost(&c.loop_step)?;
        self.locals.truncate(self.locals.len() - pushed);
        // The accumulator of `map` and `filter` holds what the step appends.
        if let (CelType::List(_), Some(elem)) = (self.ty(&c.accu_init), appended(&c.loop_step)) {
            let elem_ty = self.ty(elem);
            if let Some(l) = self.locals.last_mut() {
                l.ty = CelType::List(Box::new(elem_ty));
            }
        }
        sum = sum.add(self.cost(&c.result)?);
        self.locals.pop();
        let count = self.size(&c.iter_range).unwrap_or(Range::UNKNOWN);
        sum = sum.add(count.mul(step_cost.add(loop_cost)));
        let result_ty = self.ty(&c.result);
        self.types.insert(e.id, result_ty);
        if !self.tracked_locals {
            self.sizes.insert(e.id, count);
            return Some(sum);
        }
        match &c.accu_init.expr {
            Expr::Literal(_) => {
                if let Some(s) = self.size(&c.accu_init) {
                    self.sizes.insert(e.id, s);
                }
            }
            Expr::List(_) | Expr::Map(_) => {
                self.sizes.insert(e.id, count);
                if let Some(en) = self.entry_sizes(&c.loop_step) {
                    self.entries.insert(e.id, en);
                }
            }
            _ => {}
        }
        Some(sum)
    }

    fn local_size(&mut self, e: &Expression) -> Option<Range> {
        if self.tracked_locals {
            self.size(e)
        } else {
            None
        }
    }

    fn local_entries(&self, e: &Expression) -> Option<Entries> {
        if self.tracked_locals {
            self.entry_sizes(e)
        } else {
            None
        }
    }

    pub(super) fn ty(&self, e: &Expression) -> CelType {
        self.types.get(&e.id).cloned().unwrap_or(CelType::Dyn)
    }

    pub(super) fn set_type(&mut self, e: &Expression, ty: CelType) {
        self.types.insert(e.id, ty);
    }

    /// `getPath`: a local variable's path, or the one recorded for the expression; empty for
    /// the accumulators, whose paths cel-go never gives the estimator.
    pub(super) fn path(&self, e: &Expression) -> Vec<String> {
        let path = match self.local_of(e) {
            Some(l) => l.path.clone(),
            None => self.paths.get(&e.id).cloned().unwrap_or_default(),
        };
        if path
            .first()
            .is_some_and(|p| p == "@result" || p == "__result__")
        {
            return Vec::new();
        }
        path
    }

    pub(super) fn set_path(&mut self, e: &Expression, path: Vec<String>) {
        self.paths.insert(e.id, path);
    }

    /// `computeSize`: what the expression itself tells, else the schema's bound at its path,
    /// else 1 for fixed-size types, else a local variable's size.
    pub(super) fn size(&mut self, e: &Expression) -> Option<Range> {
        if let Some(s) = self.sizes.get(&e.id) {
            return Some(*s);
        }
        if let Some(s) = literal_size(e) {
            return Some(s);
        }
        let path = self.path(e);
        if !path.is_empty() {
            if let Some(node) = self.root.at_path(&path) {
                let s = Range {
                    min: 0,
                    max: node.max_elements,
                };
                self.sizes.insert(e.id, s);
                return Some(s);
            }
        }
        if self.ty(e).is_scalar() {
            return Some(Range::fixed(1));
        }
        self.local_of(e).and_then(|l| l.size)
    }

    /// The schema's bound at `path` (`EstimateSize` for nodes that are no expression).
    pub(super) fn size_at(&self, path: &[String]) -> Option<Range> {
        if path.is_empty() {
            return None;
        }
        self.root.at_path(path).map(|node| Range {
            min: 0,
            max: node.max_elements,
        })
    }

    pub(super) fn set_entries(&mut self, e: &Expression, entries: Option<Entries>) {
        if let (true, Some(en)) = (self.tracked_locals, entries) {
            self.entries.insert(e.id, en);
        }
    }

    pub(super) fn entry_sizes(&self, e: &Expression) -> Option<Entries> {
        if let Some(en) = self.entries.get(&e.id) {
            return Some(*en);
        }
        self.local_of(e).and_then(|l| l.entries)
    }

    /// The innermost local variable `e` names, if it is an identifier.
    fn local_of(&self, e: &Expression) -> Option<&Local> {
        let Expr::Ident(name) = &e.expr else {
            return None;
        };
        self.locals.iter().rev().find(|l| &l.name == name)
    }
}

/// The element a `map` or `filter` step appends (`@result + [x]`, possibly under `?:`).
fn appended(step: &Expression) -> Option<&Expression> {
    let Expr::Call(call) = &step.expr else {
        return None;
    };
    match call.func_name.as_str() {
        operators::ADD => match &call.args.get(1)?.expr {
            Expr::List(l) if l.elements.len() == 1 => l.elements.first(),
            _ => None,
        },
        operators::CONDITIONAL => appended(call.args.get(1)?),
        _ => None,
    }
}

/// `computeExprSize`: a literal's size (characters of a string, bytes, 1 for other scalars),
/// the entries of a list or map literal.
pub(super) fn literal_size(e: &Expression) -> Option<Range> {
    let n = match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => s.inner().chars().count() as u64,
        Expr::Literal(LiteralValue::Bytes(b)) => b.inner().len() as u64,
        Expr::Literal(_) => 1,
        Expr::List(l) => l.elements.len() as u64,
        Expr::Map(m) => m.entries.len() as u64,
        _ => return None,
    };
    Some(Range::fixed(n))
}
