// Shared by the fuzz targets: how one input is cut into parts.
#![allow(dead_code)]

/// The input as a flags byte and up to `n` text parts separated by 0xFF
/// (never part of UTF-8, so the texts themselves can be anything; invalid
/// UTF-8 is read lossily). Missing parts are empty.
pub fn parts(data: &[u8], n: usize) -> (u8, Vec<String>) {
    let (flags, rest) = match data.split_first() {
        Some((f, rest)) => (*f, rest),
        None => (0, &[][..]),
    };
    let mut out: Vec<String> = rest
        .splitn(n, |b| *b == 0xff)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    out.resize(n, String::new());
    (flags, out)
}

/// A small deterministic generator seeded from the input, for chunkings.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `text` cut into chunks at char boundaries, sizes from `rng`.
pub fn chunks<'a>(text: &'a str, rng: &mut Rng, max: usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 1 + rng.below(max)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[at..end]);
        at = end;
    }
    out
}

/// `on` when the bit of `flags` with value `bit` is set, else `off` (the
/// targets choose their options from the flags byte).
pub fn pick<T>(flags: u8, bit: u8, on: T, off: T) -> T {
    if flags & bit != 0 {
        on
    } else {
        off
    }
}

/// The folder outside the usual tree some runs allow writing to.
pub fn allowed_folders(flags: u8, bit: u8) -> Vec<String> {
    pick(flags, bit, vec![".git/info".to_string()], Vec::new())
}
