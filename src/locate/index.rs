//! The lines of a file being edited, kept so that a reply of many blocks
//! stays near-linear: finding a block and splicing it in cost about the size
//! of the block, not of the file.
//!
//! Lines live in chunks of a few hundred. A Fenwick tree over the chunk
//! lengths turns a line number into a chunk and back in `O(log chunks)`. An
//! index from each line's hash to the chunks that hold it (with a count of
//! every hash) lets a search start from the rarest line of the sequence it
//! looks for. The index is cleaned lazily: a lookup drops chunks that no
//! longer hold the hash, so removing a line never scans a list.
//!
//! Every line remembers where it came from ([`Line::origin`]): its index in
//! the file as read, or none for a line an edit wrote. Writing the file back
//! gives each kept line its own line ending by construction (no diff).

use std::collections::HashMap;

/// Lines per chunk after a split; a chunk splits when it grows past twice this.
const CHUNK: usize = 256;

/// One line, without its terminator.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub text: String,
    pub hash: u64,
    /// Index of this line in the file as read; `None` for a line an edit wrote.
    pub origin: Option<u32>,
}

impl Line {
    pub fn new(text: &str, origin: Option<u32>) -> Line {
        Line {
            text: text.to_string(),
            hash: line_hash(text),
            origin,
        }
    }
}

use super::line_hash;

/// A Fenwick (binary indexed) tree of chunk lengths.
#[derive(Debug, Clone, Default)]
struct Fenwick {
    tree: Vec<usize>,
}

impl Fenwick {
    fn build(lengths: impl Iterator<Item = usize>) -> Fenwick {
        let mut tree: Vec<usize> = lengths.collect();
        for i in 0..tree.len() {
            let parent = i | (i + 1);
            if parent < tree.len() {
                tree[parent] += tree[i];
            }
        }
        Fenwick { tree }
    }

    fn add(&mut self, mut i: usize, delta: isize) {
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add_signed(delta);
            i |= i + 1;
        }
    }

    /// Sum of lengths of chunks `0..i`.
    fn prefix(&self, i: usize) -> usize {
        let (mut sum, mut i) = (0, i);
        while i > 0 {
            sum += self.tree[i - 1];
            i &= i - 1;
        }
        sum
    }

    /// The chunk holding line `pos` and the lines before that chunk: the
    /// first chunk whose prefix sum including itself exceeds `pos`.
    fn find(&self, pos: usize) -> (usize, usize) {
        let (mut at, mut rest) = (0usize, pos);
        let mut step = self.tree.len().next_power_of_two();
        while step > 0 {
            let next = at + step;
            if next <= self.tree.len() && self.tree[next - 1] <= rest {
                rest -= self.tree[next - 1];
                at = next;
            }
            step >>= 1;
        }
        (at, pos - rest)
    }
}

/// The lines of one file, in chunks.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lines {
    /// Chunks in file order; `ids[i]` names `chunks[i]` in the index.
    chunks: Vec<Vec<Line>>,
    ids: Vec<u32>,
    /// Chunk id to its position in `chunks`.
    position_of: Vec<u32>,
    sizes: Fenwick,
    len: usize,
    /// For each hash: how many lines have it, and the chunks holding them.
    index: HashMap<u64, Entry>,
}

/// How many lines have a hash, and the ids of chunks that held such a line
/// when it was added (may be stale or repeated; cleaned by lookups). Most
/// lines are unique, so one id is kept inline.
#[derive(Debug, Clone)]
struct Entry {
    count: u32,
    first: u32,
    more: Vec<u32>,
}

impl Entry {
    fn add(&mut self, id: u32) {
        self.count += 1;
        if self.first != id {
            self.more.push(id);
        }
    }
}

