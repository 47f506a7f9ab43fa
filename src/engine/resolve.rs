//! A path the model wrote without its folder (`file3.py` for
//! `src/file3.py`) or slightly misspelt, resolved against the files the
//! caller names (`ApplyOptions::known_files`; `nodeHost` lists the
//! repository's tracked files). Only a file that does not exist is
//! resolved, and only when exactly one known file fits; otherwise the
//! reason lists the candidates.

use crate::path::confine;

/// What the known files say about a path that names no file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resolution {
    /// Nothing fits (or the path is itself known): the path stays.
    Keep,
    /// Exactly one known file fits.
    Resolved(String),
    /// Several fit: the path is refused, naming them.
    Ambiguous(Vec<String>),
}

/// Known files that `path` could mean: those ending in `/path` (the folder
/// left out); failing that, those at most one or two edits away (two for
/// paths of six characters or more).
///
/// Only known files that pass the path check ([`confine`] with
/// `allow_folders`) can be the answer, in their normalised form: a list
/// naming `.git/config` or `../x` must not turn `config` into a write there.
pub(crate) fn resolve(path: &str, known: &[String], allow_folders: &[String]) -> Resolution {
    let known: Vec<String> = known
        .iter()
        .filter_map(|k| confine(k, allow_folders).ok())
        .collect();
    let known = known.as_slice();
    if path.is_empty() || known.iter().any(|k| k == path) {
        return Resolution::Keep;
    }
    let suffix = format!("/{path}");
    let mut fits: Vec<&String> = known.iter().filter(|k| k.ends_with(&suffix)).collect();
    if fits.is_empty() {
        let limit = if path.chars().count() >= 6 { 2 } else { 1 };
        fits = known.iter().filter(|k| within(path, k, limit)).collect();
    }
    fits.sort();
    fits.dedup();
    match fits.as_slice() {
        [] => Resolution::Keep,
        [one] => Resolution::Resolved((*one).clone()),
        many => Resolution::Ambiguous(many.iter().map(|s| (*s).clone()).collect()),
    }
}

/// Levenshtein distance of `a` and `b` is at most `limit` (characters).
fn within(a: &str, b: &str, limit: usize) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return false;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            row[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(row[j] + 1);
        }
        if row.iter().min().is_some_and(|&m| m > limit) {
            return false;
        }
        prev = row;
    }
    prev[b.len()] <= limit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn folder_left_out_or_misspelt() {
        let k = known(&["src/file3.py", "src/util.py", "lib/util.py", "README.md"]);
        assert_eq!(
            resolve("file3.py", &k, &[]),
            Resolution::Resolved("src/file3.py".into())
        );
        assert_eq!(
            resolve("src/fille3.py", &k, &[]),
            Resolution::Resolved("src/file3.py".into())
        );
        assert_eq!(
            resolve("util.py", &k, &[]),
            Resolution::Ambiguous(vec!["lib/util.py".into(), "src/util.py".into()])
        );
        assert_eq!(resolve("README.md", &k, &[]), Resolution::Keep);
        assert_eq!(resolve("docs/new.md", &k, &[]), Resolution::Keep);
        assert_eq!(resolve("x.py", &k, &[]), Resolution::Keep);
    }

    #[test]
    fn refused_known_files_are_never_the_answer() {
        let k = known(&[
            ".git/config",
            "../etc/passwd",
            "/etc/hosts",
            "./src/main.rs",
        ]);
        assert_eq!(resolve("config", &k, &[]), Resolution::Keep);
        assert_eq!(resolve("passwd", &k, &[]), Resolution::Keep);
        assert_eq!(resolve("hosts", &k, &[]), Resolution::Keep);
        assert_eq!(
            resolve("main.rs", &k, &[]),
            Resolution::Resolved("src/main.rs".into())
        );
        let allow = vec![".git/info".to_string()];
        assert_eq!(
            resolve("exclude", &known(&[".git/info/exclude"]), &allow),
            Resolution::Resolved(".git/info/exclude".into())
        );
    }
}
