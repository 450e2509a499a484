//! kssa's compact schema topology text: one line per kind (`K ...`) and one line per type
//! (`T name atom`), so a reader can index types by line and parse only the ones it needs.
//!
//! Atoms are space-separated tokens: `( S:string L:assoc <ref> K:a,b M:sep <ref> .field <ref>
//! =<json-default> +<strategy>/<merge-key> U:<discriminator> ~field=value )`; a `<ref>` is `-`
//! (none), `@name` or an inline atom, optionally followed by `^atomic`/`^sep`/`^assoc`.

use super::*;
use crate::value::{from_json_str, to_json_string};
use std::fmt::Write;

/// The first line of every topology file.
pub const HEADER: &str = "# kssa schema topology v1";

/// Writes one `T` line (with its newline).
pub fn write_type(out: &mut String, t: &TypeDef) -> Result<(), SchemaError> {
    check_token(&t.name)?;
    out.push_str("T ");
    out.push_str(&t.name);
    out.push(' ');
    write_atom(out, &t.atom)?;
    out.push('\n');
    Ok(())
}

/// Writes one `K` line (with its newline).
pub fn write_kind(out: &mut String, k: &KindInfo) -> Result<(), SchemaError> {
    let group = if k.group.is_empty() { "-" } else { &k.group };
    for token in [group, &k.version, &k.kind, &k.type_name] {
        check_token(token)?;
    }
    let _ = writeln!(
        out,
        "K {group} {} {} {} {} {} {}",
        k.version,
        k.kind,
        k.type_name,
        k.plural.as_deref().unwrap_or("-"),
        if k.namespaced { "N" } else { "C" },
        if k.has_status_subresource {
            "status"
        } else {
            "-"
        },
    );
    Ok(())
}

/// Parses a `K` line.
pub fn parse_kind(line: &str) -> Result<KindInfo, SchemaError> {
    let mut t = crate::lines::split_spaces(line);
    let mut next = || t.next();
    let (Some(_), Some(group), Some(version), Some(kind), Some(type_name)) =
        (next(), next(), next(), next(), next())
    else {
        return Err(invalid(format!("bad kind line: {line}")));
    };
    let (Some(plural), Some(scope), Some(status), None) = (next(), next(), next(), next()) else {
        return Err(invalid(format!("bad kind line: {line}")));
    };
    Ok(KindInfo {
        group: if group == "-" { "" } else { group }.to_string(),
        version: version.to_string(),
        kind: kind.to_string(),
        type_name: type_name.to_string(),
        plural: (plural != "-").then(|| plural.to_string()),
        namespaced: scope == "N",
        has_status_subresource: status == "status",
        custom_resource: false,
    })
}

/// Parses a `T` line.
pub fn parse_type(line: &str) -> Result<TypeDef, SchemaError> {
    let mut tokens = Tokens {
        iter: crate::lines::split_spaces(line).peekable(),
        line,
    };
    if tokens.next()? != "T" {
        return Err(invalid(format!("not a type line: {line}")));
    }
    let name = tokens.next()?.to_string();
    let atom = tokens.atom()?;
    match tokens.iter.next() {
        None => Ok(TypeDef { name, atom }),
        Some(extra) => Err(invalid(format!("trailing {extra:?} in: {line}"))),
    }
}

fn invalid(msg: String) -> SchemaError {
    SchemaError::Invalid(msg)
}

fn check_token(s: &str) -> Result<(), SchemaError> {
    if s.is_empty() || s.contains([' ', '\n', ',']) {
        return Err(invalid(format!("name {s:?} cannot be written as a token")));
    }
    Ok(())
}

fn relationship(r: ElementRelationship) -> &'static str {
    match r {
        ElementRelationship::Atomic => "atomic",
        ElementRelationship::Associative => "assoc",
        ElementRelationship::Separable => "sep",
    }
}

