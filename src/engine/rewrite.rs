//! Rewrites of a block for what models paste into its sections, tried in
//! tolerant matching only, after every pass failed to find the block as
//! written. A rewrite is accepted only when the rewritten block then
//! locates exactly once (the usual rule); the result names it in
//! `assumed`, so a UI can show what was assumed.
//!
//! * `line-numbers-stripped`: every line of a section carries a line-number
//!   prefix from a read tool's output (`12 | code`, `12: code`, `12\tcode`),
//!   numbered in sequence;
//! * `wrapper-stripped`: a section wrapped in a code fence (first line
//!   ```` ``` ````/```` ```lang ````, last line ```` ``` ````) or opening
//!   with the block's own file path;
//! * `blank-first-line-dropped`: the old text opens with a blank line that
//!   is not in the file (dropped from the new text too when it opens with
//!   one);
//! * `unescaped`: text escaped as inside a string (`\n`, `\t`, `\'`, `\"`,
//!   doubled backslashes), read unescaped.

use crate::block::EditBlock;

/// A rewrite's name and the rewritten block, or `None` when it does not
/// apply to `block`.
pub(crate) type Rewrite = fn(&EditBlock) -> Option<EditBlock>;

/// Every rewrite, in the order they are tried.
pub(crate) const REWRITES: [(&str, Rewrite); 4] = [
    ("line-numbers-stripped", strip_line_numbers),
    ("wrapper-stripped", strip_wrapper),
    ("blank-first-line-dropped", drop_blank_first_line),
    ("unescaped", unescape_block),
];

/// Applies `f` to the four text sections; `None` unless some section changed
/// and `f` accepted the old text (anchor or old lines).
fn each_section(block: &EditBlock, f: impl Fn(&str) -> Option<String>) -> Option<EditBlock> {
    let mut out = block.clone();
    let anchor = f(&block.anchor);
    let old = f(&block.old_lines);
    if anchor.is_none() && old.is_none() {
        return None;
    }
    out.anchor = anchor.unwrap_or_else(|| block.anchor.clone());
    out.old_lines = old.unwrap_or_else(|| block.old_lines.clone());
    out.new_lines = f(&block.new_lines).unwrap_or_else(|| block.new_lines.clone());
    out.trailing_anchor =
        f(&block.trailing_anchor).unwrap_or_else(|| block.trailing_anchor.clone());
    Some(out)
}

/// The line number and the rest of `line`, when it opens with a read
/// tool's prefix; the separator as written (`|`, `:` or tab).
fn numbered(line: &str) -> Option<(u64, char, &str)> {
    let t = line.trim_start_matches(' ');
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let n: u64 = t[..digits].parse().ok()?;
    let rest = &t[digits..];
    if let Some(r) = rest.strip_prefix('\t') {
        return Some((n, '\t', r));
    }
    let r = rest.trim_start_matches(' ');
    let (sep, r) = if let Some(r) = r.strip_prefix('|') {
        ('|', r)
    } else if let Some(r) = r.strip_prefix(':') {
        (':', r)
    } else {
        return None;
    };
    Some((n, sep, r.strip_prefix(' ').unwrap_or(r)))
}

/// `text` without line-number prefixes, when every line carries one, with
/// the same separator, numbered in sequence.
fn strip_numbers(text: &str) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut expect: Option<(u64, char)> = None;
    for line in text.split('\n') {
        let (n, sep, rest) = numbered(line)?;
        if let Some((want, s)) = expect {
            if n != want || sep != s {
                return None;
            }
        }
        expect = Some((n + 1, sep));
        out.push(rest);
    }
    Some(out.join("\n"))
}

fn strip_line_numbers(block: &EditBlock) -> Option<EditBlock> {
    each_section(block, strip_numbers)
}

fn is_fence(line: &str) -> bool {
    let t = line.trim();
    (t.starts_with("```") || t.starts_with("~~~")) && !t[3..].contains(char::is_whitespace)
}

