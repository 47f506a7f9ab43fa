//! Recognising marker lines. A marker is a whole line once surrounding
//! whitespace is removed; anything else on the line makes it content.

/// What one line of a reply is, as far as block structure goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marker {
    /// Not a marker: prose, code, a path.
    None,
    /// `««« EDIT` — starts an `edit-repl` or `anchored` block.
    EditStart,
    /// `═══════ REPL` — `edit-repl` separator (also accepted between old and
    /// new lines of an `anchored` block).
    ReplSeparator,
    /// `═══════` — `anchored` separator between old and new lines.
    HeavyRule,
    /// `───────` — `anchored` separator around the old/new pair.
    LightRule,
    /// `»»» EDIT END` — ends an `edit-repl` block (also accepted for `anchored`).
    EditEnd,
    /// `»»»` — ends an `anchored` block (also accepted for `edit-repl`).
    ShortEnd,
    /// `<<<<<<< SEARCH`
    Search,
    /// `=======`
    Divider,
    /// `>>>>>>> REPLACE`
    Replace,
    /// Almost `<<<<<<< SEARCH` (or Cline's `------- SEARCH`): the word
    /// `SEARCH` after a run of `<` (or `-`) that is not an accepted start
    /// marker (`<< SEARCH`, `<<<<<<< SEARCH>>`, `<<<<<<< search`). Never
    /// accepted; named in a discard.
    NearSearch,
    /// Almost `>>>>>>> REPLACE` (or `+++++++ REPLACE`).
    NearReplace,
    /// Almost `««« EDIT` (`«« EDIT`, `««« edit`).
    NearEditStart,
    /// Almost `»»» EDIT END`.
    NearEditEnd,
}

/// The `search-replace` start or end marker, loosely: `c` repeated, then
/// `word`. Accepted strictly: a run of 5 to 9, an optional space, the word
/// in capitals, and at most one trailing `>` (models add one; aider and
/// Cline accept it). Anything else with the word after a run of at least
/// `near_min` is almost a marker.
fn word_marker(
    t: &str,
    c: char,
    word: &str,
    near_min: usize,
    accepted: Marker,
    near: Marker,
) -> Marker {
    let (n, rest) = run(t, c);
    let body = rest.strip_prefix(' ').unwrap_or(rest);
    let body = body.strip_suffix('>').unwrap_or(body);
    if (5..=9).contains(&n) && body == word {
        return accepted;
    }
    if n >= near_min {
        let loose = rest.trim().trim_end_matches('>').trim_end();
        if loose.eq_ignore_ascii_case(word) {
            return near;
        }
    }
    Marker::None
}

/// How a `search-replace` start or end marker line (trimmed) is spelt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// `<<<<<<< SEARCH`, `>>>>>>> REPLACE` (5–9 of the character).
    Canonical,
    /// A trailing `>` or a missing space, accepted.
    Repaired,
    /// Cline's `------- SEARCH` / `+++++++ REPLACE`.
    Cline,
}

pub(crate) fn spelling(t: &str) -> Spelling {
    match t.as_bytes().first() {
        Some(b'-' | b'+') => Spelling::Cline,
        Some(&b) => {
            let rest = t.trim_start_matches(b as char);
            if rest == " SEARCH" || rest == " REPLACE" {
                Spelling::Canonical
            } else {
                Spelling::Repaired
            }
        }
        None => Spelling::Canonical,
    }
}

