//! Huge page quantities, which must be whole multiples of their page size, as
//! k8s.io/kubernetes pkg/apis/core/validation/validation.go checks them
//! (`validateResourceQuantityHugePageValue`, with pkg/apis/core/helper
//! `IsHugePageResourceValueDivisible` and `HugePageSizeFromResourceName`), and the allowance
//! pkg/api/pod/util.go makes for a stored pod that already had others
//! (`usesIndivisibleHugePagesValues`, `AllowIndivisibleHugePagesValues`).

use super::super::FieldError;
use super::fields::{items, quantity_text};
use crate::defaults::quantity::Quantity;
use crate::value::Value;

const PREFIX: &str = "hugepages-";

/// `IsHugePageResourceValueDivisible`: the page size is the name's suffix (`hugepages-2Mi`), a
/// positive whole number of bytes; the quantity, rounded up to a whole number, a multiple of
/// it. A size that does not parse divides nothing.
fn is_divisible(name: &str, quantity: &Quantity) -> bool {
    let page = name.strip_prefix(PREFIX).and_then(Quantity::parse);
    let Some(page) = page.and_then(|p| p.whole().filter(|_| is_whole(&p))) else {
        return false;
    };
    if page <= 0 {
        return false;
    }
    quantity.whole().is_some_and(|v| v % page == 0)
}

/// `MilliValue() % 1000 == 0`.
fn is_whole(q: &Quantity) -> bool {
    let mut rounded = *q;
    rounded.round_up(0).is_some() && rounded.compare(q) == Some(std::cmp::Ordering::Equal)
}

/// `validateResourceQuantityHugePageValue` for the entry `name` (a huge page resource) at `at`
/// (`….limits[hugepages-2Mi]`); `shown` is the quantity as the server prints it. Quantities
/// kssa cannot parse are the decoder's to refuse.
pub fn divisible(
    name: &str,
    quantity: Option<Quantity>,
    shown: &str,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    let Some(quantity) = quantity else {
        return;
    };
    if !is_divisible(name, &quantity) {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(shown),
            format!("{shown} is not positive integer multiple of {name}"),
        ));
    }
}

/// `usesIndivisibleHugePagesValues` over the stored pod spec: any container's huge page limit
/// or request, or the pod's overhead, that is not a multiple of its page size.
pub fn uses_indivisible(spec: &Value) -> bool {
    let indivisible = |list: Option<&Value>| {
        list.and_then(Value::as_map)
            .into_iter()
            .flatten()
            .any(|(name, v)| {
                name.starts_with(PREFIX)
                    && quantity_text(v)
                        .and_then(|t| Quantity::parse(&t))
                        .is_some_and(|q| !is_divisible(name, &q))
            })
    };
    let containers = ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(|key| items(spec.get(key)));
    for c in containers {
        let resources = c.get("resources");
        if indivisible(resources.and_then(|r| r.get("limits")))
            || indivisible(resources.and_then(|r| r.get("requests")))
        {
            return true;
        }
    }
    indivisible(spec.get("overhead"))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{json, messages_of};
    use super::*;

    fn check(name: &str, quantity: &str) -> Vec<String> {
        let at = format!("spec.containers[0].resources.limits[{name}]");
        messages_of("null", 37, |_, _, errors| {
            divisible(name, Quantity::parse(quantity), quantity, &at, errors)
        })
    }

    #[test]
    fn quantities_are_whole_pages() {
        assert!(check("hugepages-2Mi", "4Mi").is_empty());
        assert!(check("hugepages-1Gi", "0").is_empty());
        assert_eq!(
            check("hugepages-2Mi", "3Mi"),
            ["spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi"]
        );
        assert_eq!(check("hugepages-foo", "2Mi").len(), 1);
    }

    #[test]
    fn a_stored_indivisible_value_is_allowed_on_update() {
        let spec = json(
            r#"{"containers":[{"resources":{"limits":{"hugepages-2Mi":"3Mi","memory":"1Gi"}}}]}"#,
        );
        assert!(uses_indivisible(&spec));
        let fine = json(r#"{"containers":[{"resources":{"limits":{"hugepages-2Mi":"4Mi"}}}]}"#);
        assert!(!uses_indivisible(&fine));
    }
}
