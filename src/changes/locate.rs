//! From a field path (list items by key or value) to where the field is in one object (list
//! items by index), and that location as an RFC 6901 JSON pointer.

use crate::fieldpath::{Path, PathElement};
use crate::value::Value;

/// One step into a concrete value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    Field(String),
    Index(usize),
}

/// Where `path` is in `value`, or `None` when the value does not have it.
pub fn locate(value: &Value, path: &Path) -> Option<Vec<Step>> {
    let mut steps = Vec::with_capacity(path.0.len());
    let mut v = value;
    for pe in path.elements() {
        let (step, next) = match pe {
            PathElement::Field(name) => (Step::Field(name.clone()), v.get(name)?),
            PathElement::Index(i) => (Step::Index(*i), v.as_list()?.get(*i)?),
            PathElement::Value(x) => {
                let i = v.as_list()?.iter().position(|item| item == x)?;
                (Step::Index(i), &v.as_list()?[i])
            }
            PathElement::Key(fields) => {
                let list = v.as_list()?;
                let i = list
                    .iter()
                    .position(|item| fields.iter().all(|(k, kv)| item.get(k) == Some(kv)))?;
                (Step::Index(i), &list[i])
            }
        };
        steps.push(step);
        v = next;
    }
    Some(steps)
}

/// An RFC 6901 JSON pointer (`/spec/containers/0/image`; `~` and `/` escaped); `""` is the root.
pub fn pointer(steps: &[Step]) -> String {
    let mut out = String::new();
    for s in steps {
        out.push('/');
        match s {
            Step::Field(f) => out.push_str(&f.replace('~', "~0").replace('/', "~1")),
            Step::Index(i) => out.push_str(&i.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape() {
        let steps = [
            Step::Field("metadata".into()),
            Step::Field("annotations".into()),
            Step::Field("a/b~c".into()),
        ];
        assert_eq!(pointer(&steps), "/metadata/annotations/a~1b~0c");
        assert_eq!(pointer(&[]), "");
    }
}
