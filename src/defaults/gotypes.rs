//! The Go types behind the built-in kinds (k8s.io/api v0.36.3), read from the generated
//! `k8s-1.36.gotypes`: each struct's encoded fields in Go order with their `json` tag options,
//! named types, and the package of each group-version. The typed round trip walks them.

use crate::lines::SortedLines;
use crate::names::NameIndex;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

const GENERATED: &str = include_str!("k8s-1.36.gotypes");

/// Index of a declaration in [`GoTypes`].
pub(crate) type DeclId = usize;

/// A Go type expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum GoType {
    String,
    Bool,
    /// Any Go integer type; the width decides which JSON numbers decode.
    Int(IntWidth),
    Float,
    /// `[]byte`: base64 text.
    Bytes,
    /// `interface{}`: any JSON.
    Any,
    Pointer(Box<GoType>),
    Slice(Box<GoType>),
    /// `map[K]V` (keys are always strings in JSON).
    Map(Box<GoType>),
    Named(DeclId),
    /// A name the sources do not declare (outside the model): kept as it is.
    Opaque,
}

/// The Go integer types (`int` and `uint` are 64 bits on the server's platforms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntWidth {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl IntWidth {
    /// The Go spelling (`reflect.Type.String()` of the unnamed type).
    pub fn go_name(self) -> &'static str {
        match self {
            IntWidth::I8 => "int8",
            IntWidth::I16 => "int16",
            IntWidth::I32 => "int32",
            IntWidth::I64 => "int64",
            IntWidth::U8 => "uint8",
            IntWidth::U16 => "uint16",
            IntWidth::U32 => "uint32",
            IntWidth::U64 => "uint64",
        }
    }

    /// Whether `n` fits (`reflect.Value.OverflowInt` / `OverflowUint` is false).
    pub fn holds(self, n: i128) -> bool {
        let (min, max): (i128, i128) = match self {
            IntWidth::I8 => (i8::MIN.into(), i8::MAX.into()),
            IntWidth::I16 => (i16::MIN.into(), i16::MAX.into()),
            IntWidth::I32 => (i32::MIN.into(), i32::MAX.into()),
            IntWidth::I64 => (i64::MIN.into(), i64::MAX.into()),
            IntWidth::U8 => (0, u8::MAX.into()),
            IntWidth::U16 => (0, u16::MAX.into()),
            IntWidth::U32 => (0, u32::MAX.into()),
            IntWidth::U64 => (0, u64::MAX.into()),
        };
        (min..=max).contains(&n)
    }
}

/// Types with their own JSON encoding (`MarshalJSON`/`UnmarshalJSON`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    /// `metav1.Time`: RFC 3339 in UTC, whole seconds; the zero time is `null`.
    Time,
    /// `metav1.MicroTime`: as Time with six fraction digits.
    MicroTime,
    /// `resource.Quantity`: canonical text; the zero quantity is `"0"`.
    Quantity,
    /// `intstr.IntOrString`: an int or a string; the zero value is `0`.
    IntOrString,
    /// Raw JSON kept as it is (`runtime.RawExtension`, `metav1.FieldsV1`, `metav1.Duration`).
    Raw,
}

/// One encoded struct field.
#[derive(Debug, Clone)]
pub(crate) struct GoField {
    pub json: String,
    pub omitempty: bool,
    pub omitzero: bool,
    pub ty: GoType,
}

#[derive(Debug)]
pub(crate) enum Decl {
    Struct(StructDecl),
    Alias(GoType),
    Special(Special),
}

/// A struct's encoded fields.
#[derive(Debug)]
pub(crate) struct StructDecl {
    /// In Go order, embedded (inline) structs spliced in.
    pub fields: Vec<GoField>,
    by_name: NameIndex,
    /// What the typed round trip appends when the input lacks a field: the field's position,
    /// name and value, in Go order (worked out once per struct by
    /// [`crate::defaults::roundtrip`], which owns its meaning).
    pub absent: OnceLock<Vec<(usize, String, crate::value::Value)>>,
}

