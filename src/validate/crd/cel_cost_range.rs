//! The cost and size ranges of cel-go's estimator (`checker/cost.go` `CostEstimate`,
//! `SizeEstimate`, `entrySizeEstimate`): saturating arithmetic, and cost factors rounded up.

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