fn write_atom(out: &mut String, a: &Atom) -> Result<(), SchemaError> {
    out.push('(');
    if let Some(s) = a.scalar {
        out.push_str(match s {
            Scalar::Numeric => " S:numeric",
            Scalar::String => " S:string",
            Scalar::Boolean => " S:boolean",
            Scalar::Untyped => " S:untyped",
        });
    }
    if let Some(l) = &a.list {
        let _ = write!(out, " L:{} ", relationship(l.element_relationship));
        write_ref(out, &l.element_type)?;
        if !l.keys.is_empty() {
            l.keys.iter().try_for_each(|k| check_token(k))?;
            let _ = write!(out, " K:{}", l.keys.join(","));
        }
    }
    if let Some(m) = &a.map {
        let _ = write!(out, " M:{} ", relationship(m.element_relationship));
        write_ref(out, &m.element_type)?;
        for f in &m.fields {
            check_token(&f.name)?;
            let _ = write!(out, " .{} ", f.name);
            write_ref(out, &f.type_ref)?;
            if let Some(d) = &f.default {
                // Compact JSON has spaces only inside strings, where `\u0020` means the same.
                let _ = write!(out, " ={}", to_json_string(d).replace(' ', "\\u0020"));
            }
            if let Some(p) = &f.patch {
                if p.strategy.contains([' ', '/', '\n']) {
                    return Err(invalid(format!("bad patch strategy {:?}", p.strategy)));
                }
                let _ = write!(out, " +{}", p.strategy);
                if let Some(k) = &p.merge_key {
                    check_token(k)?;
                    let _ = write!(out, "/{k}");
                }
            }
        }
        for u in &m.unions {
            let flag = if u.deduce_invalid_discriminator {
                "!"
            } else {
                ""
            };
            let disc = u.discriminator.as_deref().unwrap_or("");
            let _ = write!(out, " U{flag}:{disc}");
            for f in &u.fields {
                check_token(&f.field_name)?;
                check_token(&f.discriminator_value)?;
                let _ = write!(out, " ~{}={}", f.field_name, f.discriminator_value);
            }
        }
    }
    out.push_str(" )");
    Ok(())
}

fn write_ref(out: &mut String, r: &TypeRef) -> Result<(), SchemaError> {
    match &r.named {
        Some(name) => {
            check_token(name)?;
            out.push('@');
            out.push_str(name);
        }
        None if is_empty_atom(&r.inlined) => out.push('-'),
        None => write_atom(out, &r.inlined)?,
    }
    if let Some(rel) = r.element_relationship {
        let _ = write!(out, " ^{}", relationship(rel));
    }
    Ok(())
}

fn is_empty_atom(a: &Atom) -> bool {
    a.scalar.is_none() && a.list.is_none() && a.map.is_none()
}

