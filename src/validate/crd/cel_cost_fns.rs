//! The cost of one call in the CRD estimate: Kubernetes' library estimates first (k8s.io/apiserver
//! `pkg/cel/library/cost.go` `EstimateCallCost`, for the string and list functions), then
//! cel-go's per-overload rules (`checker/cost.go` `functionCost`), else one unit plus the
//! arguments. Functions and operand types kssa does not model give no estimate.

use super::cel_cost::{CelType, Coster, Entries, Range, Scalar};
use crate::kube::VersionRange;
use kube_cel::cel::common::ast::{operators, Expr, LiteralValue};
use kube_cel::cel::parser::Expression;

/// `common.StringTraversalCostFactor`.
pub(super) const STRING_TRAVERSAL: f64 = 0.1;
/// `common.RegexStringLengthCostFactor`.
const REGEX_LENGTH: f64 = 0.25;

pub(super) struct CallSite<'a> {
    pub call: &'a Expression,
    pub name: &'a str,
    pub target: Option<&'a Expression>,
    pub args: &'a [Expression],
    pub arg_costs: &'a [Range],
}

impl CallSite<'_> {
    pub(super) fn args_cost(&self) -> Range {
        self.arg_costs
            .iter()
            .fold(Range::fixed(0), |sum, c| sum.add(*c))
    }

    /// One unit plus the arguments: cel-go's cost of every O(1) function.
    pub(super) fn nominal(&self) -> Range {
        Range::fixed(1).add(self.args_cost())
    }
}

