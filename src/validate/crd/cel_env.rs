//! What the Kubernetes CEL environment of CRD rules declares, by release, as far as kssa's
//! checker uses it: k8s.io/apiserver `pkg/cel/environment/base.go` (`baseOpts`, each library's
//! `IntroducedVersion`; new expressions get the libraries of the previous release,
//! `DefaultCompatibilityVersion`), cel-go's standard declarations (`common/stdlib`) and parser
//! quirks (`parser/parser.go` `SyntaxError`).

use super::cel_decl::{Scalar, Ty};
use crate::kube::VersionRange;

/// Whether a function or macro exists in the environment of new expressions at a release. The
/// environment of new expressions is that of the previous release
/// (`environment.DefaultCompatibilityVersion`, `base.go`'s `IntroducedVersion` + 1).
pub(super) const GATED: &[(&str, VersionRange)] = &[
    // library.IP, library.CIDR: introduced 1.30.
    ("ip", VersionRange::since(31)),
    ("isIP", VersionRange::since(31)),
    ("cidr", VersionRange::since(31)),
    ("isCIDR", VersionRange::since(31)),
    // library.SemverLib: introduced 1.33.
    ("semver", VersionRange::since(34)),
    ("isSemver", VersionRange::since(34)),
];

/// Macros the `cel` crate leaves as calls: their name, argument count, the number of leading
/// arguments that name variables, and the releases whose new expressions have them
/// (`ext.TwoVarComprehensions` introduced 1.32, `ext.Lists(3)` with `sortBy` introduced 1.34,
/// `cel.OptionalTypes` since 1.28).
pub(super) const MACROS: &[(&str, usize, usize, VersionRange)] = &[
    ("all", 3, 2, VersionRange::since(33)),
    ("exists", 3, 2, VersionRange::since(33)),
    ("existsOne", 3, 2, VersionRange::since(33)),
    ("exists_one", 3, 2, VersionRange::since(33)),
    ("transformList", 3, 2, VersionRange::since(33)),
    ("transformList", 4, 2, VersionRange::since(33)),
    ("transformMap", 3, 2, VersionRange::since(33)),
    ("transformMap", 4, 2, VersionRange::since(33)),
    ("transformMapEntry", 3, 2, VersionRange::since(33)),
    ("transformMapEntry", 4, 2, VersionRange::since(33)),
    ("sortBy", 2, 1, VersionRange::since(35)),
    ("optMap", 2, 1, VersionRange::ALWAYS),
    ("optFlatMap", 2, 1, VersionRange::ALWAYS),
];

/// Identifiers the environment declares besides `self` and `oldSelf` (type names), and
/// namespaces whose qualified names the checker cannot resolve (it gives up on them).
pub(super) const TYPE_IDENTS: &[&str] = &[
    "bool",
    "bytes",
    "double",
    "duration",
    "int",
    "list",
    "map",
    "null_type",
    "string",
    "timestamp",
    "type",
    "uint",
    "dyn",
    "optional_type",
];
pub(super) const NAMESPACES: &[&str] = &[
    "google",
    "cel",
    "net",
    "kubernetes",
    "k8s",
    "math",
    "strings",
    "sets",
    "lists",
    "base64",
    "optional",
    "proto",
    "ext",
];

/// The `ESC_IDENTIFIER` token of cel-go's grammar came with v0.23 (Kubernetes 1.33); before,
/// the parser's expected-token sets do not name it.
pub(super) const ESCAPED_IDENTIFIERS: &[(VersionRange, bool)] = &[
    (VersionRange::until(32), false),
    (VersionRange::since(33), true),
];

/// cel-go rewrites ANTLR's `no viable alternative at input '.true'` (a reserved word after a
/// dot) as `mismatched input 'true' expecting IDENTIFIER` (`reservedIdentifier`).
pub(super) const RESERVED_WORD_ALTERNATIVE: &[&str] = &["true", "false", "null"];

/// The type of a call whose result type does not depend on its arguments' (the standard
/// library's operators, `size`, conversions, string tests), or of a conditional whose branches
/// agree; `Dyn` otherwise.
pub(super) fn result_type(name: &str, member: bool, args: &[Ty]) -> Ty {
    let scalar = match (name, member, args.len()) {
        (
            "_&&_" | "_||_" | "!_" | "_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_" | "@in",
            false,
            _,
        ) => Scalar::Bool,
        ("startsWith" | "endsWith" | "contains" | "matches", true, 1) => Scalar::Bool,
        ("size", _, _) => Scalar::Int,
        ("int", false, 1) => Scalar::Int,
        ("uint", false, 1) => Scalar::Uint,
        ("double", false, 1) => Scalar::Double,
        ("string", false, 1) => Scalar::String,
        ("bytes", false, 1) => Scalar::Bytes,
        ("bool", false, 1) => Scalar::Bool,
        ("duration", false, 1) => Scalar::Duration,
        ("timestamp", false, 1) => Scalar::Timestamp,
        ("_?_:_", false, 3) => match (&args[1], &args[2]) {
            (Ty::Scalar(a), Ty::Scalar(b)) if a == b => *a,
            _ => return Ty::Dyn,
        },
        _ => return Ty::Dyn,
    };
    Ty::Scalar(scalar)
}
