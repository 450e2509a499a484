//! Ages of managedFields entries, printed the way kubectl prints ages ("5d", "2y10d").

/// Seconds since the Unix epoch of an RFC 3339 timestamp; `None` when it is not one.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    super::Time::parse(text).ok().map(|t| t.0)
}

/// An age as kubectl prints it (`apimachinery/pkg/util/duration.HumanDuration`).
pub fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        let y = hours / 24 / 365;
        return if dy == 0 {
            format!("{y}y")
        } else {
            format!("{y}y{dy}d")
        };
    }
    format!("{}y", hours / 24 / 365)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2022-10-06T20:46:22Z"), Some(1_665_089_182));
        assert_eq!(
            parse_rfc3339("2022-10-06T22:46:22.5+02:00"),
            Some(1_665_089_182)
        );
        assert_eq!(parse_rfc3339("2022-10-06"), None);
    }

    #[test]
    fn ages_like_kubectl() {
        assert_eq!(human_duration(59), "59s");
        assert_eq!(human_duration(5 * 60 + 3), "5m3s");
        assert_eq!(human_duration(3 * 3600 + 600), "3h10m");
        assert_eq!(human_duration(3 * 86400 + 7200), "3d2h");
        assert_eq!(human_duration(400 * 86400), "400d");
        assert_eq!(human_duration(3 * 365 * 86400 + 10 * 86400), "3y10d");
    }
}
