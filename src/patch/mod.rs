//! Strategic merge patch, JSON merge patch (RFC 7386) and JSON patch (RFC 6902).