/// The call's cost (with its arguments, without its target) and the size of its result, if the
/// estimate knows it. Records the call's type (and path, for an index).
pub(super) fn function_cost(c: &mut Coster, site: &CallSite) -> Option<(Range, Option<Range>)> {
    let arg_ty: Vec<CelType> = site.args.iter().map(|a| c.ty(a)).collect();
    let target_ty = site.target.map(|t| c.ty(t));
    if let Some(target) = site.target {
        if let Some(found) = library(c, site, target, target_ty.as_ref()?) {
            return Some(found);
        }
    }
    let (cost, size, ty) = match (site.name, site.target.is_some(), arg_ty.as_slice()) {
        (operators::LOGICAL_AND | operators::LOGICAL_OR, false, [_, _]) => {
            let (lhs, rhs) = (site.arg_costs[0], site.arg_costs[1]);
            let cost = Range {
                min: lhs.min,
                max: lhs.add(rhs).max,
            };
            (cost, None, CelType::Scalar(Scalar::Bool))
        }
        (operators::LOGICAL_NOT | operators::NOT_STRICTLY_FALSE, false, [_]) => {
            (site.nominal(), None, CelType::Scalar(Scalar::Bool))
        }
        (operators::NEGATE, false, [t]) => (site.nominal(), None, t.clone()),
        (operators::EQUALS, false, [CelType::Opaque(l), CelType::Opaque(r)]) if l == r => {
            // Kubernetes prices equal quantities at one unit, and from 1.32 equal IPs, CIDRs
            // and semvers; URLs by a size kssa does not keep.
            let unit = *l == QUANTITY
                || (OPAQUE_EQUALITY.contains(c.version) && NET_AND_SEMVER.contains(l));
            if !unit {
                return None;
            }
            (site.nominal(), None, CelType::Scalar(Scalar::Bool))
        }
        (operators::EQUALS | operators::NOT_EQUALS, false, [_, _]) => {
            (compare_sizes(c, site), None, CelType::Scalar(Scalar::Bool))
        }
        (
            operators::LESS
            | operators::LESS_EQUALS
            | operators::GREATER
            | operators::GREATER_EQUALS,
            false,
            [l, r],
        ) => match (l, r) {
            (CelType::Dyn, _) | (_, CelType::Dyn) => return None,
            (CelType::Scalar(Scalar::String), CelType::Scalar(Scalar::String))
            | (CelType::Scalar(Scalar::Bytes), CelType::Scalar(Scalar::Bytes)) => {
                (compare_sizes(c, site), None, CelType::Scalar(Scalar::Bool))
            }
            _ => (site.nominal(), None, CelType::Scalar(Scalar::Bool)),
        },
        (operators::ADD, false, [l, r]) => return add(c, site, l, r),
        (
            operators::SUBSTRACT | operators::MULTIPLY | operators::DIVIDE | operators::MODULO,
            false,
            [l, r],
        ) => {
            let ty = match (l, r) {
                (CelType::Scalar(Scalar::Timestamp), CelType::Scalar(Scalar::Timestamp)) => {
                    CelType::Scalar(Scalar::Duration)
                }
                _ => l.clone(),
            };
            (site.nominal(), None, ty)
        }
        (operators::CONDITIONAL, false, [_, t, f]) => {
            let size = c
                .size(&site.args[1])
                .unwrap_or(Range::UNKNOWN)
                .union(c.size(&site.args[2]).unwrap_or(Range::UNKNOWN));
            let entries =
                Entries::union_of(c.entry_sizes(&site.args[1]), c.entry_sizes(&site.args[2]));
            c.set_entries(site.call, entries);
            let costs = site.arg_costs;
            let cost = costs[0].add(costs[1].union(costs[2]));
            let ty = if *t == CelType::Scalar(Scalar::Null) {
                f.clone()
            } else {
                t.clone()
            };
            (cost, Some(size), ty)
        }
        (operators::INDEX, false, [container, _]) => {
            let (step, elem) = match container {
                CelType::List(e) => ("@items", (**e).clone()),
                CelType::Map(v) => ("@values", (**v).clone()),
                _ => return None,
            };
            let size = c.entry_sizes(&site.args[0]).map(|en| en.value);
            let mut path = c.path(&site.args[0]);
            path.push(step.to_string());
            c.set_path(site.call, path);
            (site.nominal(), size, elem)
        }
        (operators::IN, false, [_, container]) => match container {
            CelType::List(_) => {
                let n = c.size(&site.args[1]).unwrap_or(Range::UNKNOWN);
                (
                    n.factor(1.0).add(site.args_cost()),
                    None,
                    CelType::Scalar(Scalar::Bool),
                )
            }
            CelType::Map(_) => (site.nominal(), None, CelType::Scalar(Scalar::Bool)),
            _ => return None,
        },
        ("cel.@mapInsert", false, [map, ..]) => (site.nominal(), None, map.clone()),
        ("size", false, [_]) | ("size", true, []) => {
            (site.nominal(), None, CelType::Scalar(Scalar::Int))
        }
        ("matches", true, [_]) => {
            let target = c.size(site.target?).unwrap_or(Range::UNKNOWN);
            let text = target.add(Range::fixed(1)).factor(STRING_TRAVERSAL);
            let regex = c
                .size(&site.args[0])
                .unwrap_or(Range::UNKNOWN)
                .factor(REGEX_LENGTH);
            (
                text.mul(regex).add(site.args_cost()),
                None,
                CelType::Scalar(Scalar::Bool),
            )
        }
        ("matches", false, [_, _]) => (site.nominal(), None, CelType::Scalar(Scalar::Bool)),
        ("startsWith" | "endsWith", true, [_]) => {
            let prefix = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
            let cost = prefix.factor(STRING_TRAVERSAL).add(site.args_cost());
            (cost, None, CelType::Scalar(Scalar::Bool))
        }
        ("contains", true, [_]) if target_ty == Some(CelType::Scalar(Scalar::String)) => {
            let text = c.size(site.target?).unwrap_or(Range::UNKNOWN);
            let sub = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
            let cost = text
                .factor(STRING_TRAVERSAL)
                .mul(sub.factor(STRING_TRAVERSAL))
                .add(site.args_cost());
            (cost, None, CelType::Scalar(Scalar::Bool))
        }
        ("bytes", false, [CelType::Scalar(Scalar::String)]) => {
            let n = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
            let cost = n.factor(STRING_TRAVERSAL).add(site.args_cost());
            let size = Range {
                min: n.min,
                max: n.max.saturating_mul(4),
            };
            (cost, Some(size), CelType::Scalar(Scalar::Bytes))
        }
        ("string", false, [CelType::Scalar(Scalar::Bytes)]) => {
            let n = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
            let cost = n.factor(STRING_TRAVERSAL).add(site.args_cost());
            let size = Range {
                min: n.min / 4,
                max: n.max,
            };
            (cost, Some(size), CelType::Scalar(Scalar::String))
        }
        ("string" | "bytes", false, [CelType::Dyn]) => return None,
        (conversion, false, [_]) => {
            let ty = match conversion {
                "int" => CelType::Scalar(Scalar::Int),
                "uint" => CelType::Scalar(Scalar::Uint),
                "double" => CelType::Scalar(Scalar::Double),
                "string" => CelType::Scalar(Scalar::String),
                "bool" => CelType::Scalar(Scalar::Bool),
                "bytes" => CelType::Scalar(Scalar::Bytes),
                "duration" => CelType::Scalar(Scalar::Duration),
                "timestamp" => CelType::Scalar(Scalar::Timestamp),
                "type" => CelType::Type,
                _ => return library_values(c, site, conversion, false, &arg_ty, None),
            };
            (site.nominal(), None, ty)
        }
        (accessor, true, [] | [_])
            if matches!(
                target_ty,
                Some(CelType::Scalar(Scalar::Timestamp) | CelType::Scalar(Scalar::Duration))
            ) && TIME_ACCESSORS.contains(&accessor) =>
        {
            (site.nominal(), None, CelType::Scalar(Scalar::Int))
        }
        (name, member, args) => return library_values(c, site, name, member, args, target_ty),
    };
    c.set_type(site.call, ty);
    Some((cost, size))
}