/// `text` without a fence around it, or without its first line when that
/// line is the file's path (decorated or not).
fn unwrap(text: &str, path: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut lines = lines.as_slice();
    let name = |l: &str| {
        let t = l
            .trim()
            .trim_end_matches(':')
            .trim_matches('`')
            .trim_matches('*')
            .trim_matches('`');
        !t.is_empty() && (t == path || path.ends_with(&format!("/{t}")))
    };
    let mut changed = false;
    if lines.first().is_some_and(|l| name(l)) {
        lines = &lines[1..];
        changed = true;
    }
    if lines.len() >= 2 && is_fence(lines[0]) && lines[lines.len() - 1].trim() == "```" {
        lines = &lines[1..lines.len() - 1];
        changed = true;
        if lines.first().is_some_and(|l| name(l)) {
            lines = &lines[1..];
        }
    }
    changed.then(|| lines.join("\n"))
}

fn strip_wrapper(block: &EditBlock) -> Option<EditBlock> {
    let path = block.file_path.clone();
    each_section(block, |t| unwrap(t, &path))
}

fn drop_blank_first_line(block: &EditBlock) -> Option<EditBlock> {
    let drop = |t: &str| {
        t.split_once('\n')
            .filter(|(first, rest)| first.trim().is_empty() && !rest.is_empty())
            .map(|(_, rest)| rest.to_string())
    };
    let mut out = block.clone();
    if block.anchor.is_empty() {
        out.old_lines = drop(&block.old_lines)?;
    } else {
        out.anchor = drop(&block.anchor)?;
    }
    if let Some(new) = drop(&block.new_lines) {
        out.new_lines = new;
    }
    Some(out)
}

/// `text` read as the inside of a string literal: `\n`, `\t`, `\'`, `\"`
/// and `\\`; any other backslash stays. `None` when nothing changes.
pub(crate) fn unescape(text: &str) -> Option<String> {
    if !text.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut changed = false;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let replacement = match chars.peek() {
            Some('n') => Some('\n'),
            Some('t') => Some('\t'),
            Some('\'') => Some('\''),
            Some('"') => Some('"'),
            Some('\\') => Some('\\'),
            _ => None,
        };
        match replacement {
            Some(r) => {
                chars.next();
                out.push(r);
                changed = true;
            }
            None => out.push(c),
        }
    }
    changed.then_some(out)
}

fn unescape_block(block: &EditBlock) -> Option<EditBlock> {
    each_section(block, unescape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_only_in_sequence() {
        assert_eq!(
            strip_numbers("12 | a\n13 |     b\n14 |"),
            Some("a\n    b\n".into())
        );
        assert_eq!(strip_numbers("3: x\n4: y"), Some("x\ny".into()));
        assert_eq!(strip_numbers("  7\tx\n  8\ty"), Some("x\ny".into()));
        assert_eq!(strip_numbers("12 | a\n14 | b"), None);
        assert_eq!(strip_numbers("12 | a\nb"), None);
        assert_eq!(strip_numbers("1: a\n2 | b"), None);
    }

    #[test]
    fn wrappers() {
        assert_eq!(
            unwrap("```python\nx = 1\n```", "a.py"),
            Some("x = 1".into())
        );
        assert_eq!(unwrap("src/a.py\nx = 1", "src/a.py"), Some("x = 1".into()));
        assert_eq!(unwrap("a.py\nx = 1", "src/a.py"), Some("x = 1".into()));
        assert_eq!(unwrap("x = 1\n```", "a.py"), None);
    }

    #[test]
    fn unescaping() {
        assert_eq!(
            unescape(r"a\nb\tc \'d\' \\e"),
            Some("a\nb\tc 'd' \\e".into())
        );
        assert_eq!(unescape(r"\d+"), None);
        // Only the escapes of a string literal are undone: `\$`, `\d`, `\r`
        // and a backslash at the end stay exactly as written.
        assert_eq!(
            unescape(r#"echo \"\$HOME\"\n\d \r \"#),
            Some("echo \"\\$HOME\"\n\\d \\r \\".into())
        );
        assert_eq!(unescape("plain"), None);
    }
}
