//! Windows security options of pods and containers, as k8s.io/kubernetes
//! pkg/apis/core/validation `validateWindowsSecurityContextOptions` checks them: the GMSA
//! credential spec and its name, and the `DOMAIN\user` form of `runAsUserName`.

use super::super::formats;
use super::super::FieldError;
use crate::validate::field::join;
use crate::value::Value;

const MAX_GMSA_CREDENTIAL_SPEC_KIB: usize = 64;
const MAX_RUN_AS_USER_NAME_DOMAIN: usize = 256;
const MAX_RUN_AS_USER_NAME_USER: usize = 104;

/// `validateWindowsSecurityContextOptions` of the options under `path` (a security context).
pub fn check(options: Option<&Value>, path: &str, errors: &mut Vec<FieldError>) {
    let Some(o) = options else {
        return;
    };
    let at = join(path, ".windowsOptions");
    let string = |key: &str| {
        o.get(key)
            .filter(|v| !v.is_null())
            .map(|v| v.as_str().unwrap_or(""))
    };
    if let Some(name) = string("gmsaCredentialSpecName") {
        for msg in formats::dns1123_subdomain(name) {
            errors.push(FieldError::invalid(
                join(&at, ".gmsaCredentialSpecName"),
                FieldError::string_value(name),
                msg,
            ));
        }
    }
    if let Some(spec) = string("gmsaCredentialSpec") {
        let detail = if spec.is_empty() {
            Some("gmsaCredentialSpec cannot be an empty string".to_string())
        } else if spec.len() > MAX_GMSA_CREDENTIAL_SPEC_KIB * 1024 {
            Some(format!(
                "gmsaCredentialSpec size must be under {MAX_GMSA_CREDENTIAL_SPEC_KIB} KiB"
            ))
        } else {
            None
        };
        if let Some(detail) = detail {
            errors.push(FieldError::invalid(
                join(&at, ".gmsaCredentialSpec"),
                FieldError::string_value(spec),
                detail,
            ));
        }
    }
    if let Some(name) = string("runAsUserName") {
        for detail in run_as_user_name(name) {
            errors.push(FieldError::invalid(
                join(&at, ".runAsUserName"),
                FieldError::string_value(name),
                detail,
            ));
        }
    }
}

/// The `runAsUserName` rules, in the server's order.
fn run_as_user_name(name: &str) -> Vec<String> {
    if name.is_empty() {
        return vec!["runAsUserName cannot be an empty string".into()];
    }
    if name.chars().any(|c| c.is_ascii_control()) {
        return vec!["runAsUserName cannot contain control characters".into()];
    }
    let parts: Vec<&str> = name.split('\\').collect();
    let (domain, user) = match parts.as_slice() {
        [user] => (None, *user),
        [domain, user] => (Some(*domain), *user),
        _ => return vec!["runAsUserName cannot contain more than one backslash".into()],
    };
    let mut errs = Vec::new();
    if domain.unwrap_or("").len() >= MAX_RUN_AS_USER_NAME_DOMAIN {
        errs.push(format!(
            "runAsUserName's Domain length must be under {MAX_RUN_AS_USER_NAME_DOMAIN} characters"
        ));
    }
    if let Some(d) = domain {
        if !(is_netbios_name(d) || is_windows_dns_name(d)) {
            errs.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format".into());
        }
    }
    if user.is_empty() {
        errs.push("runAsUserName's User cannot be empty".into());
    } else if user.len() > MAX_RUN_AS_USER_NAME_USER {
        errs.push(format!(
            "runAsUserName's User length must not be longer than {MAX_RUN_AS_USER_NAME_USER} characters"
        ));
    }
    if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
        errs.push("runAsUserName's User cannot contain only periods or spaces".into());
    }
    if user.chars().any(|c| "\"/\\:;|=,+*?<>@[]".contains(c)) {
        errs.push(
            "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]"
                .into(),
        );
    }
    errs
}

/// `^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$` (runes).
fn is_netbios_name(d: &str) -> bool {
    let banned = |c: char| "\\/:*?\"<>|".contains(c);
    let mut chars = d.chars();
    match chars.next() {
        Some(first) if !banned(first) && first != '.' => {
            let rest: Vec<char> = chars.collect();
            rest.len() <= 14 && !rest.iter().any(|&c| banned(c))
        }
        _ => false,
    }
}

/// Dot-separated labels `[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`.
fn is_windows_dns_name(d: &str) -> bool {
    d.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.len() <= 63
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names_follow_the_windows_rules() {
        assert!(run_as_user_name("NT AUTHORITY\\NETWORK SERVICE").is_empty());
        assert!(run_as_user_name("ContainerUser").is_empty());
        assert_eq!(
            run_as_user_name("a\\b\\c"),
            ["runAsUserName cannot contain more than one backslash"]
        );
        assert_eq!(
            run_as_user_name("-bad-\\..."),
            ["runAsUserName's User cannot contain only periods or spaces".to_string(),]
        );
        assert_eq!(
            run_as_user_name("dom:ain\\u@x"),
            [
                "runAsUserName's Domain doesn't match the NetBios nor the DNS format",
                "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]",
            ]
        );
    }
}
