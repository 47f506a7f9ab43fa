//! Line diffs with grapheme-level changed spans. (Being written: issue 6.)
