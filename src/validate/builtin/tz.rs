//! Go's `time.LoadLocation` as the API server runs it for a CronJob's time zone, answered from
//! an embedded list of IANA zone names (`tzdata.txt`) instead of the host's zoneinfo, so that
//! validation never reads the filesystem.
//!
//! The server's answer depends on its host: Go looks in `/usr/share/zoneinfo` first (the
//! official images are distroless, with Debian's tzdata), then in the `time/tzdata` package
//! kube-apiserver embeds. kssa follows the image: a directory (`America`) answers `is a
//! directory`, the data files that are not zones `malformed time zone information`, and the
//! `posix/` and `right/` copies of the zones load.

/// Zone and link names, one a line, `#` comments (generated from tzdata.zi, tzdata 2025b).
const ZONES: &str = include_str!("tzdata.txt");

/// Files of `/usr/share/zoneinfo` that are not zones: `LoadLocationFromTZData` refuses them.
const NOT_ZONES: &[&str] = &[
    "iso3166.tab",
    "leap-seconds.list",
    "leapseconds",
    "tzdata.zi",
    "zone.tab",
    "zone1970.tab",
];

fn zone_names() -> impl Iterator<Item = &'static str> {
    ZONES
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// `time.LoadLocation(name)`: `Ok` when the zone loads, else Go's error text.
pub fn load_location(name: &str) -> Result<(), String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(());
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".into());
    }
    let zone = name
        .strip_prefix("posix/")
        .or_else(|| name.strip_prefix("right/"))
        .unwrap_or(name);
    if zone_names().any(|z| z == zone) || name == "posixrules" {
        return Ok(());
    }
    let dir = format!("{zone}/");
    if matches!(name, "posix" | "right") || zone_names().any(|z| z.starts_with(&dir)) {
        return Err("is a directory".into());
    }
    if NOT_ZONES.contains(&name) {
        return Err("malformed time zone information".into());
    }
    Err(format!("unknown time zone {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_and_links_load() {
        for ok in [
            "",
            "UTC",
            "Local",
            "Europe/Paris",
            "America/Argentina/Buenos_Aires",
            "US/Eastern",
            "Etc/GMT+5",
            "posix/Asia/Tokyo",
        ] {
            assert_eq!(load_location(ok), Ok(()), "{ok}");
        }
        assert!(zone_names().count() > 590);
    }

    #[test]
    fn others_fail_with_gos_errors() {
        assert_eq!(
            load_location("Europe/Pariss"),
            Err("unknown time zone Europe/Pariss".into())
        );
        assert_eq!(
            load_location("europe/paris"),
            Err("unknown time zone europe/paris".into())
        );
        assert_eq!(
            load_location("Europe/../etc"),
            Err("time: invalid location name".into())
        );
        assert_eq!(load_location("America"), Err("is a directory".into()));
        assert_eq!(
            load_location("zone.tab"),
            Err("malformed time zone information".into())
        );
    }
}
