//! The API server's refusal of a request, as k8s.io/apimachinery/pkg/api/errors `StatusError`
//! carries it (reason, code, message, details with causes), and kubectl's printing of it
//! (k8s.io/kubectl/pkg/cmd/util/helpers.go `checkErr`, `MultilineError`,
//! `StandardErrorMessage`).

use super::field::{ErrorType, FieldError};
use crate::kube::KubeVersion;
use std::fmt;

/// `metav1.StatusReason` of the refusals kssa predicts, with their HTTP codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// 422: validation failed (`NewInvalid`).
    Invalid,
    /// 409: a precondition (resourceVersion, uid) does not hold (`NewConflict`).
    Conflict,
    /// 400: the request cannot be decoded or is malformed (`NewBadRequest`).
    BadRequest,
    /// 404: the resource or subresource does not exist (`NewNotFound`).
    NotFound,
    /// 405: the subresource exists but not for this verb (the router's answer).
    MethodNotAllowed,
    /// 413: the request body is larger than the server reads (`NewRequestEntityTooLargeError`).
    RequestEntityTooLarge,
    /// 500 without a reason: an error the server does not classify (`ErrorToAPIStatus` of a
    /// plain Go error), which kubectl prints as `Error from server: <message>`.
    Unknown,
}

impl Reason {
    /// The reason as Status carries it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Invalid => "Invalid",
            Reason::Conflict => "Conflict",
            Reason::BadRequest => "BadRequest",
            Reason::NotFound => "NotFound",
            Reason::MethodNotAllowed => "MethodNotAllowed",
            Reason::RequestEntityTooLarge => "RequestEntityTooLarge",
            Reason::Unknown => "",
        }
    }

    pub fn code(self) -> u16 {
        match self {
            Reason::Invalid => 422,
            Reason::Conflict => 409,
            Reason::BadRequest => 400,
            Reason::NotFound => 404,
            Reason::MethodNotAllowed => 405,
            Reason::RequestEntityTooLarge => 413,
            Reason::Unknown => 500,
        }
    }
}

/// `metav1.StatusCause`: one field error as the Status carries it, its body already printed
/// for the target version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusCause {
    pub error_type: ErrorType,
    pub field: String,
    /// `field.Error.ErrorBody()`.
    pub message: String,
}

/// `metav1.StatusDetails`: which object, and why.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StatusDetails {
    pub group: String,
    pub kind: String,
    pub name: String,
    pub causes: Vec<StatusCause>,
}

/// A refusal: what the server answers instead of storing the object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusError {
    pub reason: Reason,
    /// `Status.Message`, as Helm, Argo CD and Flux show it.
    pub message: String,
    pub details: Option<Box<StatusDetails>>,
}

/// `schema.GroupKind.String()`: `Deployment.apps`, or `Service` for the core group.
pub fn qualified_kind(group: &str, kind: &str) -> String {
    if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    }
}

