//! What cel-go's estimator computes with (`checker/cost.go`): cost and size ranges
//! (`CostEstimate`, `SizeEstimate`, `entrySizeEstimate`) with saturating arithmetic and cost
//! factors rounded up, and the types of subexpressions as far as the estimate needs them.

use super::cel_cost_decl::{Decl, DeclKind};
use super::cel_decl::Scalar;
use std::sync::Arc;

/// A cost or size range; arithmetic saturates at `u64::MAX` as cel-go's does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub min: u64,
    pub max: u64,
}

impl Range {
    pub const UNKNOWN: Range = Range {
        min: 0,
        max: u64::MAX,
    };
    pub const fn fixed(v: u64) -> Range {
        Range { min: v, max: v }
    }
    pub fn add(self, o: Range) -> Range {
        Range {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
    pub fn mul(self, o: Range) -> Range {
        Range {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }
    /// `MultiplyByCostFactor`: each bound times `factor`, rounded up.
    pub fn factor(self, factor: f64) -> Range {
        Range {
            min: by_factor(self.min, factor),
            max: by_factor(self.max, factor),
        }
    }
    pub fn union(self, o: Range) -> Range {
        Range {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

fn by_factor(x: u64, factor: f64) -> u64 {
    let product = (x as f64 * factor).ceil();
    if product >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        product as u64
    }
}

/// The sizes of a container's keys (or indexes) and values (`entrySizeEstimate`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entries {
    pub list: bool,
    pub key: Range,
    pub value: Range,
}

impl Entries {
    /// Both containers' entries, or nothing if either is unknown.
    pub fn union_of(a: Option<Entries>, b: Option<Entries>) -> Option<Entries> {
        let (a, b) = (a?, b?);
        Some(Entries {
            list: a.list,
            key: a.key.union(b.key),
            value: a.value.union(b.value),
        })
    }
}

/// The CEL type of a subexpression, as far as the estimate needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum CelType {
    Scalar(Scalar),
    List(Box<CelType>),
    Map(Box<CelType>),
    /// An object of the schema.
    Object(Arc<Decl>),
    /// `optional(T)`: `oldSelf` of a rule with `optionalOldSelf`.
    Optional(Box<CelType>),
    /// A library's value (`url`, `quantity`), by type name.
    Opaque(&'static str),
    Dyn,
    /// A type value (`type(x)`, `int`).
    Type,
}

impl CelType {
    pub(super) fn of(decl: &Arc<Decl>) -> CelType {
        match &decl.kind {
            DeclKind::Bool => CelType::Scalar(Scalar::Bool),
            DeclKind::Int => CelType::Scalar(Scalar::Int),
            DeclKind::Double => CelType::Scalar(Scalar::Double),
            DeclKind::String => CelType::Scalar(Scalar::String),
            DeclKind::Bytes => CelType::Scalar(Scalar::Bytes),
            DeclKind::Duration => CelType::Scalar(Scalar::Duration),
            DeclKind::Timestamp => CelType::Scalar(Scalar::Timestamp),
            DeclKind::IntOrString => CelType::Dyn,
            DeclKind::List(e) => CelType::List(Box::new(CelType::of(e))),
            DeclKind::Map(e) => CelType::Map(Box::new(CelType::of(e))),
            DeclKind::Object(_) => CelType::Object(decl.clone()),
        }
    }

    /// `isScalar`: a type whose values all have size 1.
    pub(super) fn is_scalar(&self) -> bool {
        matches!(
            self,
            CelType::Scalar(Scalar::Bool)
                | CelType::Scalar(Scalar::Double)
                | CelType::Scalar(Scalar::Duration)
                | CelType::Scalar(Scalar::Int)
                | CelType::Scalar(Scalar::Timestamp)
                | CelType::Scalar(Scalar::Uint)
        )
    }
}