impl Lines {
    pub fn from_lines(lines: Vec<Line>) -> Lines {
        let mut out = Lines::default();
        out.index.reserve(lines.len());
        let mut chunk = Vec::with_capacity(CHUNK);
        for line in lines {
            chunk.push(line);
            if chunk.len() == CHUNK {
                out.push_chunk(std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)));
            }
        }
        if !chunk.is_empty() {
            out.push_chunk(chunk);
        }
        out.rebuild();
        out
    }

    /// Appends a chunk (call [`Lines::rebuild`] afterwards).
    fn push_chunk(&mut self, chunk: Vec<Line>) {
        let id = self.position_of.len() as u32;
        for line in &chunk {
            self.index_line(line.hash, id);
        }
        self.len += chunk.len();
        self.position_of.push(0);
        self.ids.push(id);
        self.chunks.push(chunk);
    }

    /// One line with `hash` fewer.
    fn forget(&mut self, hash: u64) {
        if let Some(entry) = self.index.get_mut(&hash) {
            entry.count -= 1;
            if entry.count == 0 {
                self.index.remove(&hash);
            }
        }
    }

    fn index_line(&mut self, hash: u64, id: u32) {
        self.index
            .entry(hash)
            .or_insert(Entry {
                count: 0,
                first: id,
                more: Vec::new(),
            })
            .add(id);
    }

    fn rebuild(&mut self) {
        for (pos, &id) in self.ids.iter().enumerate() {
            self.position_of[id as usize] = pos as u32;
        }
        self.sizes = Fenwick::build(self.chunks.iter().map(Vec::len));
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn iter(&self) -> impl Iterator<Item = &Line> {
        self.chunks.iter().flatten()
    }

    /// The lines from `pos` on.
    pub fn iter_from(&self, pos: usize) -> impl Iterator<Item = &Line> {
        let (chunk, before) = if pos >= self.len {
            (self.chunks.len(), pos)
        } else {
            self.sizes.find(pos)
        };
        let skip = pos - before;
        self.chunks[chunk.min(self.chunks.len())..]
            .iter()
            .flatten()
            .skip(skip)
    }

    /// The texts of lines `range` (for messages and the tolerant passes).
    pub fn texts(&self, range: std::ops::Range<usize>) -> Vec<&str> {
        self.iter_from(range.start)
            .take(range.len())
            .map(|l| l.text.as_str())
            .collect()
    }

    /// Every 0-based index where `seq` occurs as consecutive whole lines.
    pub fn find_all(&mut self, seq: &[&str]) -> Vec<usize> {
        if seq.is_empty() || seq.len() > self.len {
            return Vec::new();
        }
        let hashes: Vec<u64> = seq.iter().map(|l| line_hash(l)).collect();
        // Start from the rarest line of the sequence.
        let mut rarest = 0;
        let mut fewest = u32::MAX;
        for (k, h) in hashes.iter().enumerate() {
            let n = self.index.get(h).map_or(0, |e| e.count);
            if n < fewest {
                (rarest, fewest) = (k, n);
            }
            if n == 0 {
                return Vec::new();
            }
        }
        let mut starts: Vec<usize> = self
            .positions_of(hashes[rarest])
            .into_iter()
            .filter_map(|p| p.checked_sub(rarest))
            .filter(|&start| start + seq.len() <= self.len)
            .collect();
        starts.sort_unstable();
        starts.retain(|&start| {
            self.iter_from(start)
                .zip(seq.iter().zip(&hashes))
                .all(|(line, (text, h))| line.hash == *h && line.text == *text)
        });
        starts
    }

    /// Every line number holding a line with `hash`, in no order; cleans the index entry.
    fn positions_of(&mut self, hash: u64) -> Vec<usize> {
        let Some(entry) = self.index.get_mut(&hash) else {
            return Vec::new();
        };
        let mut ids = std::mem::take(&mut entry.more);
        ids.push(entry.first);
        ids.sort_unstable();
        ids.dedup();
        let mut found = Vec::new();
        let chunks = &self.chunks;
        let (position_of, sizes) = (&self.position_of, &self.sizes);
        ids.retain(|&id| {
            let pos = position_of[id as usize] as usize;
            let start = sizes.prefix(pos);
            let before = found.len();
            for (k, line) in chunks[pos].iter().enumerate() {
                if line.hash == hash {
                    found.push(start + k);
                }
            }
            found.len() > before
        });
        if let Some((&first, more)) = ids.split_first() {
            entry.first = first;
            entry.more = more.to_vec();
        }
        found
    }

    /// Replaces lines `range` with `new`.
    pub fn splice(&mut self, range: std::ops::Range<usize>, new: Vec<Line>) {
        let (from, to) = (range.start.min(self.len), range.end.min(self.len));
        // As many lines in as out, inside one chunk (the usual edit): replace in place.
        if to > from && to - from == new.len() {
            let (c, before) = self.sizes.find(from);
            if to - before <= self.chunks[c].len() {
                let id = self.ids[c];
                for (k, line) in new.into_iter().enumerate() {
                    let old = std::mem::replace(&mut self.chunks[c][from - before + k], line);
                    self.forget(old.hash);
                    let hash = self.chunks[c][from - before + k].hash;
                    self.index_line(hash, id);
                }
                return;
            }
        }
        // Remove, chunk by chunk.
        let mut remaining = to.saturating_sub(from);
        while remaining > 0 {
            let (c, before) = self.sizes.find(from);
            let offset = from - before;
            let take = remaining.min(self.chunks[c].len() - offset);
            let removed: Vec<u64> = self.chunks[c]
                .drain(offset..offset + take)
                .map(|l| l.hash)
                .collect();
            for hash in removed {
                self.forget(hash);
            }
            self.sizes.add(c, -(take as isize));
            self.len -= take;
            remaining -= take;
        }
        if new.is_empty() {
            return;
        }
        if self.chunks.is_empty() {
            self.len = 0;
            self.position_of.clear();
            self.ids.clear();
            self.push_chunk(new);
            self.rebuild();
            self.split_if_large(0);
            return;
        }
        // Insert into the chunk holding line `from` (or the last chunk, at the end).
        let (c, before) = if from >= self.len {
            (
                self.chunks.len() - 1,
                self.len - self.chunks.last().map_or(0, Vec::len),
            )
        } else {
            self.sizes.find(from)
        };
        let offset = from - before;
        let id = self.ids[c];
        for line in &new {
            self.index_line(line.hash, id);
        }
        let added = new.len();
        self.chunks[c].splice(offset..offset, new);
        self.sizes.add(c, added as isize);
        self.len += added;
        self.split_if_large(c);
    }

    /// Splits chunk `c` into chunks of [`CHUNK`] lines when it has grown past twice that.
    fn split_if_large(&mut self, c: usize) {
        if self.chunks[c].len() <= 2 * CHUNK {
            return;
        }
        // Cut from the back, so each cut moves one chunk's worth of lines.
        let mut pieces = Vec::new();
        while self.chunks[c].len() > 2 * CHUNK {
            let at = self.chunks[c].len() - CHUNK;
            pieces.push(self.chunks[c].split_off(at));
        }
        pieces.reverse();
        let mut new_ids = Vec::with_capacity(pieces.len());
        for piece in &pieces {
            let id = self.position_of.len() as u32;
            self.position_of.push(0);
            for line in piece {
                if let Some(entry) = self.index.get_mut(&line.hash) {
                    entry.more.push(id);
                }
            }
            new_ids.push(id);
        }
        self.chunks.splice(c + 1..c + 1, pieces);
        self.ids.splice(c + 1..c + 1, new_ids);
        self.rebuild();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Lines {
        Lines::from_lines(
            (0..n)
                .map(|i| Line::new(&format!("l{}", i % 7), Some(i as u32)))
                .collect(),
        )
    }

    fn texts(l: &Lines) -> Vec<String> {
        l.iter().map(|x| x.text.clone()).collect()
    }

    #[test]
    fn finds_and_splices_like_a_vec() {
        let mut l = lines(2000);
        let mut model = texts(&l);
        let mut seed = 7u64;
        for step in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = model.len();
            let from = (seed >> 33) as usize % (len + 1);
            let to = (from + (seed >> 20) as usize % 5).min(len);
            let n = (seed >> 10) as usize % (if step % 3 == 0 { 700 } else { 4 });
            let new: Vec<String> = (0..n).map(|k| format!("n{}", (k + step) % 5)).collect();
            model.splice(from..to, new.iter().cloned());
            l.splice(from..to, new.iter().map(|t| Line::new(t, None)).collect());
            assert_eq!(l.len(), model.len());
            let probe = [
                model.get(from).cloned().unwrap_or_default(),
                model.get(from + 1).cloned().unwrap_or_default(),
            ];
            let want: Vec<usize> = (0..model.len().saturating_sub(1))
                .filter(|&i| model[i] == probe[0] && model[i + 1] == probe[1])
                .collect();
            assert_eq!(l.find_all(&[&probe[0], &probe[1]]), want, "step {step}");
        }
        assert_eq!(texts(&l), model);
        assert_eq!(
            l.texts(5..8),
            model[5..8].iter().map(String::as_str).collect::<Vec<_>>()
        );
    }

    #[test]
    fn empties_and_refills() {
        let mut l = lines(600);
        l.splice(0..600, Vec::new());
        assert_eq!(l.len(), 0);
        assert!(l.find_all(&["l1"]).is_empty());
        l.splice(0..0, vec![Line::new("a", None), Line::new("b", None)]);
        assert_eq!(texts(&l), ["a", "b"]);
        assert_eq!(l.find_all(&["b"]), [1]);
        let mut empty = Lines::from_lines(Vec::new());
        empty.splice(0..0, vec![Line::new("x", None)]);
        assert_eq!(texts(&empty), ["x"]);
    }
}
