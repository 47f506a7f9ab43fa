//! Reading the file path from the line before a block's start marker.
//!
//! The rules (seeds 000, 001 and 004, plus the decoration models add):
//!
//! * a leading `File:` or `Path:` label, surrounding whitespace, a trailing `:`, enclosing `**`, and enclosing
//!   backticks are decoration and are stripped, in any nesting
//!   (`` **`src/a.py`**: `` → `src/a.py`);
//! * a markdown heading (`### src/a.py`) counts as decoration only when what
//!   follows is a single word that looks like a path (has `/`, `\` or a
//!   `.`); otherwise a `#` line is a comment or a title and is refused;
//! * refused: lines starting with `//`, `>`, `-`, `*` (other than `**`),
//!   `+`; marker lines; lines over 200 characters; control characters;
//!   invisible format characters (Unicode Cf, e.g. U+200B, U+202E); and
//!   sentences — text with spaces that has neither a path separator nor a
//!   final `name.ext` word, or that ends in `.`, `,`, `!`, `?`, or still
//!   holds backticks or `**` inside it.
//! * what is left must have a name a file could have: a `/` or `\\`, a
//!   dot-extension (`main.rs`, `..foo`), a dotfile name (`.env`), a known
//!   extensionless name (`Makefile`, `Dockerfile`, …, see
//!   [`KNOWN_NAMES`]), or be one of the files the caller said it knows.
//!   So prose such as `...`, `…`, `Then:`, `Also`, `Done!` or `2.` is not a
//!   path; a path with spaces (`docs/My Notes.md`) is.
//!
//! The cleaned path is always a contiguous piece of the line, so bindings can
//! hand out a slice of the original text.

use super::markers::{classify, Marker};

/// Longest path line accepted, in characters.
pub(crate) const MAX_PATH_CHARS: usize = 200;

/// File names without an extension that are files all the same.
pub const KNOWN_NAMES: &[&str] = &[
    "Makefile",
    "makefile",
    "GNUmakefile",
    "Dockerfile",
    "Containerfile",
    "Jenkinsfile",
    "Vagrantfile",
    "Procfile",
    "Gemfile",
    "Rakefile",
    "Podfile",
    "Brewfile",
    "Pipfile",
    "Guardfile",
    "Berksfile",
    "Caddyfile",
    "Justfile",
    "justfile",
    "Snakefile",
    "Tiltfile",
    "Earthfile",
    "Fastfile",
    "Appfile",
    "Dangerfile",
    "Cakefile",
    "Gruntfile",
    "Gulpfile",
    "Capfile",
    "Thorfile",
    "Taskfile",
    "LICENSE",
    "LICENCE",
    "COPYING",
    "NOTICE",
    "README",
    "CHANGELOG",
    "CHANGES",
    "AUTHORS",
    "CONTRIBUTORS",
    "CODEOWNERS",
    "OWNERS",
    "VERSION",
    "TODO",
    "INSTALL",
    "BUILD",
    "WORKSPACE",
    "MODULE",
    "PKGBUILD",
    "APKBUILD",
    "Kconfig",
    "Kbuild",
];