/// Classifies a line that has already been trimmed.
///
/// Tolerances (models miscount repeated characters): the box-drawing rules
/// and the conflict-style markers accept a run of 5 to 9 (`═`, `─`, `<`, `=`,
/// `>`), so a short rule like `────` or a long one in content stays content;
/// the guillemet markers need exactly three.
pub(crate) fn classify(t: &str) -> Marker {
    let bytes = t.as_bytes();
    let Some(&first) = bytes.first() else {
        return Marker::None;
    };
    match first {
        b'<' => word_marker(t, '<', "SEARCH", 2, Marker::Search, Marker::NearSearch),
        // Cline's `------- SEARCH` / `+++++++ REPLACE`.
        b'-' => word_marker(t, '-', "SEARCH", 3, Marker::Search, Marker::NearSearch),
        b'+' => word_marker(t, '+', "REPLACE", 3, Marker::Replace, Marker::NearReplace),
        b'=' => {
            let (n, rest) = run(t, '=');
            if (5..=9).contains(&n) && rest.is_empty() {
                Marker::Divider
            } else {
                Marker::None
            }
        }
        b'>' => word_marker(t, '>', "REPLACE", 2, Marker::Replace, Marker::NearReplace),
        // '«' and '»' are C2 AB / C2 BB; '═' and '─' are E2 95 90 / E2 94 80.
        0xC2 => {
            if let Some(rest) = t.strip_prefix("«««") {
                if rest.starts_with(char::is_whitespace) && rest.trim_start() == "EDIT" {
                    return Marker::EditStart;
                }
            } else if let Some(rest) = t.strip_prefix("»»»") {
                if rest.is_empty() {
                    return Marker::ShortEnd;
                }
                if rest.starts_with(char::is_whitespace) && words_are(rest, &["EDIT", "END"]) {
                    return Marker::EditEnd;
                }
            }
            // Almost: another run of guillemets, lower case, no space.
            if t.starts_with('«') {
                let (_, rest) = run(t, '«');
                if rest.trim().eq_ignore_ascii_case("EDIT") {
                    return Marker::NearEditStart;
                }
            } else if t.starts_with('»') {
                let (_, rest) = run(t, '»');
                let mut words = rest.split_whitespace();
                let edit_end = matches!((words.next(), words.next(), words.next()), (Some(a), Some(b), None) if a.eq_ignore_ascii_case("EDIT") && b.eq_ignore_ascii_case("END"));
                if edit_end || rest.trim().eq_ignore_ascii_case("EDITEND") {
                    return Marker::NearEditEnd;
                }
            }
            Marker::None
        }
        0xE2 => {
            if t.starts_with('═') {
                let (n, rest) = run(t, '═');
                if !(5..=9).contains(&n) {
                    Marker::None
                } else if rest.is_empty() {
                    Marker::HeavyRule
                } else if rest.starts_with(char::is_whitespace) && rest.trim_start() == "REPL" {
                    Marker::ReplSeparator
                } else {
                    Marker::None
                }
            } else if t.starts_with('─') {
                let (n, rest) = run(t, '─');
                if (5..=9).contains(&n) && rest.is_empty() {
                    Marker::LightRule
                } else {
                    Marker::None
                }
            } else {
                Marker::None
            }
        }
        _ => Marker::None,
    }
}

/// How many times `c` repeats at the start of `t`, and what follows.
fn run(t: &str, c: char) -> (usize, &str) {
    let rest = t.trim_start_matches(c);
    ((t.len() - rest.len()) / c.len_utf8(), rest)
}

/// `rest` is exactly these words separated by whitespace.
fn words_are(rest: &str, words: &[&str]) -> bool {
    let mut it = rest.split_whitespace();
    words.iter().all(|w| it.next() == Some(w)) && it.next().is_none()
}