const URL: &str = "url";
/// The equality estimate (`case "_==_"`) appeared in 1.32; before, cel-go priced these by a
/// size kssa does not keep.
const OPAQUE_EQUALITY: VersionRange = VersionRange::since(32);
const NET_AND_SEMVER: &[&str] = &[
    super::cel_cost_net::IP,
    super::cel_cost_net::CIDR,
    super::cel_cost_net::SEMVER,
];
const QUANTITY: &str = "quantity";

/// The optionals' accessors and the URL and quantity libraries: O(1) but for parsing, which
/// traverses the string.
fn library_values(
    c: &mut Coster,
    site: &CallSite,
    name: &str,
    member: bool,
    args: &[CelType],
    target_ty: Option<CelType>,
) -> Option<(Range, Option<Range>)> {
    let string = CelType::Scalar(Scalar::String);
    let bool_ty = CelType::Scalar(Scalar::Bool);
    let net = super::cel_cost_net::values(c, site, name, member, args, target_ty.as_ref());
    if net.is_some() {
        return net;
    }
    let (cost, size, ty) = match (name, member, args, target_ty) {
        ("hasValue", true, [], Some(CelType::Optional(_))) => (site.nominal(), None, bool_ty),
        ("value", true, [], Some(CelType::Optional(t)))
        | ("orValue", true, [_], Some(CelType::Optional(t))) => (site.nominal(), None, *t),
        ("url", false, [CelType::Scalar(Scalar::String)], None) => {
            let (n, cost) = parsed(c, site);
            let size = URL_RESULT_SIZE.contains(c.version).then_some(n);
            (cost, size, CelType::Opaque(URL))
        }
        ("isURL", false, [CelType::Scalar(Scalar::String)], None) => {
            (site.nominal(), None, bool_ty)
        }
        (accessor, true, [], Some(CelType::Opaque(URL))) => {
            let ty = match accessor {
                "getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath" => string,
                "getQuery" => CelType::Map(Box::new(CelType::List(Box::new(string)))),
                _ => return None,
            };
            (site.nominal(), None, ty)
        }
        ("quantity" | "isQuantity", false, [CelType::Scalar(Scalar::String)], None) => {
            let priced = PARSE_PRICED.iter().any(|r| r.contains(c.version));
            let cost = if priced {
                parsed(c, site).1
            } else {
                site.nominal()
            };
            let ty = if name == "quantity" {
                CelType::Opaque(QUANTITY)
            } else {
                bool_ty
            };
            (cost, None, ty)
        }
        (method, true, _, Some(CelType::Opaque(QUANTITY))) => {
            let ty = match method {
                "sign" | "asInteger" | "compareTo" => CelType::Scalar(Scalar::Int),
                "isInteger" | "isGreaterThan" | "isLessThan" => bool_ty,
                "asApproximateFloat" => CelType::Scalar(Scalar::Double),
                "add" | "sub" => CelType::Opaque(QUANTITY),
                _ => return None,
            };
            (site.nominal(), None, ty)
        }
        _ => return None,
    };
    c.set_type(site.call, ty);
    Some((cost, size))
}