struct Tokens<'a> {
    iter: std::iter::Peekable<crate::lines::Words<'a>>,
    line: &'a str,
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> Result<&'a str, SchemaError> {
        self.iter
            .next()
            .ok_or_else(|| invalid(format!("unexpected end of: {}", self.line)))
    }

    fn bad(&self, token: &str) -> SchemaError {
        invalid(format!("unexpected {token:?} in: {}", self.line))
    }

    fn relationship(&self, token: &str) -> Result<ElementRelationship, SchemaError> {
        match token {
            "atomic" => Ok(ElementRelationship::Atomic),
            "assoc" => Ok(ElementRelationship::Associative),
            "sep" => Ok(ElementRelationship::Separable),
            other => Err(self.bad(other)),
        }
    }

    fn atom(&mut self) -> Result<Atom, SchemaError> {
        let open = self.next()?;
        if open != "(" {
            return Err(self.bad(open));
        }
        let mut atom = Atom::default();
        loop {
            let token = self.next()?;
            let (tag, arg) = token.split_once(':').unwrap_or((token, ""));
            match tag {
                ")" => return Ok(atom),
                "S" => {
                    atom.scalar = Some(match arg {
                        "numeric" => Scalar::Numeric,
                        "string" => Scalar::String,
                        "boolean" => Scalar::Boolean,
                        "untyped" => Scalar::Untyped,
                        _ => return Err(self.bad(token)),
                    })
                }
                "L" => {
                    let element_relationship = self.relationship(arg)?;
                    let element_type = self.type_ref()?;
                    let keys = match self.iter.next_if(|t| t.starts_with("K:")) {
                        Some(k) => k[2..].split(',').map(str::to_string).collect(),
                        None => Vec::new(),
                    };
                    atom.list = Some(Box::new(ListType {
                        element_type,
                        element_relationship,
                        keys,
                    }));
                }
                "M" => {
                    let relationship = self.relationship(arg)?;
                    let element_type = self.type_ref()?;
                    let fields = self.fields()?;
                    let unions = self.unions()?;
                    atom.map = Some(Box::new(MapType::new(
                        fields,
                        unions,
                        element_type,
                        relationship,
                    )));
                }
                _ => return Err(self.bad(token)),
            }
        }
    }

    fn type_ref(&mut self) -> Result<TypeRef, SchemaError> {
        let mut r = match self.iter.peek().copied() {
            Some("-") => {
                self.iter.next();
                TypeRef::default()
            }
            Some(t) if t.starts_with('@') => {
                self.iter.next();
                TypeRef::named(&t[1..])
            }
            Some("(") => TypeRef::inline(self.atom()?),
            other => {
                let token = other.unwrap_or("");
                return Err(self.bad(token));
            }
        };
        if let Some(rel) = self.iter.next_if(|t| t.starts_with('^')) {
            r.element_relationship = Some(self.relationship(&rel[1..])?);
        }
        Ok(r)
    }

    fn fields(&mut self) -> Result<Vec<StructField>, SchemaError> {
        let mut fields = Vec::new();
        while let Some(name) = self.iter.next_if(|t| t.starts_with('.')) {
            let type_ref = self.type_ref()?;
            let default =
                match self.iter.next_if(|t| t.starts_with('=')) {
                    Some(json) => Some(from_json_str(&json[1..]).map_err(|e| {
                        invalid(format!("bad default {json:?} in {}: {e}", self.line))
                    })?),
                    None => None,
                };
            let patch = self.iter.next_if(|t| t.starts_with('+')).map(|p| {
                let (strategy, merge_key) = match p[1..].split_once('/') {
                    Some((s, k)) => (s, Some(k.to_string())),
                    None => (&p[1..], None),
                };
                PatchMeta {
                    strategy: strategy.to_string(),
                    merge_key,
                }
            });
            fields.push(StructField {
                name: name[1..].to_string(),
                type_ref,
                default,
                patch,
            });
        }
        Ok(fields)
    }

    fn unions(&mut self) -> Result<Vec<Union>, SchemaError> {
        let mut unions = Vec::new();
        while let Some(head) = self.iter.next_if(|t| t.starts_with('U')) {
            let (flag, disc) = head.split_once(':').ok_or_else(|| self.bad(head))?;
            let mut fields = Vec::new();
            while let Some(f) = self.iter.next_if(|t| t.starts_with('~')) {
                let (field_name, value) = f[1..].split_once('=').ok_or_else(|| self.bad(f))?;
                fields.push(UnionField {
                    field_name: field_name.to_string(),
                    discriminator_value: value.to_string(),
                });
            }
            unions.push(Union {
                discriminator: (!disc.is_empty()).then(|| disc.to_string()),
                deduce_invalid_discriminator: flag == "U!",
                fields,
            });
        }
        Ok(unions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_lines_round_trip() {
        let line = "T x.Port ( M:sep - .name ( S:string ) +merge/name .protocol ( S:string ) =\"T\\u0020CP\" .ports ( L:assoc @x.Port K:name,protocol ) .any @__untyped_deduced_ ^atomic U:type ~a=A ~b=B )\n";
        let t = parse_type(line.trim_end()).unwrap();
        let map = t.atom.map.as_deref().unwrap();
        assert_eq!(
            map.field("protocol").unwrap().default,
            Some(Value::from("T CP"))
        );
        assert_eq!(
            map.field("name")
                .unwrap()
                .patch
                .as_ref()
                .unwrap()
                .merge_key
                .as_deref(),
            Some("name")
        );
        let mut out = String::new();
        write_type(&mut out, &t).unwrap();
        assert_eq!(out, line);
    }

    #[test]
    fn kind_lines_round_trip() {
        let line = "K - v1 Pod io.k8s.api.core.v1.Pod pods N status\n";
        let k = parse_kind(line.trim_end()).unwrap();
        assert_eq!(k.group, "");
        assert!(k.namespaced && k.has_status_subresource);
        let mut out = String::new();
        write_kind(&mut out, &k).unwrap();
        assert_eq!(out, line);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(parse_type("T x ( S:nope )").is_err());
        assert!(parse_type("T x ( M:sep -").is_err());
        assert!(parse_kind("K a b").is_err());
    }
}
