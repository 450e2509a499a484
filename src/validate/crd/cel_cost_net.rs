//! The cost of the IP, CIDR and semver libraries in the CRD estimate (k8s.io/apiserver
//! `pkg/cel/library/cost.go` `EstimateCallCost`, v0.31–v0.36): parsing a string is priced by
//! its length, the accessors are O(1), and a CIDR's containment tests compare the addresses'
//! bytes (4 or 16 each).

use super::cel_cost::{CelType, Coster, Range, Scalar};
use super::cel_cost_fns::{parsed, CallSite, PARSE_PRICED, STRING_TRAVERSAL};

pub(super) const IP: &str = "net.IP";
pub(super) const CIDR: &str = "net.CIDR";
pub(super) const SEMVER: &str = "kubernetes.Semver";

/// `checker.SizeEstimate{Min: 4, Max: 16}`: an address's bytes.
const ADDRESS_BYTES: Range = Range { min: 4, max: 16 };

/// The call's cost and result size, with its type recorded, or `None` when it is not one of
/// these libraries' (or kssa cannot tell its overload).
pub(super) fn values(
    c: &mut Coster,
    site: &CallSite,
    name: &str,
    member: bool,
    args: &[CelType],
    target: Option<&CelType>,
) -> Option<(Range, Option<Range>)> {
    let bool_ty = CelType::Scalar(Scalar::Bool);
    let int_ty = CelType::Scalar(Scalar::Int);
    let string = CelType::Scalar(Scalar::String);
    let (cost, ty) = match (name, member, args, target) {
        // The parsers: global functions, which 1.33's estimator did not price (it looked for a
        // receiver), as for `quantity()`.
        ("ip" | "cidr" | "isIP" | "isCIDR" | "semver" | "isSemver", false, [s], None)
            if *s == string =>
        {
            let cost = if PARSE_PRICED.iter().any(|r| r.contains(c.version)) {
                parsed(c, site).1
            } else {
                site.nominal()
            };
            let ty = match name {
                "ip" => CelType::Opaque(IP),
                "cidr" => CelType::Opaque(CIDR),
                "semver" => CelType::Opaque(SEMVER),
                _ => bool_ty,
            };
            (cost, ty)
        }
        ("ip", true, [], Some(CelType::Opaque(CIDR))) => (site.nominal(), CelType::Opaque(IP)),
        ("masked", true, [], Some(CelType::Opaque(CIDR))) => {
            (site.nominal(), CelType::Opaque(CIDR))
        }
        ("prefixLength", true, [], Some(CelType::Opaque(CIDR)))
        | ("family", true, [], Some(CelType::Opaque(IP))) => (site.nominal(), int_ty),
        (
            "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast",
            true,
            [],
            Some(CelType::Opaque(IP)),
        ) => (site.nominal(), bool_ty),
        ("containsIP" | "containsCIDR", true, [arg], Some(CelType::Opaque(CIDR))) => {
            let wanted = if name == "containsIP" { IP } else { CIDR };
            let mut cost = ADDRESS_BYTES.add(ADDRESS_BYTES).factor(STRING_TRAVERSAL);
            if name == "containsCIDR" {
                // The base CIDR is masked and the prefix bits compared too.
                cost = cost
                    .add(ADDRESS_BYTES.factor(STRING_TRAVERSAL))
                    .add(Range::fixed(1));
            }
            match arg {
                CelType::Opaque(t) if *t == wanted => {}
                // The string overload parses its argument first.
                s if *s == string => {
                    let n = c.size(&site.args[0]).unwrap_or(Range::UNKNOWN);
                    cost = cost.add(n.factor(STRING_TRAVERSAL));
                }
                _ => return None,
            }
            (cost.add(site.args_cost()), bool_ty)
        }
        ("major" | "minor" | "patch" | "compareTo", true, _, Some(CelType::Opaque(SEMVER))) => {
            (site.nominal(), int_ty)
        }
        ("isGreaterThan" | "isLessThan", true, [_], Some(CelType::Opaque(SEMVER))) => {
            (site.nominal(), bool_ty)
        }
        _ => return None,
    };
    c.set_type(site.call, ty);
    Some((cost, None))
}
