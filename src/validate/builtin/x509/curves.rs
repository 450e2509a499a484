//! The public half of a private key, as Go derives it when it parses one: `ScalarBaseMult`
//! on the NIST curves `crypto/x509` knows (`namedCurveFromOID`: P-224, P-256, P-384, P-521)
//! and Ed25519's `NewKeyFromSeed`. Only equality with a certificate's key is asked of these
//! figures, never secrecy: plain big-integer arithmetic, not constant time.

use num_bigint::BigUint;
use sha2::{Digest, Sha512};

/// A short-Weierstrass curve y² = x³ − 3x + b over the prime field of `p`, of order `n`,
/// with the generator (`gx`, `gy`); hex as SEC 2 gives them.
pub struct Curve {
    pub oid: &'static [u64],
    p: &'static str,
    b: &'static str,
    gx: &'static str,
    gy: &'static str,
    n: &'static str,
}

pub const CURVES: &[Curve] = &[
    Curve {
        oid: &[1, 3, 132, 0, 33],
        p: "ffffffffffffffffffffffffffffffff000000000000000000000001",
        b: "b4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4",
        gx: "b70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21",
        gy: "bd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34",
        n: "ffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
    },
    Curve {
        oid: &[1, 2, 840, 10045, 3, 1, 7],
        p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
        b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
        gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
        gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
        n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    },
    Curve {
        oid: &[1, 3, 132, 0, 34],
        p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
        b: "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
        gx: "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
        gy: "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
        n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
    },
    Curve {
        oid: &[1, 3, 132, 0, 35],
        p: "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        b: "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
        gx: "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
        gy: "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650",
        n: "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
    },
];

fn hex(text: &str) -> BigUint {
    BigUint::parse_bytes(text.as_bytes(), 16).expect("curve constants are hex")
}

pub fn curve_for(oid: &[u64]) -> Option<&'static Curve> {
    CURVES.iter().find(|c| c.oid == oid)
}

/// A point in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity.
#[derive(Clone)]
struct Jacobian(BigUint, BigUint, BigUint);

struct Field {
    p: BigUint,
}

impl Field {
    fn sub(&self, a: &BigUint, b: &BigUint) -> BigUint {
        (a + &self.p - b) % &self.p
    }
    fn mul(&self, a: &BigUint, b: &BigUint) -> BigUint {
        (a * b) % &self.p
    }
    fn inverse(&self, a: &BigUint) -> BigUint {
        a.modpow(&(&self.p - 2u32), &self.p)
    }

    fn double(&self, q: &Jacobian) -> Jacobian {
        let Jacobian(x, y, z) = q;
        if *z == BigUint::ZERO || *y == BigUint::ZERO {
            return Jacobian(BigUint::ZERO, BigUint::from(1u32), BigUint::ZERO);
        }
        let yy = self.mul(y, y);
        let s = self.mul(&(x * 4u32), &yy);
        let zz = self.mul(z, z);
        // a = −3: M = 3(X − Z²)(X + Z²).
        let m = self.mul(&(self.sub(x, &zz) * 3u32), &(x + &zz));
        let x3 = self.sub(&self.mul(&m, &m), &((&s * 2u32) % &self.p));
        let y4 = self.mul(&yy, &yy);
        let y3 = self.sub(&self.mul(&m, &self.sub(&s, &x3)), &((y4 * 8u32) % &self.p));
        let z3 = self.mul(&(y * 2u32), z);
        Jacobian(x3, y3, z3)
    }

    fn add(&self, a: &Jacobian, b: &Jacobian) -> Jacobian {
        if a.2 == BigUint::ZERO {
            return b.clone();
        }
        if b.2 == BigUint::ZERO {
            return a.clone();
        }
        let (z1z1, z2z2) = (self.mul(&a.2, &a.2), self.mul(&b.2, &b.2));
        let u1 = self.mul(&a.0, &z2z2);
        let u2 = self.mul(&b.0, &z1z1);
        let s1 = self.mul(&a.1, &self.mul(&b.2, &z2z2));
        let s2 = self.mul(&b.1, &self.mul(&a.2, &z1z1));
        if u1 == u2 {
            return if s1 == s2 {
                self.double(a)
            } else {
                Jacobian(BigUint::ZERO, BigUint::from(1u32), BigUint::ZERO)
            };
        }
        let h = self.sub(&u2, &u1);
        let r = self.sub(&s2, &s1);
        let hh = self.mul(&h, &h);
        let hhh = self.mul(&hh, &h);
        let v = self.mul(&u1, &hh);
        let x3 = self.sub(&self.sub(&self.mul(&r, &r), &hhh), &((&v * 2u32) % &self.p));
        let y3 = self.sub(&self.mul(&r, &self.sub(&v, &x3)), &self.mul(&s1, &hhh));
        let z3 = self.mul(&self.mul(&h, &a.2), &b.2);
        Jacobian(x3, y3, z3)
    }
}

impl Curve {
    pub fn order(&self) -> BigUint {
        hex(self.n)
    }

    /// The length of a field element in bytes.
    pub fn byte_len(&self) -> usize {
        hex(self.p).bits().div_ceil(8) as usize
    }