impl StatusError {
    /// `errors.NewInvalid`: one 422 for the object, every field error a cause (printed for
    /// `version`), the message `<Kind.group> "<name>" is invalid: <errors>` with repeated
    /// messages left out, as `ErrorList.ToAggregate` does.
    pub fn invalid(
        group: &str,
        kind: &str,
        name: &str,
        errors: &[FieldError],
        version: KubeVersion,
    ) -> StatusError {
        let causes: Vec<StatusCause> = errors
            .iter()
            .map(|e| StatusCause {
                error_type: e.error_type,
                field: e.field.clone(),
                message: e.body(version),
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        let messages: Vec<String> = errors
            .iter()
            .map(|e| e.message(version))
            .filter(|m| seen.insert(m.clone()))
            .collect();
        let qualified = qualified_kind(group, kind);
        let message = match messages.len() {
            0 => format!("{qualified} {} is invalid", go_quote(name)),
            // utilerrors.Aggregate prints one error bare and several in brackets.
            1 => format!("{qualified} {} is invalid: {}", go_quote(name), messages[0]),
            _ => format!(
                "{qualified} {} is invalid: [{}]",
                go_quote(name),
                messages.join(", ")
            ),
        };
        StatusError {
            reason: Reason::Invalid,
            message,
            details: Some(Box::new(StatusDetails {
                group: group.to_string(),
                kind: kind.to_string(),
                name: name.to_string(),
                causes,
            })),
        }
    }

    /// A plain Go error the server answers with a 500 (`ErrorToAPIStatus`), such as the field
    /// manager's `failed to create typed patch object (…): <errors>`; the field errors it lists
    /// are kept as causes (path, message) so that reports can point at each field.
    pub fn unknown_at_fields(
        message: impl Into<String>,
        fields: impl IntoIterator<Item = (String, String)>,
    ) -> StatusError {
        let causes = fields
            .into_iter()
            .map(|(field, message)| StatusCause {
                error_type: ErrorType::Invalid,
                field,
                message,
            })
            .collect();
        StatusError {
            reason: Reason::Unknown,
            message: message.into(),
            details: Some(Box::new(StatusDetails {
                causes,
                ..StatusDetails::default()
            })),
        }
    }

    /// A refusal that is only a message (409, 400, 404), e.g. `errors.NewConflict`'s
    /// `Operation cannot be fulfilled on …`.
    pub fn plain(reason: Reason, message: impl Into<String>) -> StatusError {
        StatusError {
            reason,
            message: message.into(),
            details: None,
        }
    }

    pub fn code(&self) -> u16 {
        self.reason.code()
    }

    /// The refusal as kubectl prints it (without the trailing newline): for `Invalid`,
    /// `The <Kind> "<name>" is invalid: <field>: <body>`, several causes one per line after
    /// `* `; for others `Error from server (<Reason>): <message>`.
    pub fn kubectl_message(&self) -> String {
        match (&self.reason, &self.details) {
            (Reason::Invalid, Some(d)) => {
                let prefix = if d.kind.is_empty() && d.name.is_empty() {
                    "The request is invalid".to_string()
                } else {
                    format!("The {} {} is invalid", d.kind, go_quote(&d.name))
                };
                let mut seen = std::collections::HashSet::new();
                let lines: Vec<String> = d
                    .causes
                    .iter()
                    .map(|c| format!("{}: {}", c.field, c.message))
                    .filter(|m| seen.insert(m.clone()))
                    .collect();
                match lines.len() {
                    0 => prefix,
                    1 => format!("{prefix}: {}", lines[0]),
                    // MultilineError: the prefix (ending ": ") on its own line, then the causes.
                    _ => {
                        let items: Vec<String> = lines.iter().map(|l| format!("* {l}")).collect();
                        format!("{prefix}: \n{}", items.join("\n"))
                    }
                }
            }
            (Reason::Unknown, _) => format!("Error from server: {}", self.message),
            (reason, _) => format!("Error from server ({}): {}", reason.as_str(), self.message),
        }
    }

    /// One entry per cause (field path and message): what `-o github` and other finding
    /// renderers annotate. A refusal without causes is one entry with an empty path.
    pub fn findings(&self) -> Vec<(String, String)> {
        match &self.details {
            Some(d) if !d.causes.is_empty() => d
                .causes
                .iter()
                .map(|c| (c.field.clone(), format!("{}: {}", c.field, c.message)))
                .collect(),
            _ => vec![(String::new(), self.kubectl_message())],
        }
    }
}

fn go_quote(s: &str) -> String {
    super::goprint::go_quote(s)
}

impl fmt::Display for StatusError {
    /// The server's message (`StatusError.Error()`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StatusError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::field::BadValue;
    use crate::value::Value;

    fn v37() -> KubeVersion {
        KubeVersion::NEWEST
    }

    #[test]
    fn one_cause_prints_on_one_line() {
        let e = StatusError::invalid(
            "",
            "Service",
            "web",
            &[FieldError::not_supported(
                "spec.ports[0].protocol",
                BadValue::Value(Value::from("TCPP")),
                &["SCTP", "TCP", "UDP"],
            )],
            v37(),
        );
        assert_eq!(
            e.kubectl_message(),
            "The Service \"web\" is invalid: spec.ports[0].protocol: Unsupported value: \"TCPP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
        );
        assert_eq!(
            e.to_string(),
            "Service \"web\" is invalid: spec.ports[0].protocol: Unsupported value: \"TCPP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
        );
        assert_eq!(e.code(), 422);
    }

    #[test]
    fn several_causes_print_as_a_list_and_the_server_brackets_them() {
        let errors = [
            FieldError::required("spec.containers[0].name", ""),
            FieldError::required("spec.containers[0].image", ""),
            FieldError::required("spec.containers[0].name", ""),
        ];
        let e = StatusError::invalid("apps", "Deployment", "web", &errors, v37());
        assert_eq!(
            e.kubectl_message(),
            "The Deployment \"web\" is invalid: \n* spec.containers[0].name: Required value\n* spec.containers[0].image: Required value"
        );
        assert_eq!(
            e.message,
            "Deployment.apps \"web\" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image: Required value]"
        );
    }

    #[test]
    fn other_refusals_print_with_their_reason() {
        let e = StatusError::plain(Reason::Conflict, "Operation cannot be fulfilled");
        assert_eq!(
            e.kubectl_message(),
            "Error from server (Conflict): Operation cannot be fulfilled"
        );
        assert_eq!(e.findings().len(), 1);
    }
}