/// A code fence line: markdown (```` ``` ````, ```` ```python ````, `~~~`)
/// or the HTML-like fences some models use (`<source>python`, `</code>`,
/// `<pre>`, `<codeblock>`, `<sourcecode>`).
pub(crate) fn is_fence(t: &str) -> bool {
    if t.starts_with("```") || t.starts_with("~~~") {
        return true;
    }
    let Some(tag) = t.strip_prefix("</").or_else(|| t.strip_prefix('<')) else {
        return false;
    };
    ["sourcecode", "source", "codeblock", "code", "pre"]
        .iter()
        .any(|name| {
            tag.strip_prefix(name).is_some_and(|rest| {
                rest.starts_with('>') && !rest[1..].contains(char::is_whitespace)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_line_markers() {
        assert_eq!(classify("««« EDIT"), Marker::EditStart);
        assert_eq!(classify("═══════ REPL"), Marker::ReplSeparator);
        assert_eq!(classify("═══════"), Marker::HeavyRule);
        assert_eq!(classify("───────"), Marker::LightRule);
        assert_eq!(classify("»»» EDIT END"), Marker::EditEnd);
        assert_eq!(classify("»»»"), Marker::ShortEnd);
        assert_eq!(classify("<<<<<<< SEARCH"), Marker::Search);
        assert_eq!(classify("======="), Marker::Divider);
        assert_eq!(classify(">>>>>>> REPLACE"), Marker::Replace);
    }

    #[test]
    fn markers_with_text_around_them_are_content() {
        for line in [
            "x ═══════ y",
            "««« EDIT now",
            "<<<<<<< SEARCHING",
            "======= x",
            "== =====",
            "»»»»",
            "───────x",
            "------- x",
            "+++ b/src/a.py",
            "- SEARCH",
        ] {
            assert_eq!(classify(line), Marker::None, "{line:?}");
        }
    }

    #[test]
    fn loose_recognition_strict_acceptance() {
        for line in [
            "<<<<<<< SEARCH>",
            "<<<<<<<SEARCH",
            "<<<<<<<SEARCH>",
            "------- SEARCH",
            "-------SEARCH>",
        ] {
            assert_eq!(classify(line), Marker::Search, "{line:?}");
        }
        for line in [
            ">>>>>>> REPLACE>",
            ">>>>>>>REPLACE",
            "+++++++ REPLACE",
            "+++++++ REPLACE>",
        ] {
            assert_eq!(classify(line), Marker::Replace, "{line:?}");
        }
        for line in [
            "<< SEARCH",
            "<<<<<<< SEARCH>>",
            "<<<< SEARCH",
            "<<<<<<<<<< SEARCH",
            "<<<<<<< search",
            "--- SEARCH",
        ] {
            assert_eq!(classify(line), Marker::NearSearch, "{line:?}");
        }
        for line in [
            ">> REPLACE",
            ">>>>>>> REPLACE>>",
            ">>>>>>> replace",
            "+++ REPLACE",
        ] {
            assert_eq!(classify(line), Marker::NearReplace, "{line:?}");
        }
        assert_eq!(classify("«« EDIT"), Marker::NearEditStart);
        assert_eq!(classify("««« edit"), Marker::NearEditStart);
        assert_eq!(classify("»» EDIT END"), Marker::NearEditEnd);
        assert_eq!(spelling("<<<<<<< SEARCH"), Spelling::Canonical);
        assert_eq!(spelling("<<<<<<< SEARCH>"), Spelling::Repaired);
        assert_eq!(spelling(">>>>>>>REPLACE"), Spelling::Repaired);
        assert_eq!(spelling("+++++++ REPLACE"), Spelling::Cline);
    }

    #[test]
    fn tolerated_run_lengths() {
        assert_eq!(classify("<<<<< SEARCH"), Marker::Search);
        assert_eq!(classify("<<<< SEARCH"), Marker::NearSearch);
        assert_eq!(classify("=========="), Marker::None);
        assert_eq!(classify("─────"), Marker::LightRule);
        assert_eq!(classify("─────────"), Marker::LightRule);
        assert_eq!(classify("────"), Marker::None);
        assert_eq!(classify("───"), Marker::None);
        assert_eq!(classify("──────────"), Marker::None);
        assert_eq!(classify("═════ REPL"), Marker::ReplSeparator);
        assert_eq!(classify("═══ REPL"), Marker::None);
        assert_eq!(classify("════"), Marker::None);
        assert_eq!(classify("══════════"), Marker::None);
    }
}
