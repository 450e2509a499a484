//! IP addresses and CIDR blocks as the server's lenient parsers read them
//! (k8s.io/utils/net `ParseIPSloppy`, `ParseCIDRSloppy`: Go 1.16's `net` parsers, which allow
//! leading zeros in IPv4 octets), for the Ingress host and NetworkPolicy ipBlock rules.

use std::net::Ipv6Addr;

/// An address as 16 bytes (IPv4 mapped into IPv6, as Go holds it) and whether it was written
/// as IPv4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ip {
    pub bytes: [u8; 16],
    pub v4: bool,
}

/// Dotted-quad IPv4, each part decimal (leading zeros allowed) and at most 255.
fn parse_v4(s: &str) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = s.split('.');
    for slot in &mut out {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse::<u16>().ok().filter(|n| *n <= 255)? as u8;
    }
    parts.next().is_none().then_some(out)
}

/// `ParseIPSloppy`.
pub fn parse_ip(s: &str) -> Option<Ip> {
    if let Some(v4) = parse_v4(s) {
        let mut bytes = [0u8; 16];
        bytes[10] = 0xff;
        bytes[11] = 0xff;
        bytes[12..].copy_from_slice(&v4);
        return Some(Ip { bytes, v4: true });
    }
    if !s.contains(':') {
        return None;
    }
    // An embedded IPv4 tail may have leading zeros too: rewrite it before std parses.
    let normalized = match s.rfind(':') {
        Some(i) if s[i + 1..].contains('.') => {
            let v4 = parse_v4(&s[i + 1..])?;
            format!("{}{}.{}.{}.{}", &s[..=i], v4[0], v4[1], v4[2], v4[3])
        }
        _ => s.to_string(),
    };
    let addr: Ipv6Addr = normalized.parse().ok()?;
    Some(Ip {
        bytes: addr.octets(),
        v4: false,
    })
}

/// A parsed CIDR: the network address (masked) and the prefix length in its family's bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    pub network: Ip,
    pub prefix: u8,
}

impl Cidr {
    fn bits(&self) -> u8 {
        if self.network.v4 {
            32
        } else {
            128
        }
    }

    /// `net.IPNet.Contains` of another network's address.
    pub fn contains(&self, ip: &Ip) -> bool {
        if self.network.v4 != ip.v4 {
            return false;
        }
        let offset = if self.network.v4 { 96 } else { 0 };
        let total = offset + self.prefix as usize;
        (0..total).skip(offset).all(|bit| {
            let (byte, shift) = (bit / 8, 7 - bit % 8);
            (self.network.bytes[byte] >> shift) & 1 == (ip.bytes[byte] >> shift) & 1
        })
    }
}

/// `ParseCIDRSloppy`: an address, `/`, a decimal prefix length within the family's bits.
pub fn parse_cidr(s: &str) -> Option<Cidr> {
    let (addr, len) = s.split_once('/')?;
    let mut ip = parse_ip(addr)?;
    if len.is_empty() || len.len() > 3 || !len.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let prefix: u8 = len.parse().ok()?;
    let cidr = Cidr {
        network: ip,
        prefix,
    };
    if prefix > cidr.bits() {
        return None;
    }
    let offset = if ip.v4 { 96 } else { 0 };
    for bit in offset + prefix as usize..128 {
        ip.bytes[bit / 8] &= !(1 << (7 - bit % 8));
    }
    Some(Cidr {
        network: ip,
        prefix,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_leniently() {
        assert!(parse_ip("10.0.0.1").is_some_and(|ip| ip.v4));
        assert!(parse_ip("010.000.0.1").is_some());
        assert!(parse_ip("::1").is_some_and(|ip| !ip.v4));
        assert!(parse_ip("::ffff:1.2.3.4").is_some());
        assert!(parse_ip("1.2.3").is_none());
        assert!(parse_ip("256.1.1.1").is_none());
        assert!(parse_ip("example.com").is_none());
    }

    #[test]
    fn cidrs_contain_their_subnets() {
        let net = parse_cidr("10.0.0.0/8").unwrap();
        let sub = parse_cidr("10.1.2.3/16").unwrap();
        assert!(net.contains(&sub.network));
        assert!(!net.contains(&parse_cidr("11.0.0.0/16").unwrap().network));
        assert!(parse_cidr("10.0.0.0/33").is_none());
        assert!(parse_cidr("10.0.0.0").is_none());
        assert!(parse_cidr("fd00::/8").is_some());
        assert!(!net.contains(&parse_cidr("fd00::/8").unwrap().network));
    }
}
