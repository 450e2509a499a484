//! Turning results into text: unified diffs, object output, change sets, conflict
//! explanations, with Secret values masked. Returns strings; never prints. Colour is a plain
//! `bool` the caller decides.

mod changes;
mod conflicts;
mod diff;
mod findings;
mod junit;
mod mask;
mod modes;
mod output;
mod report;

pub use changes::{field_changes_value, ignored_changes_value, ignored_lines};
pub use conflicts::{
    render_conflicts_json, render_conflicts_text, value_at, ConflictItem, ConflictReport, Owner,
};
pub use diff::{object_file_name, unified_diff};
pub use findings::{render_sarif, CheckedObject, Diagnostic, Diagnostics, Level, Location, Rule};
pub use junit::render_junit;
pub use mask::{is_secret_path, mask_secrets, masked};
pub use modes::{render_modes_json, render_modes_text, ModeComparison, ModeConflict};
pub use output::{render_objects, OutputFormat};
pub use report::{
    render_changes_json, render_github, summary_line, ChangeKind, FieldConflict, Finding,
    ObjectChange, Summary,
};

/// ANSI styling, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    pub color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    pub fn red(&self, text: &str) -> String {
        self.paint("31", text)
    }
    pub fn green(&self, text: &str) -> String {
        self.paint("32", text)
    }
    pub fn cyan(&self, text: &str) -> String {
        self.paint("36", text)
    }
    pub fn yellow(&self, text: &str) -> String {
        self.paint("33", text)
    }
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
}
