//! Unit tests of the three-way patch, on the library's own documented examples.
use super::*;

/// Every field's value is described by the same table: name → (strategy, merge key).
#[derive(Clone, Copy)]
struct Table(&'static [(&'static str, &'static str, &'static str)]);

impl PatchMetaLookup for Table {
    fn lookup_map_field(
        &self,
        f: &str,
    ) -> std::result::Result<(Option<Self>, FieldPatchMeta), String> {
        let meta = self.0.iter().find(|(n, _, _)| *n == f).map(|(_, s, k)| {
            FieldPatchMeta::new(
                Some(s).filter(|s| !s.is_empty()).copied(),
                Some(k).filter(|k| !k.is_empty()).copied(),
            )
        });
        Ok((Some(*self), meta.unwrap_or_default()))
    }
    fn lookup_list_field(
        &self,
        f: &str,
    ) -> std::result::Result<(Option<Self>, FieldPatchMeta), String> {
        self.lookup_map_field(f)
    }
    fn name(&self) -> String {
        "table".into()
    }
}

const META: Table = Table(&[
    ("items", "merge", "name"),
    ("tags", "merge", ""),
    ("strategy", "retainKeys", ""),
]);

fn patch(original: &str, modified: &str, current: &str) -> String {
    let p = three_way_merge_patch(original, modified, current, &META, true).unwrap();
    crate::value::to_json_string(&p.with_sorted_keys())
}

#[test]
fn deletions_come_from_the_last_applied_and_changes_from_live() {
    assert_eq!(
        patch(r#"{"a":1,"b":2}"#, r#"{"a":3}"#, r#"{"a":1,"b":2,"c":4}"#),
        r#"{"a":3,"b":null}"#
    );
}

#[test]
fn keyed_items_are_deleted_with_a_directive_and_ordered() {
    assert_eq!(
        patch(
            r#"{"items":[{"name":"x"},{"name":"y"}]}"#,
            r#"{"items":[{"name":"y","v":1}]}"#,
            r#"{"items":[{"name":"x"},{"name":"y"}]}"#
        ),
        r#"{"$setElementOrder/items":[{"name":"y"}],"items":[{"name":"y","v":1},{"$patch":"delete","name":"x"}]}"#
    );
}

#[test]
fn scalars_are_deleted_through_the_parallel_list() {
    assert_eq!(
        patch(
            r#"{"tags":["a","b"]}"#,
            r#"{"tags":["b","c"]}"#,
            r#"{"tags":["a","b"]}"#
        ),
        r#"{"$deleteFromPrimitiveList/tags":["a"],"$setElementOrder/tags":["b","c"],"tags":["c"]}"#
    );
}

#[test]
fn retain_keys_lists_what_stays() {
    assert_eq!(
        patch(
            r#"{"strategy":{"type":"A","a":{"x":1}}}"#,
            r#"{"strategy":{"type":"B"}}"#,
            r#"{"strategy":{"type":"A","a":{"x":1}}}"#
        ),
        r#"{"strategy":{"$retainKeys":["type"],"a":null,"type":"B"}}"#
    );
}

#[test]
fn overwrite_false_reports_drift_as_a_conflict() {
    let err =
        three_way_merge_patch(r#"{"a":1}"#, r#"{"a":2}"#, r#"{"a":5}"#, &META, false).unwrap_err();
    assert!(matches!(err, ThreeWayError::Conflict { .. }), "{err}");
    assert!(three_way_merge_patch("not json", "{}", "{}", &META, true).is_err());
}