impl StructDecl {
    fn new(fields: Vec<GoField>) -> StructDecl {
        let by_name = NameIndex::new(fields.iter().map(|f| f.json.as_str()));
        StructDecl {
            fields,
            by_name,
            absent: OnceLock::new(),
        }
    }

    /// The field encoded as `json`, and its position in Go order.
    pub fn field(&self, json: &str) -> Option<(usize, &GoField)> {
        let i = self.by_name.find(json, |i| &self.fields[i].json)?;
        Some((i, &self.fields[i]))
    }
}

/// Every declaration, by `<package>.<Type>`. Nothing is parsed up front: the generator writes
/// the declarations sorted by name and build.rs records where each starts, so a name is found
/// by binary search over their lines, and a declaration is parsed the first time it is asked
/// for. A run that round-trips one Deployment reads a few dozen of the table's ~1,400 lines,
/// not all of them.
#[derive(Debug)]
pub(crate) struct GoTypes {
    /// Each declaration's line (`S …` or `T …`), by id, in name order.
    lines: SortedLines,
    /// Parsed on first use; boxed, so that the table every start writes holds a word per
    /// declaration, not a whole `Decl` (a hundred kilobytes of page faults).
    decls: Vec<OnceLock<Box<Decl>>>,
    /// (group, version) → package key.
    packages: HashMap<(&'static str, &'static str), &'static str>,
    /// Kinds looked up so far, by group, version and kind.
    kinds: Mutex<Vec<KnownKind>>,
}

type KnownKind = ((String, String, String), Option<DeclId>);

const SPECIALS: &[(&str, Special)] = &[
    ("meta/v1.Time", Special::Time),
    ("meta/v1.MicroTime", Special::MicroTime),
    ("meta/v1.FieldsV1", Special::Raw),
    ("meta/v1.Duration", Special::Raw),
    ("resource.Quantity", Special::Quantity),
    ("intstr.IntOrString", Special::IntOrString),
    ("runtime.RawExtension", Special::Raw),
    ("runtime.Unknown", Special::Raw),
];

/// A raw field before inline structs are spliced in: `json|flags|type`.
struct RawField<'a> {
    json: &'a str,
    flags: &'a str,
    ty: &'a str,
}

/// The fields of an `S` line (the words after its name).
fn raw_fields(line: &str) -> impl Iterator<Item = RawField<'_>> {
    line.split_whitespace().skip(2).filter_map(|w| {
        let mut parts = w.splitn(3, '|');
        Some(RawField {
            json: parts.next()?,
            flags: parts.next()?,
            ty: parts.next()?,
        })
    })
}