/// A global parser's argument size and cost: one traversal of the string it parses, plus its
/// arguments.
pub(super) fn parsed(c: &mut Coster, site: &CallSite) -> (Range, Range) {
    let n = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
    (n, n.factor(STRING_TRAVERSAL).add(site.args_cost()))
}

/// `url()` gives its argument's size as its result's from Kubernetes 1.32.
const URL_RESULT_SIZE: VersionRange = VersionRange::since(32);
/// The global parsers (`quantity()`, `isQuantity()`, `ip()`, `cidr()`, `isIP()`, `isCIDR()`,
/// `semver()`, `isSemver()`) are priced by the string they parse, except in 1.33: its estimator
/// then looked for a receiver these functions do not have, and cel-go no longer passed an
/// empty one (before, it always did).
pub(super) const PARSE_PRICED: [VersionRange; 2] =
    [VersionRange::until(32), VersionRange::since(34)];

/// The timestamp and duration accessors, all O(1).
const TIME_ACCESSORS: &[&str] = &[
    "getFullYear",
    "getMonth",
    "getDate",
    "getDayOfMonth",
    "getDayOfWeek",
    "getDayOfYear",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
];

/// The string and byte comparisons and (in)equality: the shorter operand traversed.
fn compare_sizes(c: &mut Coster, site: &CallSite) -> Range {
    let lhs = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
    let rhs = c.size(&site.args[1]).unwrap_or(Range::UNKNOWN);
    let smallest_max = lhs.max.min(rhs.max);
    let cost = Range {
        min: u64::from(smallest_max > 0),
        max: smallest_max,
    };
    cost.factor(STRING_TRAVERSAL).add(site.args_cost())
}

/// `_+_`: strings and bytes cost their result's traversal, lists one unit; sizes add up.
fn add(
    c: &mut Coster,
    site: &CallSite,
    l: &CelType,
    r: &CelType,
) -> Option<(Range, Option<Range>)> {
    let sized = |c: &mut Coster| {
        let lhs = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
        let rhs = c.size(&site.args[1]).unwrap_or(Range::UNKNOWN);
        let entries = Entries::union_of(c.entry_sizes(&site.args[0]), c.entry_sizes(&site.args[1]));
        c.set_entries(site.call, entries);
        lhs.add(rhs)
    };
    let (cost, size, ty) = match (l, r) {
        (CelType::Dyn, _) | (_, CelType::Dyn) => return None,
        (CelType::Scalar(Scalar::String), CelType::Scalar(Scalar::String))
        | (CelType::Scalar(Scalar::Bytes), CelType::Scalar(Scalar::Bytes)) => {
            let size = sized(c);
            let cost = size.factor(STRING_TRAVERSAL).add(site.args_cost());
            (cost, Some(size), l.clone())
        }
        (CelType::List(_), CelType::List(_)) => {
            let size = sized(c);
            let ty = if matches!(l, CelType::List(e) if **e == CelType::Dyn) {
                r.clone()
            } else {
                l.clone()
            };
            (site.nominal(), Some(size), ty)
        }
        (CelType::Scalar(Scalar::Duration), CelType::Scalar(Scalar::Timestamp)) => {
            (site.nominal(), None, CelType::Scalar(Scalar::Timestamp))
        }
        (
            CelType::Scalar(Scalar::Int)
            | CelType::Scalar(Scalar::Uint)
            | CelType::Scalar(Scalar::Double)
            | CelType::Scalar(Scalar::Timestamp)
            | CelType::Scalar(Scalar::Duration),
            _,
        ) => (site.nominal(), None, l.clone()),
        _ => return None,
    };
    c.set_type(site.call, ty);
    Some((cost, size))
}