    /// Whether (x, y) lies on the curve, both coordinates reduced (`elliptic.Unmarshal`'s
    /// check).
    pub fn contains(&self, x: &BigUint, y: &BigUint) -> bool {
        let p = hex(self.p);
        if *x >= p || *y >= p {
            return false;
        }
        let field = Field { p: p.clone() };
        let x3 = field.mul(&field.mul(x, x), x);
        let rhs = (field.sub(&x3, &((x * 3u32) % &p)) + hex(self.b)) % &p;
        field.mul(y, y) == rhs
    }

    /// k·G in affine coordinates; `None` for the point at infinity.
    pub fn scalar_base_mult(&self, k: &BigUint) -> Option<(BigUint, BigUint)> {
        let field = Field { p: hex(self.p) };
        let base = Jacobian(hex(self.gx), hex(self.gy), BigUint::from(1u32));
        let mut acc = Jacobian(BigUint::ZERO, BigUint::from(1u32), BigUint::ZERO);
        for i in (0..k.bits()).rev() {
            acc = field.double(&acc);
            if k.bit(i) {
                acc = field.add(&acc, &base);
            }
        }
        if acc.2 == BigUint::ZERO {
            return None;
        }
        let z_inv = field.inverse(&acc.2);
        let z_inv2 = field.mul(&z_inv, &z_inv);
        let x = field.mul(&acc.0, &z_inv2);
        let y = field.mul(&acc.1, &field.mul(&z_inv2, &z_inv));
        Some((x, y))
    }
}

/// The Ed25519 public key of a 32-byte seed (RFC 8032 §5.1.5, as Go's `NewKeyFromSeed`): the
/// clamped first half of SHA-512(seed) times the base point, encoded as y with x's parity in
/// the top bit.
pub fn ed25519_public(seed: &[u8]) -> [u8; 32] {
    let digest = Sha512::digest(seed);
    let mut scalar = [0u8; 32];
    scalar.copy_from_slice(&digest[..32]);
    scalar[0] &= 248;
    scalar[31] &= 127;
    scalar[31] |= 64;
    let k = BigUint::from_bytes_le(&scalar);
    let p = (BigUint::from(1u32) << 255u32) - 19u32;
    let field = Field { p: p.clone() };
    // d = −121665/121666.
    let d = field.sub(
        &BigUint::ZERO,
        &field.mul(
            &BigUint::from(121665u32),
            &field.inverse(&BigUint::from(121666u32)),
        ),
    );
    let d2 = (&d * 2u32) % &p;
    let bx = BigUint::parse_bytes(
        b"15112221349535400772501151409588531511454012693041857206046113283949847762202",
        10,
    )
    .expect("decimal");
    let by = BigUint::parse_bytes(
        b"46316835694926478169428394003475163141307993866256225615783033603165251855960",
        10,
    )
    .expect("decimal");
    // Extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, T = XY/Z; the unified addition of
    // a = −1 twisted Edwards curves (Hisil et al.) also doubles.
    type Extended = (BigUint, BigUint, BigUint, BigUint);
    let add = |a: &Extended, b: &Extended| -> Extended {
        let pa = field.mul(&field.sub(&a.1, &a.0), &field.sub(&b.1, &b.0));
        let pb = field.mul(&((&a.1 + &a.0) % &p), &((&b.1 + &b.0) % &p));
        let pc = field.mul(&field.mul(&a.3, &d2), &b.3);
        let pd = field.mul(&(&a.2 * 2u32), &b.2);
        let (e, f, g, h) = (
            field.sub(&pb, &pa),
            field.sub(&pd, &pc),
            (&pd + &pc) % &p,
            (&pb + &pa) % &p,
        );
        (
            field.mul(&e, &f),
            field.mul(&g, &h),
            field.mul(&f, &g),
            field.mul(&e, &h),
        )
    };
    let base: Extended = (
        bx.clone(),
        by.clone(),
        BigUint::from(1u32),
        field.mul(&bx, &by),
    );
    let mut acc: Extended = (
        BigUint::ZERO,
        BigUint::from(1u32),
        BigUint::from(1u32),
        BigUint::ZERO,
    );
    for i in (0..k.bits()).rev() {
        acc = add(&acc, &acc);
        if k.bit(i) {
            acc = add(&acc, &base);
        }
    }
    let z_inv = field.inverse(&acc.2);
    let x = field.mul(&acc.0, &z_inv);
    let y = field.mul(&acc.1, &z_inv);
    let mut out = [0u8; 32];
    let bytes = y.to_bytes_le();
    out[..bytes.len()].copy_from_slice(&bytes);
    if x.bit(0) {
        out[31] |= 0x80;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_lie_on_their_curves_and_have_their_order() {
        for curve in CURVES {
            assert!(curve.contains(&hex(curve.gx), &hex(curve.gy)));
            assert_eq!(curve.scalar_base_mult(&curve.order()), None);
            let one = curve.scalar_base_mult(&BigUint::from(1u32)).unwrap();
            assert_eq!(one, (hex(curve.gx), hex(curve.gy)));
            let two = curve.scalar_base_mult(&BigUint::from(2u32)).unwrap();
            assert!(curve.contains(&two.0, &two.1));
        }
    }

    #[test]
    fn ed25519_matches_rfc8032_test_1() {
        let seed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
        let seed: Vec<u8> = (0..32)
            .map(|i| u8::from_str_radix(&seed[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let public: String = ed25519_public(&seed)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            public,
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
        );
    }
}
