//! Validate and apply edit blocks. (Being written: issue 3.)
