//! Escaped HTML renderers for blocks, in-progress blocks and summaries. (Being written: issue 6.)
