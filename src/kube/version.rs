//! The Kubernetes minor versions kssa embeds (1.30 … 1.37) and the version a run predicts for:
//! every version-dependent table (schemas, served versions, defaults) is keyed by it.

use std::fmt;
use std::str::FromStr;

/// One Kubernetes minor version among the embedded ones (major is always 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion {
    minor: u8,
}

/// The oldest and newest embedded minor versions.
const OLDEST_MINOR: u8 = 30;
const NEWEST_MINOR: u8 = 37;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KubeVersionError {
    #[error("Kubernetes version {0:?}: expected 1.MINOR, e.g. 1.37")]
    Malformed(String),
    #[error("Kubernetes {0} is not embedded: kssa knows {first} to {last}", first = KubeVersion::OLDEST, last = KubeVersion::NEWEST)]
    NotEmbedded(String),
}

impl KubeVersion {
    /// The value a version table gives this release. Tables cover every supported release, so
    /// a gap is a bug in the table.
    pub fn pick<T: Copy>(self, table: &[(VersionRange, T)]) -> T {
        table
            .iter()
            .find(|(range, _)| range.contains(self))
            .map(|(_, v)| *v)
            .expect("version tables cover every supported release")
    }

    pub const OLDEST: KubeVersion = KubeVersion {
        minor: OLDEST_MINOR,
    };
    pub const NEWEST: KubeVersion = KubeVersion {
        minor: NEWEST_MINOR,
    };

    /// `1.minor`, if embedded.
    pub const fn new(minor: u8) -> Option<KubeVersion> {
        if minor >= OLDEST_MINOR && minor <= NEWEST_MINOR {
            Some(KubeVersion { minor })
        } else {
            None
        }
    }

    pub const fn minor(self) -> u8 {
        self.minor
    }

    /// Every embedded version, oldest first.
    pub fn all() -> impl DoubleEndedIterator<Item = KubeVersion> + Clone {
        (OLDEST_MINOR..=NEWEST_MINOR).map(|minor| KubeVersion { minor })
    }

    /// Position among [`Self::all`]: 0 for the oldest.
    pub const fn index(self) -> usize {
        (self.minor - OLDEST_MINOR) as usize
    }

    /// The number of embedded versions.
    pub const COUNT: usize = (NEWEST_MINOR - OLDEST_MINOR + 1) as usize;

    /// The next newer embedded version, `None` for the newest.
    pub const fn newer(self) -> Option<KubeVersion> {
        KubeVersion::new(self.minor + 1)
    }
}

impl Default for KubeVersion {
    /// The newest: what a new cluster runs.
    fn default() -> Self {
        KubeVersion::NEWEST
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl FromStr for KubeVersion {
    type Err = KubeVersionError;

    /// `1.31`, `v1.31` and `1.31.4` (the patch level does not change what kssa predicts).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || KubeVersionError::Malformed(s.to_string());
        let trimmed = s.trim();
        let text = trimmed.strip_prefix('v').unwrap_or(trimmed);
        let mut parts = text.split('.');
        let (Some("1"), Some(minor)) = (parts.next(), parts.next()) else {
            return Err(malformed());
        };
        let patch_ok = match parts.next() {
            None => true,
            Some(p) => !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()),
        };
        if !patch_ok || parts.next().is_some() || minor.is_empty() {
            return Err(malformed());
        }
        if !minor.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        minor
            .parse::<u8>()
            .ok()
            .and_then(KubeVersion::new)
            .ok_or_else(|| KubeVersionError::NotEmbedded(format!("1.{minor}")))
    }
}

/// An inclusive range of versions, either end open: how version-dependent tables key rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionRange {
    pub since: Option<u8>,
    pub until: Option<u8>,
}

impl VersionRange {
    /// Every version.
    pub const ALWAYS: VersionRange = VersionRange {
        since: None,
        until: None,
    };

    /// `1.minor` and later.
    pub const fn since(minor: u8) -> VersionRange {
        VersionRange {
            since: Some(minor),
            until: None,
        }
    }

    /// Up to and including `1.minor`.
    pub const fn until(minor: u8) -> VersionRange {
        VersionRange {
            since: None,
            until: Some(minor),
        }
    }

    /// `1.since` to `1.until`, both included.
    pub const fn between(since: u8, until: u8) -> VersionRange {
        VersionRange {
            since: Some(since),
            until: Some(until),
        }
    }

    pub fn contains(self, v: KubeVersion) -> bool {
        self.since.is_none_or(|s| v.minor >= s) && self.until.is_none_or(|u| v.minor <= u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_minor_versions() {
        assert_eq!("1.31".parse::<KubeVersion>().unwrap().minor(), 31);
        assert_eq!("v1.37".parse::<KubeVersion>().unwrap(), KubeVersion::NEWEST);
        assert_eq!(
            "1.30.2".parse::<KubeVersion>().unwrap(),
            KubeVersion::OLDEST
        );
        assert_eq!(
            "1.29".parse::<KubeVersion>().unwrap_err().to_string(),
            "Kubernetes 1.29 is not embedded: kssa knows 1.30 to 1.37"
        );
        for bad in ["", "1", "2.30", "1.x", "1.31.", "1.31.2.1", "1.+3"] {
            assert!(
                matches!(
                    bad.parse::<KubeVersion>(),
                    Err(KubeVersionError::Malformed(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn versions_are_ordered_and_ranged() {
        let all: Vec<String> = KubeVersion::all().map(|v| v.to_string()).collect();
        assert_eq!(all.first().unwrap(), "1.30");
        assert_eq!(all.len(), KubeVersion::COUNT);
        assert_eq!(KubeVersion::NEWEST.index(), KubeVersion::COUNT - 1);
        assert_eq!(KubeVersion::NEWEST.newer(), None);
        let v33 = KubeVersion::new(33).unwrap();
        assert!(VersionRange::since(33).contains(v33));
        assert!(!VersionRange::since(34).contains(v33));
        assert!(VersionRange::until(33).contains(v33));
        assert!(!VersionRange::until(32).contains(v33));
        assert!(VersionRange::ALWAYS.contains(v33));
    }
}