/// The byte range of the path inside `line`, or why the line is not a path.
/// `known` lists files the caller knows (any name in it is a path).
pub(crate) fn path_in_line(line: &str, known: &[String]) -> Result<(usize, usize), String> {
    let (mut start, mut end) = trimmed_range(line, 0, line.len());
    let t = &line[start..end];
    // An ASCII line (most are) is read once, byte by byte: its characters
    // are its bytes, its controls the ASCII ones, and it holds no format
    // character (every one is above U+00AC).
    let ascii = t.is_ascii();
    let chars = if ascii { t.len() } else { t.chars().count() };
    if chars > MAX_PATH_CHARS {
        return Err(format!("it is longer than {MAX_PATH_CHARS} characters"));
    }
    let control = if ascii {
        t.bytes().any(|b| b.is_ascii_control())
    } else {
        t.chars().any(|c| c.is_control())
    };
    if control {
        return Err("it contains control characters".into());
    }
    let format_char = if ascii {
        None
    } else {
        t.chars().find(|&c| is_format_char(c))
    };
    if let Some(c) = format_char {
        return Err(format!(
            "it contains the invisible character U+{:04X}",
            c as u32
        ));
    }
    if classify(t) != Marker::None {
        return Err("it is a block marker".into());
    }
    if t.starts_with("//") {
        return Err("it starts with `//`, like a comment".into());
    }
    if t.starts_with('>') {
        return Err("it starts with `>`, like a quotation".into());
    }
    if t.starts_with('-') || t.starts_with('+') || (t.starts_with('*') && !t.starts_with("**")) {
        return Err("it starts like a list item".into());
    }
    if t.starts_with('#') {
        let rest = t.trim_start_matches('#');
        let hashes = t.len() - rest.len();
        let word = rest.trim();
        if hashes <= 6
            && rest.starts_with(char::is_whitespace)
            && !word.is_empty()
            && !word.contains(char::is_whitespace)
            && looks_like_path_word(undecorated(word))
        {
            start += hashes;
            (start, end) = trimmed_range(line, start, end);
        } else {
            return Err("it starts with `#`, like a comment or a heading".into());
        }
    }
    // A leading `File:` or `Path:` label is decoration.
    for label in ["File:", "Path:", "file:", "path:"] {
        if let Some(rest) = line[start..end].strip_prefix(label) {
            if rest.starts_with(char::is_whitespace) && !rest.trim().is_empty() {
                (start, end) = trimmed_range(line, start + label.len(), end);
                break;
            }
        }
    }
    // Strip decoration until nothing changes.
    loop {
        let t = &line[start..end];
        let before = (start, end);
        if let Some(s) = t.strip_suffix(':') {
            end = start + s.len();
        }
        let t = &line[start..end];
        if t.len() >= 4 && t.starts_with("**") && t.ends_with("**") {
            start += 2;
            end -= 2;
        }
        let t = &line[start..end];
        if t.len() >= 2 && t.starts_with('`') && t.ends_with('`') {
            let inner = t.trim_matches('`');
            let lead = t.len() - t.trim_start_matches('`').len();
            start += lead;
            end = start + inner.len();
        }
        (start, end) = trimmed_range(line, start, end);
        if (start, end) == before {
            break;
        }
    }
    let path = &line[start..end];
    if path.is_empty() {
        return Err("it holds no path once decoration is removed".into());
    }
    // Bytes, not `str::contains("**")`: that sets up a two-way searcher per call.
    if path.contains('`') || path.as_bytes().windows(2).any(|w| w == b"**") {
        return Err("it reads like a sentence, not a path".into());
    }
    if path.contains(char::is_whitespace) {
        let last = path.rsplit(char::is_whitespace).next().unwrap_or("");
        let separated = path.contains('/') || path.contains('\\');
        if path.ends_with(['.', ',', '!', '?', ';']) || !(separated || has_extension(last)) {
            return Err("it reads like a sentence, not a path".into());
        }
    }
    if !could_be_file(path) && !known.iter().any(|k| k == path) {
        return Err("it has no name a file could have: no `/`, no dot-extension, and not a known name such as `Makefile`".into());
    }
    Ok((start, end))
}

/// An invisible format character (Unicode category Cf: zero-width spaces
/// and joiners, bidirectional controls, the BOM, …): a path holding one
/// reads as another path on screen.
fn is_format_char(c: char) -> bool {
    matches!(c as u32,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F)
}

/// `word` without enclosing backticks or `**`.
pub(crate) fn undecorated(word: &str) -> &str {
    let w = word.trim_end_matches(':');
    let w = w
        .strip_prefix("**")
        .and_then(|w| w.strip_suffix("**"))
        .unwrap_or(w);
    w.trim_matches('`')
}