impl GoTypes {
    /// The embedded k8s.io/api v0.36.3 types.
    pub fn builtin() -> &'static GoTypes {
        static TYPES: OnceLock<GoTypes> = OnceLock::new();
        TYPES.get_or_init(GoTypes::index)
    }

    /// Indexes the embedded table (`GENERATED`, whose declaration lines build.rs located).
    fn index() -> GoTypes {
        let lines = SortedLines::new(GENERATED, &crate::lines::GO_DECL_LINES);
        let mut packages = HashMap::new();
        // The package lines come before the declarations, which are not read until asked for.
        for line in crate::lines::split_lines(lines.head()) {
            if let Some(rest) = line.strip_prefix("P ") {
                let mut words = crate::lines::split_spaces(rest);
                let key = words.next().unwrap_or("");
                let group = words.next().filter(|g| *g != "-").unwrap_or("");
                let version = words.next().unwrap_or("");
                packages.insert((group, version), key);
            }
        }
        GoTypes {
            decls: (0..lines.len()).map(|_| OnceLock::new()).collect(),
            lines,
            packages,
            kinds: Mutex::default(),
        }
    }

    /// The declaration named `name` (`core/v1.PodSpec`).
    fn find(&self, name: &str) -> Option<DeclId> {
        self.lines.find(name)
    }

    /// Parses declaration `id` from its line.
    fn parse_decl(&self, id: DeclId) -> Decl {
        let name = self.decl_name(id);
        if let Some((_, special)) = SPECIALS.iter().find(|(n, _)| *n == name) {
            return Decl::Special(*special);
        }
        let line = self.lines.line(id);
        if line.starts_with('T') {
            let target = line.split_whitespace().nth(2).unwrap_or("");
            return Decl::Alias(self.type_expr(target));
        }
        let mut fields = Vec::new();
        self.splice(id, &mut fields, 0);
        Decl::Struct(StructDecl::new(fields))
    }

    /// A struct's fields with embedded inline structs expanded in place, as `encoding/json` sees
    /// them.
    fn splice(&self, id: DeclId, out: &mut Vec<GoField>, depth: usize) {
        let line = self.lines.line(id);
        if line.starts_with('T') {
            // An embedded alias (`v1beta1.RuleWithOperations = v1.RuleWithOperations`): the
            // fields of the struct it names.
            let target = line.split_whitespace().nth(2).unwrap_or("");
            if let (Some(inner), true) = (self.find(target), depth < 8) {
                self.splice(inner, out, depth + 1);
            }
            return;
        }
        if !line.starts_with('S') {
            return;
        }
        for f in raw_fields(line) {
            if f.flags.contains('i') {
                if let (Some(inner), true) = (self.find(f.ty), depth < 8) {
                    self.splice(inner, out, depth + 1);
                }
                continue;
            }
            out.push(GoField {
                json: f.json.to_string(),
                omitempty: f.flags.contains('o'),
                omitzero: f.flags.contains('z'),
                ty: self.type_expr(f.ty),
            });
        }
    }

    fn type_expr(&self, text: &str) -> GoType {
        if let Some(rest) = text.strip_prefix('*') {
            return GoType::Pointer(Box::new(self.type_expr(rest)));
        }
        if let Some(rest) = text.strip_prefix("[]") {
            return GoType::Slice(Box::new(self.type_expr(rest)));
        }
        if let Some(rest) = text.strip_prefix("map[]") {
            return GoType::Map(Box::new(self.type_expr(rest)));
        }
        match text {
            "string" => GoType::String,
            "bool" => GoType::Bool,
            "float32" | "float64" => GoType::Float,
            "bytes" => GoType::Bytes,
            "any" => GoType::Any,
            "int8" => GoType::Int(IntWidth::I8),
            "int16" => GoType::Int(IntWidth::I16),
            "int32" => GoType::Int(IntWidth::I32),
            "int" | "int64" => GoType::Int(IntWidth::I64),
            "uint8" | "byte" => GoType::Int(IntWidth::U8),
            "uint16" => GoType::Int(IntWidth::U16),
            "uint32" => GoType::Int(IntWidth::U32),
            "uint" | "uint64" => GoType::Int(IntWidth::U64),
            name => self.find(name).map_or(GoType::Opaque, GoType::Named),
        }
    }

    pub fn decl(&self, id: DeclId) -> &Decl {
        self.decls[id].get_or_init(|| Box::new(self.parse_decl(id)))
    }

    /// The declaration's `<package>.<Type>` (`core/v1.PodSpec`).
    pub fn decl_name(&self, id: DeclId) -> &str {
        self.lines.name(id)
    }

    /// The declaration named `<package>.<Type>` (`meta/v1.ObjectMeta`).
    pub fn named(&self, name: &str) -> Option<DeclId> {
        self.find(name)
    }

    /// The Go type of `kind` at `group`/`version`, when k8s.io/api declares it.
    pub fn kind(&self, group: &str, version: &str, kind: &str) -> Option<DeclId> {
        // A run asks for the same few kinds for every object: they are remembered.
        let mut known = self.kinds.lock().unwrap_or_else(|p| p.into_inner());
        let key = (group, version, kind);
        if let Some((_, id)) = known
            .iter()
            .find(|(k, _)| (k.0.as_str(), k.1.as_str(), k.2.as_str()) == key)
        {
            return *id;
        }
        let id = self.packages.get(&(group, version)).and_then(|package| {
            let id = self.find(&format!("{package}.{kind}"))?;
            matches!(self.decl(id), Decl::Struct(_)).then_some(id)
        });
        known.push(((group.into(), version.into(), kind.into()), id));
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field<'a>(types: &'a GoTypes, id: DeclId, json: &str) -> &'a GoField {
        match types.decl(id) {
            Decl::Struct(s) => s.field(json).unwrap().1,
            d => panic!("{d:?}"),
        }
    }

    /// The typed round trip tells the fields an input has by their position: that needs one
    /// position per name.
    #[test]
    fn no_struct_encodes_two_fields_under_one_name() {
        let types = GoTypes::builtin();
        for id in 0..types.lines.len() {
            if let Decl::Struct(s) = types.decl(id) {
                let mut names: Vec<&str> = s.fields.iter().map(|f| f.json.as_str()).collect();
                names.sort_unstable();
                let n = names.len();
                names.dedup();
                assert_eq!(names.len(), n, "{}", types.decl_name(id));
            }
        }
    }

    #[test]
    fn kinds_resolve_with_embedded_fields_spliced() {
        let t = GoTypes::builtin();
        let deploy = t.kind("apps", "v1", "Deployment").unwrap();
        assert_eq!(field(t, deploy, "kind").ty, GoType::String);
        let pod = t.kind("", "v1", "Pod").unwrap();
        assert!(field(t, pod, "metadata").omitempty);
        assert!(t.kind("apps", "v1beta1", "Deployment").is_some());
        assert!(t.kind("apps", "v1", "Nope").is_none());
        let volume = t.find("core/v1.Volume").unwrap();
        assert!(matches!(
            field(t, volume, "configMap").ty,
            GoType::Pointer(_)
        ));
    }

    #[test]
    fn embedded_aliases_splice_the_fields_of_their_target() {
        // v1beta1.NamedRuleWithOperations embeds v1beta1.RuleWithOperations, an alias of the
        // v1 struct, which embeds v1.Rule.
        let t = GoTypes::builtin();
        let rule = t
            .find("admissionregistration/v1beta1.NamedRuleWithOperations")
            .unwrap();
        for json in ["resourceNames", "operations", "apiGroups", "scope"] {
            assert!(field(t, rule, json).omitempty, "{json}");
        }
    }

    #[test]
    fn declarations_are_sorted_by_name_for_binary_search() {
        let t = GoTypes::builtin();
        let lines: Vec<&str> = t.lines.iter().collect();
        let declarations = GENERATED
            .lines()
            .filter(|l| l.starts_with("S ") || l.starts_with("T "));
        assert_eq!(lines, declarations.collect::<Vec<_>>());
        assert!(lines.len() > 1000);
        let name_of = crate::lines::second_word;
        assert!(lines.windows(2).all(|w| name_of(w[0]) < name_of(w[1])));
        for (id, line) in lines.iter().enumerate() {
            assert_eq!(t.lines.name(id), name_of(line));
            assert_eq!(t.find(name_of(line)), Some(id));
        }
    }

    #[test]
    fn creation_timestamp_is_omitzero_time() {
        let t = GoTypes::builtin();
        let meta = t.find("meta/v1.ObjectMeta").unwrap();
        let f = field(t, meta, "creationTimestamp");
        assert!(f.omitzero && f.omitempty);
        let GoType::Named(id) = f.ty else { panic!() };
        assert!(matches!(t.decl(id), Decl::Special(Special::Time)));
    }
}
