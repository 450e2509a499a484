//! Patch metadata: how strategic merge patch treats each field (`x-kubernetes-patch-strategy`
//! and `x-kubernetes-patch-merge-key`), looked up field by field as the patch descends.

use crate::schema::{Schema, TypeRef};

/// The patch metadata of one field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPatchMeta {
    /// The strategies as written, split at commas: `merge`, `replace`, `retainKeys`.
    pub strategies: Vec<String>,
    /// The merge key of a list of objects with the `merge` strategy.
    pub merge_key: Option<String>,
}

impl FieldPatchMeta {
    /// Parses the two OpenAPI extensions' values.
    pub fn new(strategy: Option<&str>, merge_key: Option<&str>) -> FieldPatchMeta {
        FieldPatchMeta {
            strategies: strategy
                .map(|s| s.split(',').map(str::to_string).collect())
                .unwrap_or_default(),
            merge_key: merge_key.map(str::to_string),
        }
    }
}

/// Describes the fields of one type for strategic merge patch. A lookup returns the field's
/// metadata and the description of the field's value (for a list field: of its items), or
/// `None` when nothing is known below it; an `Err` is the lookup's message.
pub trait PatchMetaLookup: Sized {
    /// A field whose live and patch values are both objects.
    fn lookup_map_field(&self, field: &str) -> Result<(Option<Self>, FieldPatchMeta), String>;
    /// A field whose live and patch values are both lists; the description returned is of
    /// the list's items.
    fn lookup_list_field(&self, field: &str) -> Result<(Option<Self>, FieldPatchMeta), String>;
    /// The type's name, for error messages.
    fn name(&self) -> String;
}

/// No patch metadata at all (custom resources): every list is replaced, objects merge.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPatchMeta;

impl PatchMetaLookup for NoPatchMeta {
    fn lookup_map_field(&self, _: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        Ok((None, FieldPatchMeta::default()))
    }
    fn lookup_list_field(&self, _: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        Ok((None, FieldPatchMeta::default()))
    }
    fn name(&self) -> String {
        "<no schema>".into()
    }
}

/// Patch metadata read from kssa's schema model (`StructField::patch`).
///
/// Like the API server's lookup from Go struct tags, a map type without named fields yields
/// its element type with no metadata; an unknown field of a struct, or a field whose type
/// does not have the shape the patch gives it, is an error.
#[derive(Debug, Clone, Copy)]
pub struct SchemaPatchMeta<'a> {
    schema: &'a Schema,
    type_ref: &'a TypeRef,
}

impl<'a> SchemaPatchMeta<'a> {
    pub fn new(schema: &'a Schema, type_ref: &'a TypeRef) -> SchemaPatchMeta<'a> {
        SchemaPatchMeta { schema, type_ref }
    }

    fn field(&self, field: &str) -> Result<(&'a TypeRef, FieldPatchMeta), String> {
        let resolved = self
            .schema
            .resolve(self.type_ref)
            .ok_or_else(|| format!("no type found matching: {}", self.name()))?;
        let map = resolved
            .map
            .ok_or_else(|| format!("expected kind, but got {}", self.name()))?;
        if map.fields.is_empty() {
            return Ok((&map.element_type, FieldPatchMeta::default()));
        }
        let f = map
            .field(field)
            .ok_or_else(|| format!("unable to find api field {field:?} in {}", self.name()))?;
        let meta = f
            .patch
            .as_ref()
            .map(|p| {
                FieldPatchMeta::new(
                    Some(&p.strategy)
                        .filter(|s| !s.is_empty())
                        .map(|s| s.as_str()),
                    p.merge_key.as_deref(),
                )
            })
            .unwrap_or_default();
        Ok((&f.type_ref, meta))
    }
}

impl PatchMetaLookup for SchemaPatchMeta<'_> {
    fn lookup_map_field(&self, field: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        let (tr, meta) = self.field(field)?;
        Ok((Some(SchemaPatchMeta::new(self.schema, tr)), meta))
    }

    fn lookup_list_field(&self, field: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        let (tr, meta) = self.field(field)?;
        let list = self
            .schema
            .resolve(tr)
            .and_then(|r| r.list)
            .ok_or_else(|| {
                format!("expected slice, but got a non-list type for field {field:?}")
            })?;
        Ok((
            Some(SchemaPatchMeta::new(self.schema, &list.element_type)),
            meta,
        ))
    }

    fn name(&self) -> String {
        self.type_ref
            .named
            .clone()
            .unwrap_or_else(|| "inline type".into())
    }
}
