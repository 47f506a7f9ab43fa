//! Line IDs: a short, deterministic name for a line's content.
//!
//! The algorithm, fixed so every platform and every version agrees:
//!
//! 1. Take the line without its line ending and drop trailing whitespace
//!    (spaces, tabs, `\r` and any other Unicode white space at the end). A
//!    line that differs only in trailing whitespace keeps its ID, so a CRLF
//!    view and an editor that trims lines never invalidate anchors.
//! 2. Hash its UTF-8 bytes with 64-bit FNV-1a (offset basis
//!    `0xcbf29ce484222325`, prime `0x100000001b3`).
//! 3. Mix the result with the 64-bit finaliser of MurmurHash3 (`fmix64`:
//!    `h ^= h >> 33; h *= 0xff51afd7ed558ccd; h ^= h >> 33;
//!    h *= 0xc4ceb9fe1a85ec53; h ^= h >> 33`). Plain FNV-1a leaves its last
//!    byte in bits 0..48 only, so lines that differ in their final characters
//!    (`a: 1,` / `a: 2,`) shared their top bits about 600 times more often
//!    than chance in our measurement; the finaliser spreads every bit.
//! 4. Render the mixed hash from its most significant bits down, 5 bits per
//!    character, in the alphabet [`ALPHABET`] (Crockford's base 32 in lower
//!    case: digits and letters without `i`, `l`, `o`, `u`, so nothing looks
//!    alike).
//!
//! With the default width of [`DEFAULT_WIDTH`] characters there are 32³ =
//! 32 768 IDs; the measured share of pairs of different lines in one real
//! source file that share an ID is in the crate README and is printed by
//! `cargo run --release --example lineid_collisions`.

/// The 32 characters an ID is written in, indexed by 5-bit value.
pub const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// The width used when the caller does not choose one.
pub const DEFAULT_WIDTH: usize = 3;

/// The widest ID: 12 characters use 60 of the hash's 64 bits.
pub const MAX_WIDTH: usize = 12;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = FNV_OFFSET;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// MurmurHash3's 64-bit finaliser: every input bit reaches every output bit.
pub fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

/// The hash a line's ID is drawn from: `fmix64(fnv1a64(line.trim_end()))`.
pub fn line_hash(line: &str) -> u64 {
    fmix64(fnv1a64(line.trim_end().as_bytes()))
}

/// The ID of `line` with `width` characters (clamped to `1..=MAX_WIDTH`).
///
/// ```
/// use editblocks::hashline::line_id;
/// assert_eq!(line_id("fn main() {", 3), line_id("fn main() {  \r", 3));
/// assert_eq!(line_id("fn main() {", 3).len(), 3);
/// ```
pub fn line_id(line: &str, width: usize) -> String {
    render_id(line_hash(line), width)
}

/// Renders the top `width * 5` bits of `hash` in [`ALPHABET`].
pub fn render_id(hash: u64, width: usize) -> String {
    let width = width.clamp(1, MAX_WIDTH);
    (0..width)
        .map(|i| {
            let shift = 64 - 5 * (i + 1);
            char::from(ALPHABET[((hash >> shift) & 31) as usize])
        })
        .collect()
}

/// True when every character of `id` is in [`ALPHABET`].
pub fn is_id_text(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_reference_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(fmix64(0), 0);
        assert_eq!(line_hash("a  "), fmix64(0xaf63_dc4c_8601_ec8c));
    }

    #[test]
    fn rendering_takes_the_high_bits_first() {
        assert_eq!(render_id(0, 3), "000");
        assert_eq!(render_id(u64::MAX, 2), "zz");
        assert_eq!(render_id(1u64 << 63, 1), "g"); // 0b10000 = 16 -> 'g'
        assert_eq!(render_id(0xaf63_dc4c_8601_ec8c, 12).len(), 12);
        assert_eq!(render_id(5, 0).len(), 1);
        assert_eq!(render_id(5, 99).len(), MAX_WIDTH);
    }

    #[test]
    fn trailing_whitespace_is_ignored_but_leading_is_not() {
        assert_eq!(line_id("x = 1;\t \r", 4), line_id("x = 1;", 4));
        assert_ne!(line_id("  x = 1;", 4), line_id("x = 1;", 4));
    }

    #[test]
    fn prefixes_agree_across_widths() {
        let long = line_id("let answer = 42;", 8);
        assert!(long.starts_with(&line_id("let answer = 42;", 3)));
    }
}
