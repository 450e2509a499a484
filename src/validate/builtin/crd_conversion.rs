//! A CustomResourceDefinition's conversion settings (k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go `validateCustomResourceConversion`,
//! `validateConversionReviewVersions`), reusing the admission webhooks' client config rules.

use super::super::goprint::go_quote;
use super::super::{formats, BadValue, FieldError, Write};
use super::crd_ca_bundle;
use super::crd_definition::{enum_string, preserves_unknown};
use super::fields::{items, present, text};
use super::webhook_client;
use crate::validate::field::indexed;
use crate::value::Value;

/// `NoneConverter`, `WebhookConverter`.
const STRATEGIES: &[&str] = &["None", "Webhook"];
/// `acceptedConversionReviewVersions`, sorted.
const REVIEW_VERSIONS: &[&str] = &["v1", "v1beta1"];

/// The conversion strategy against `preserveUnknownFields`, then
/// `validateCustomResourceConversion` on the internal fields (`webhookClientConfig`,
/// `conversionReviewVersions`, from v1's `conversion.webhook`).
pub(super) fn conversion(w: &Write, spec: &Value, errors: &mut Vec<FieldError>) {
    let default = Value::Null;
    let conv = present(spec, "conversion").unwrap_or(&default);
    let strategy = match text(conv, "strategy") {
        "" if conv.is_null() => "None",
        s => s,
    };
    if strategy != "None" && preserves_unknown(spec) {
        errors.push(FieldError::invalid(
            "spec.conversion.strategy",
            FieldError::string_value(strategy),
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    enum_string("spec.conversion.strategy", strategy, STRATEGIES, errors);
    let webhook = present(conv, "webhook");
    let client = webhook.and_then(|h| present(h, "clientConfig"));
    let reviews = webhook.map_or(&[][..], |h| items(h.get("conversionReviewVersions")));
    if strategy == "Webhook" {
        match client {
            None => errors.push(FieldError::required(
                "spec.conversion.webhookClientConfig",
                "required when strategy is set to Webhook",
            )),
            Some(cc) => {
                webhook_client::client_config(
                    cc,
                    "spec.conversion.webhookClientConfig",
                    w.version(),
                    errors,
                );
                crd_ca_bundle::check(w, cc, errors);
            }
        }
        review_versions(w, reviews, errors);
    } else {
        if client.is_some() {
            errors.push(FieldError::forbidden(
                "spec.conversion.webhookClientConfig",
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !reviews.is_empty() {
            errors.push(FieldError::forbidden(
                "spec.conversion.conversionReviewVersions",
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

/// `validateConversionReviewVersions`; a recognized version is required unless the stored
/// object had none (`hasValidConversionReviewVersionOrEmpty`).
fn review_versions(w: &Write, reviews: &[Value], errors: &mut Vec<FieldError>) {
    let at = "spec.conversion.conversionReviewVersions";
    if reviews.is_empty() {
        errors.push(FieldError::required(at, ""));
        return;
    }
    let mut seen = Vec::new();
    let mut accepted = false;
    for (i, v) in reviews.iter().enumerate() {
        let v = v.as_str().unwrap_or("");
        if seen.contains(&v) {
            errors.push(FieldError::invalid(
                indexed(at, i),
                FieldError::string_value(v),
                "duplicate version",
            ));
            continue;
        }
        seen.push(v);
        for msg in formats::dns1035_label(v) {
            errors.push(FieldError::invalid(
                indexed(at, i),
                FieldError::string_value(v),
                msg,
            ));
        }
        accepted |= REVIEW_VERSIONS.contains(&v);
    }
    let require = w.live.is_none_or(|old| {
        let old_reviews = old
            .get_path(&["spec", "conversion", "webhook", "conversionReviewVersions"])
            .map_or(&[][..], |r| items(Some(r)));
        old_reviews.is_empty()
            || old_reviews
                .iter()
                .any(|r| REVIEW_VERSIONS.contains(&r.as_str().unwrap_or("")))
    });
    if require && !accepted {
        let strings: Vec<&str> = reviews.iter().map(|v| v.as_str().unwrap_or("")).collect();
        let quoted: Vec<String> = strings.iter().map(|s| go_quote(s)).collect();
        let value = BadValue::GoValue {
            value: Value::List(reviews.iter().cloned().collect()),
            go_syntax: format!("[]string{{{}}}", quoted.join(", ")),
        };
        errors.push(FieldError::invalid(
            at,
            value,
            format!(
                "must include at least one of {}",
                REVIEW_VERSIONS.join(", ")
            ),
        ));
    }
}