/// Kubernetes' estimates of its string and list library functions on a member call; `None`
/// when the call is not one of them.
fn library(
    c: &mut Coster,
    site: &CallSite,
    target: &Expression,
    target_ty: &CelType,
) -> Option<(Range, Option<Range>)> {
    let n = c.size(target).unwrap_or(Range::UNKNOWN);
    let args = site.args_cost();
    let (cost, size, ty) = match (site.name, target_ty) {
        ("lowerAscii" | "upperAscii" | "trim" | "substring", CelType::Scalar(Scalar::String)) => (
            n.factor(STRING_TRAVERSAL),
            Some(n),
            CelType::Scalar(Scalar::String),
        ),
        ("indexOf" | "lastIndexOf", CelType::Scalar(Scalar::String)) => (
            n.factor(STRING_TRAVERSAL),
            None,
            CelType::Scalar(Scalar::Int),
        ),
        ("isSorted" | "sum" | "min" | "max" | "indexOf" | "lastIndexOf", CelType::List(elem)) => {
            let mut per_item = Range::fixed(1);
            if matches!(
                **elem,
                CelType::Scalar(Scalar::String) | CelType::Scalar(Scalar::Bytes)
            ) {
                let item = element_size(c, target);
                per_item = per_item.add(item.factor(STRING_TRAVERSAL));
            }
            let ty = match site.name {
                "isSorted" => CelType::Scalar(Scalar::Bool),
                "indexOf" | "lastIndexOf" => CelType::Scalar(Scalar::Int),
                _ => (**elem).clone(),
            };
            (n.mul(per_item), None, ty)
        }
        ("replace", CelType::Scalar(Scalar::String)) if site.args.len() >= 2 => {
            let size = replaced_size(
                n,
                c.size(&site.args[0]).unwrap_or(Range::UNKNOWN),
                c.size(&site.args[1]).unwrap_or(Range::UNKNOWN),
            );
            (
                n.factor(2.0 * STRING_TRAVERSAL),
                Some(size),
                CelType::Scalar(Scalar::String),
            )
        }
        ("split", CelType::Scalar(Scalar::String)) => {
            let mut max = n.max;
            if let Some(Expr::Literal(LiteralValue::Int(limit))) = site.args.get(1).map(|a| &a.expr)
            {
                max = *limit.inner() as u64;
            }
            let size = Range { min: 0, max };
            let ty = CelType::List(Box::new(CelType::Scalar(Scalar::String)));
            (n.factor(2.0 * STRING_TRAVERSAL), Some(size), ty)
        }
        ("join", CelType::List(_)) => {
            let mut size = n.mul(element_size(c, target));
            if let Some(sep) = site.args.first() {
                let sep = c.size(sep).unwrap_or(Range::UNKNOWN);
                let separators = Range {
                    min: n.min.saturating_sub(1),
                    max: n.max.saturating_sub(1),
                };
                size = size.add(sep.mul(separators));
            }
            (
                size.factor(STRING_TRAVERSAL),
                Some(size),
                CelType::Scalar(Scalar::String),
            )
        }
        ("find" | "findAll", CelType::Scalar(Scalar::String)) if !site.args.is_empty() => {
            let text = n.add(Range::fixed(1)).factor(STRING_TRAVERSAL);
            let regex = c
                .size(&site.args[0])
                .unwrap_or(Range::UNKNOWN)
                .factor(REGEX_LENGTH);
            let ty = if site.name == "find" {
                CelType::Scalar(Scalar::String)
            } else {
                CelType::List(Box::new(CelType::Scalar(Scalar::String)))
            };
            (text.mul(regex), Some(Range { min: 0, max: n.max }), ty)
        }
        _ => return None,
    };
    c.set_type(site.call, ty);
    Some((cost.add(args), size))
}

/// The size of a list's items (`listElementNode`): the schema's bound below the list's path.
fn element_size(c: &Coster, list: &Expression) -> Range {
    let mut path = c.path(list);
    if path.is_empty() {
        return Range::UNKNOWN;
    }
    path.push("@items".to_string());
    c.size_at(&path).unwrap_or(Range::UNKNOWN)
}

/// The size of `s.replace(old, new)`: the most and fewest replacements times the replacement,
/// plus what is kept.
fn replaced_size(s: Range, old: Range, new: Range) -> Range {
    let (mut count, mut kept) = (Range::fixed(0), Range::fixed(0));
    if old.min == 0 {
        count.max = s.max.saturating_add(u64::from(s.max < u64::MAX));
        kept.max = s.max;
    } else if new.max <= old.min {
        kept.max = s.max;
    } else {
        count.max = (s.max as f64 / old.min as f64).ceil() as u64;
    }
    if old.max == 0 {
        count.min = s.min.saturating_add(u64::from(s.min < u64::MAX));
        kept.min = s.min;
    } else if old.max <= new.min {
        kept.min = s.min;
    } else {
        count.min = (s.min as f64 / old.max as f64).ceil() as u64;
    }
    count.mul(new).add(kept)
}
