//! Path normalisation and confinement: nothing outside the host's root is
//! ever read or written.

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    /// A sentence naming the problem and what would fix it.
    pub reason: String,
}

/// Normalises a relative, `/`-separated path: `./a//b` becomes `a/b`, `\` is
/// read as `/`, and `a/../b` becomes `b`.
///
/// Refuses absolute paths, drive letters, `..` that leaves the root, empty
/// paths, and NUL or other control characters.
pub fn normalize_path(raw: &str) -> Result<String, PathError> {
    let refuse = |why: &str| {
        Err(PathError {
            reason: format!("Path {raw:?} was refused: {why}. Use a path relative to the project root, such as src/main.rs."),
        })
    };
    if raw.trim().is_empty() {
        return refuse("it is empty");
    }
    if raw.chars().any(|c| c.is_control()) {
        return refuse("it contains a control character");
    }
    let unified = raw.replace('\\', "/");
    if unified.starts_with('/') {
        return refuse("it is absolute");
    }
    let bytes = unified.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return refuse("it starts with a drive letter");
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in unified.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return refuse("it leaves the project root through '..'");
                }
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return refuse("it names the project root, not a file");
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_relative_paths() {
        assert_eq!(normalize_path("./a//b").unwrap(), "a/b");
        assert_eq!(normalize_path("a\\b\\c.rs").unwrap(), "a/b/c.rs");
        assert_eq!(normalize_path("a/x/../b").unwrap(), "a/b");
        assert_eq!(normalize_path("my file.txt").unwrap(), "my file.txt");
    }

    #[test]
    fn refuses_escapes() {
        for bad in ["/etc/passwd", "../x", "a/../../x", "C:\\x", "c:x", "", "  ", "a\0b", "a\nb", ".", "a/.."] {
            let err = normalize_path(bad).unwrap_err();
            assert!(err.reason.contains("refused"), "{bad:?}: {}", err.reason);
        }
    }
}
