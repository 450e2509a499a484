//! What the Kubernetes CEL environment of CRD rules declares, by release, as far as kssa's
//! checker uses it: k8s.io/apiserver `pkg/cel/environment/base.go` (`baseOpts`, each library's
//! `IntroducedVersion`; new expressions get the libraries of the previous release,
//! `DefaultCompatibilityVersion`), cel-go's standard declarations (`common/stdlib`) and parser
//! quirks (`parser/parser.go` `SyntaxError`).

use super::cel_decl::{Scalar, Ty};
use crate::kube::{KubeVersion, VersionRange};

/// Functions of libraries younger than 1.30, with the release `base.go` introduces them at
/// (`IntroducedVersion`). An expression the CRD did not have is compiled with the libraries of
/// the previous release (`NewExpressionsEnv`, `DefaultCompatibilityVersion`): a function is
/// there from the release after; an expression the stored CRD had gets those of the server's
/// own release (`StoredExpressionsEnv`).
pub(super) const GATED: &[(&str, u8)] = &[
    // library.IP, library.CIDR.
    ("ip", 30),
    ("isIP", 30),
    ("cidr", 30),
    ("isCIDR", 30),
    // library.SemverLib.
    ("semver", 33),
    ("isSemver", 33),
    // ext.Lists(ext.ListsVersion(3)) (`lists.range` is namespaced: not checked).
    ("slice", 34),
    ("flatten", 34),
    ("sort", 34),
    ("reverse", 34),
    ("distinct", 34),
];

/// Macros the `cel` crate leaves as calls: their name, argument count, the number of leading
/// arguments that name variables, and the release that introduced them (`ext.TwoVarComprehensions`
/// 1.32, `sortBy` of `ext.Lists(3)` 1.34, `cel.OptionalTypes` 1.28).
pub(super) const MACROS: &[(&str, usize, usize, u8)] = &[
    ("all", 3, 2, 32),
    ("exists", 3, 2, 32),
    ("existsOne", 3, 2, 32),
    ("exists_one", 3, 2, 32),
    ("transformList", 3, 2, 32),
    ("transformList", 4, 2, 32),
    ("transformMap", 3, 2, 32),
    ("transformMap", 4, 2, 32),
    ("transformMapEntry", 3, 2, 32),
    ("transformMapEntry", 4, 2, 32),
    ("sortBy", 2, 1, 34),
    ("optMap", 2, 1, 28),
    ("optFlatMap", 2, 1, 28),
];

/// Whether a library introduced at 1.`introduced` serves an expression at `version`: from the
/// next release for new expressions, from its own for stored ones.
pub(super) fn available(introduced: u8, version: KubeVersion, stored: bool) -> bool {
    let from = if stored { introduced } else { introduced + 1 };
    VersionRange::since(from).contains(version)
}

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