/// A `/` or `\\`, a dot-extension, a dotfile name or a known
/// extensionless name (see [`KNOWN_NAMES`]).
fn could_be_file(path: &str) -> bool {
    if path.contains('/') || path.contains('\\') || has_extension(path) {
        return true;
    }
    if let Some(rest) = path.strip_prefix('.') {
        return rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
    }
    KNOWN_NAMES.contains(&path)
}

pub(crate) fn looks_like_path_word(word: &str) -> bool {
    word.contains('/') || word.contains('\\') || has_extension(word)
}

/// `name.ext`: a dot with something before and one or more letters or
/// digits after it.
fn has_extension(word: &str) -> bool {
    match word.rfind('.') {
        Some(dot) if dot > 0 => {
            let ext = &word[dot + 1..];
            !ext.is_empty()
                && ext
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        }
        _ => false,
    }
}

/// `line[start..end]` with surrounding whitespace removed, as a range.
fn trimmed_range(line: &str, start: usize, end: usize) -> (usize, usize) {
    let t = &line[start..end];
    let s = t.trim_start();
    let new_start = start + (t.len() - s.len());
    let s2 = s.trim_end();
    (new_start, new_start + s2.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(line: &str) -> Result<&str, String> {
        path_in_line(line, &[]).map(|(s, e)| &line[s..e])
    }

    #[test]
    fn prose_is_not_a_path() {
        for line in [
            "...",
            "…",
            "Then:",
            "Also",
            "Done!",
            "2.",
            "**Then:**",
            "Next",
            "`foo`",
        ] {
            assert!(path(line).is_err(), "{line:?} should be refused");
        }
        for line in [
            "..foo",
            ".env",
            ".gitignore",
            "Dockerfile",
            "a/b",
            "src\\a",
            "x.c",
            "`Makefile`:",
        ] {
            assert!(path(line).is_ok(), "{line:?} should be a path");
        }
        let known = vec!["VERSIONS".to_string()];
        assert!(path("VERSIONS").is_err());
        assert_eq!(path_in_line("VERSIONS", &known), Ok((0, 8)));
    }

    #[test]
    fn decoration_is_stripped() {
        assert_eq!(path("src/a.py"), Ok("src/a.py"));
        assert_eq!(path("  `src/a.py`  "), Ok("src/a.py"));
        assert_eq!(path("**src/a.py**"), Ok("src/a.py"));
        assert_eq!(path("**`src/a.py`**:"), Ok("src/a.py"));
        assert_eq!(path("src/a.py:"), Ok("src/a.py"));
        assert_eq!(path("### src/a.py"), Ok("src/a.py"));
        assert_eq!(path("## `main.rs`"), Ok("main.rs"));
        assert_eq!(path("Makefile"), Ok("Makefile"));
        assert_eq!(path("docs/My Notes.md"), Ok("docs/My Notes.md"));
        assert_eq!(path("File: src/a.py"), Ok("src/a.py"));
        assert_eq!(path("Path: `src/a.py`"), Ok("src/a.py"));
        assert!(path("**File:** src/a.py").is_err());
    }

    #[test]
    fn invisible_characters_are_refused() {
        for c in [
            '\u{200B}',
            '\u{200D}',
            '\u{202A}',
            '\u{202E}',
            '\u{2066}',
            '\u{2069}',
            '\u{FEFF}',
            '\u{AD}',
            '\u{E0041}',
        ] {
            let line = format!("src/a{c}.py");
            let err = path(&line).unwrap_err();
            assert!(err.contains(&format!("U+{:04X}", c as u32)), "{err}");
        }
    }

    #[test]
    fn plainly_not_paths() {
        for line in [
            "// src/a.py",
            "> src/a.py",
            "- src/a.py",
            "* src/a.py",
            "# Fix the bug",
            "# comment about things",
            "Here is the change:",
            "Here is the change to `src/a.py`:",
            "Update src/a.py as follows.",
            "``",
            "=======",
            "a\u{7}b",
        ] {
            assert!(path(line).is_err(), "{line:?} should be refused");
        }
        assert!(path(&"a/".repeat(101)).is_err());
    }
}
