//! Path normalisation and confinement: nothing outside the host's root is
//! ever read or written, and nothing inside a version-control folder.
//!
//! Every way a path enters the core (text blocks, `EditBlock` objects, tool
//! calls, hashline paths and rename targets, the CLI) goes through
//! [`confine`], before anything is read. It refuses:
//!
//! * empty paths, absolute paths, drive letters, and a `..` component that
//!   leaves the root (a name that merely *begins* with `..`, such as `..foo`
//!   or `...`, is an ordinary name); a component of dots and spaces with a
//!   space in it (`.. `), which Windows reads as `..` or `.`;
//! * control characters, invisible format characters (Unicode Cf: zero-width
//!   spaces and joiners, bidirectional overrides, the BOM …), line and
//!   paragraph separators, and U+FFFD (what a lone surrogate becomes when a
//!   JavaScript string is converted): the name on disk must be the name shown;
//! * a component naming version-control metadata — `.git`, `.hg`, `.svn`,
//!   `.bzr`, `.jj` — in any spelling a file system may read as the same
//!   folder: any case (Unicode upper-casing, so `.gıt` is `.GIT` as NTFS
//!   sees it), trailing dots and spaces (which Windows strips), an NTFS
//!   stream suffix (`.git::$INDEX_ALLOCATION`), and the 8.3 short name
//!   (`git~1`). A write there turns into execution (`core.fsmonitor`,
//!   hooks, `hgrc` hooks) and shows in no diff. [`confine`]'s `allow_folders`
//!   widens this only for folders named exactly (`.git/info`; see
//!   [`check_allow_folder`]);
//! * more than [`MAX_PATH_COMPONENTS`] components: no project needs them, and
//!   a host walking a path one open folder at a time would run out of file
//!   descriptors on a path a thousand folders deep.

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    /// A sentence naming the problem and what would fix it.
    pub reason: String,
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for PathError {}

/// Version-control metadata folders, upper-cased, without their dot. A
/// write inside one can make the next `git status` (or `hg`, `svn`, `bzr`,
/// `jj` command) run a program, and never shows in a diff for review.
/// Project files that run things (`.github/`, `.vscode/`, `.husky/`,
/// `.envrc`) are tracked, so they show in the diff, and stay allowed.
pub const VCS_FOLDERS: [&str; 5] = ["GIT", "HG", "SVN", "BZR", "JJ"];

/// The most components (folders and the file name) a path may have.
pub const MAX_PATH_COMPONENTS: usize = 64;

/// Normalises a relative, `/`-separated path with the default rules (no
/// folder allowed inside version-control metadata): see [`confine`].
pub fn normalize_path(raw: &str) -> Result<String, PathError> {
    confine(raw, &[])
}

/// Whether `raw` names a place from the file system's root (`/x`, `\\x`,
/// `C:x`), not from the project's: such a path is never read relative to a
/// folder (`cd web && apply_patch` with `/etc/x` is `/etc/x`, refused, not
/// `web/etc/x`).
pub fn is_absolute(raw: &str) -> bool {
    raw.starts_with('/') || raw.starts_with('\\') || has_drive_letter(raw)
}

fn has_drive_letter(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// Normalises a relative, `/`-separated path: `./a//b` becomes `a/b`, `\` is
/// read as `/`, and `a/../b` becomes `b`; then refuses what the module
/// documentation lists.
///
/// `allow_folders` names folders (relative paths, such as `.git/info`) inside
/// which version-control metadata may be written; a path is let through
/// only when its leading components are exactly one of these, spelt the same.
pub fn confine(raw: &str, allow_folders: &[String]) -> Result<String, PathError> {
    let parts = components(raw)?;
    if let Some(name) = parts.iter().find(|p| vcs_folder(p).is_some()) {
        // An entry that is no folder named exactly (see `check_allow_folder`) allows nothing.
        let allowed = allow_folders
            .iter()
            .any(|folder| match allowed_folder(folder) {
                Ok(prefix) => parts.len() > prefix.len() && parts[..prefix.len()] == prefix[..],
                Err(_) => false,
            });
        if !allowed {
            let folder = vcs_folder(name).unwrap_or("GIT").to_ascii_lowercase();
            return Err(PathError {
                reason: format!(
                    "Path {} was refused: it is inside version-control metadata ({} is the .{folder} folder), \
                     where a write can run commands and shows in no diff. Edit project files only; \
                     the caller may allow a folder explicitly with allowFolders (such as \".{folder}/info\").",
                    crate::text::quoted(raw),
                    crate::text::quoted(name)
                ),
            });
        }
    }
    Ok(parts.join("/"))
}

/// Checks one `allow_folders` entry: it must name exactly one folder as it is
/// written (no `.` or `..` component, no empty one but a trailing `/`: so
/// `.git/info/..` does not become `.git`), and that folder must not be a
/// version-control folder itself (`.git` would allow its hooks and config).
pub fn check_allow_folder(entry: &str) -> Result<(), PathError> {
    allowed_folder(entry).map(|_| ())
}

/// The components of an `allow_folders` entry, or why it names no folder exactly.
fn allowed_folder(entry: &str) -> Result<Vec<&str>, PathError> {
    let refuse = |why: &str| {
        Err(PathError {
            reason: format!(
                "allowFolders entry {} was refused: {why}. Name one folder inside version-control metadata exactly, such as \".git/info\".",
                crate::text::quoted(entry)
            ),
        })
    };
    let parts = match components(entry) {
        Ok(parts) => parts,
        Err(e) => return refuse(&e.reason),
    };
    let written = entry.strip_suffix(['/', '\\']).unwrap_or(entry);
    if !written.split(['/', '\\']).eq(parts.iter().copied()) {
        return refuse("it is not written as the folder it names (a `.`, `..` or empty component)");
    }
    if let Some(last) = parts.last().filter(|p| vcs_folder(p).is_some()) {
        return refuse(&format!(
            "{} is a version-control folder itself, and allowing it would allow its hooks and config",
            crate::text::quoted(last)
        ));
    }
    Ok(parts)
}

/// The normalised components of `raw`, or why it is refused (every rule
/// except version-control metadata).
fn components(raw: &str) -> Result<Vec<&str>, PathError> {
    let refuse = |why: String| {
        Err(PathError {
            reason: format!(
                "Path {} was refused: {why}. Use a path relative to the project root, such as src/main.rs.",
                crate::text::quoted(raw)
            ),
        })
    };
    // Printable ASCII holds no control, invisible or replacement character
    // and no white space but the space: most paths skip the walks over
    // their characters below.
    let printable_ascii = raw.bytes().all(|b| (0x20..0x7f).contains(&b));
    let empty = if printable_ascii {
        raw.bytes().all(|b| b == b' ')
    } else {
        raw.trim().is_empty()
    };
    if empty {
        return refuse("it is empty".into());
    }
    if !printable_ascii {
        if let Some(c) = raw.chars().find(|&c| c.is_control()) {
            return refuse(format!(
                "it contains the control character U+{:04X}",
                c as u32
            ));
        }
        if let Some(c) = raw.chars().find(|&c| is_invisible(c)) {
            return refuse(format!("it contains the invisible character U+{:04X}, so the name shown is not the name on disk", c as u32));
        }
        if raw.contains('\u{FFFD}') {
            return refuse(
                "it contains U+FFFD, the mark left by a broken character (such as a lone surrogate)"
                    .into(),
            );
        }
    }
    if raw.starts_with('/') || raw.starts_with('\\') {
        return refuse("it is absolute".into());
    }
    if has_drive_letter(raw) {
        return refuse("it starts with a drive letter".into());
    }
    let mut parts: Vec<&str> = Vec::with_capacity(8);
    for part in raw.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return refuse("it leaves the project root through '..'".into());
                }
            }
            // Windows drops trailing dots and spaces from a name, so `.. ` is `..`
            // there (and `. ` is `.`): the check above would not see it leave.
            other if other.contains(' ') && other.trim_end_matches(['.', ' ']).is_empty() => {
                return refuse(format!(
                    "its component {} is only dots and spaces, which Windows reads as `.` or `..`",
                    crate::text::quoted(other)
                ));
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return refuse("it names the project root, not a file".into());
    }
    if parts.len() > MAX_PATH_COMPONENTS {
        return refuse(format!(
            "it has {} components (folders and the file name), more than the {MAX_PATH_COMPONENTS} accepted",
            parts.len()
        ));
    }
    Ok(parts)
}

/// Whether `component` (one name, no `/`) names a version-control metadata
/// folder on some file system: the rule [`confine`] applies, for hosts that
/// list folders or follow links (`js/node-host.js`).
pub fn is_vcs_folder_name(component: &str) -> bool {
    vcs_folder(component).is_some()
}

/// Paths of one run that name one file under several names (a symbolic link
/// inside the root): edited through both, the second write would silently
/// undo the first. `real_paths[i]` is what the host resolved `paths[i]` to
/// (`None`: it could not, and the path is taken as itself). Returns, for
/// each path, the sentence its read is refused with, or `None`.
pub fn same_file_refusals(paths: &[String], real_paths: &[Option<String>]) -> Vec<Option<String>> {
    // What each path resolves to, and the paths of each, in the paths' order.
    let mut group_of: std::collections::HashMap<
        &str,
        usize,
        std::hash::BuildHasherDefault<PathHasher>,
    > = std::collections::HashMap::with_capacity_and_hasher(paths.len(), Default::default());
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let real = match real_paths.get(i) {
            Some(Some(real)) => real.as_str(),
            _ => path.as_str(),
        };
        let at = match group_of.get(real) {
            Some(&at) => at,
            None => {
                group_of.insert(real, groups.len());
                groups.push((real, Vec::new()));
                groups.len() - 1
            }
        };
        groups[at].1.push(i);
    }
    let mut refusals = vec![None; paths.len()];
    for (real, members) in &groups {
        let mut names: Vec<&str> = Vec::new();
        for &i in members {
            if !names.contains(&paths[i].as_str()) {
                names.push(&paths[i]);
            }
        }
        if names.len() < 2 {
            continue;
        }
        let quoted: Vec<String> = names.iter().map(|n| quote(n)).collect();
        let sentence = format!(
            "{} name the same file ({}, through a symbolic link); edit it under one name only",
            quoted.join(" and "),
            quote(real)
        );
        for &i in members {
            refusals[i] = Some(sentence.clone());
        }
    }
    refusals
}

/// `text` as a JSON string, as the messages quote a path.
fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

/// The metadata folder (upper-cased, no dot) a component names on some file
/// system, if any: `.git`, `.GIT`, `.git.`, `.git ` , `.git::$INDEX_ALLOCATION`,
/// `git~1`.
fn vcs_folder(component: &str) -> Option<&'static str> {
    // NTFS reads `name:stream` as a stream of `name`, and Windows drops
    // trailing dots and spaces.
    let name = component.split(':').next().unwrap_or(component);
    let name = name.trim_end_matches(['.', ' ']);
    // Upper-casing keeps a leading `.` and every `~` where they are (and
    // makes neither): a name with neither is no metadata folder, decided
    // without the copy (most components of most paths).
    if !name.starts_with('.') && !name.contains('~') {
        return None;
    }
    let name = upper_for_match(name);
    if let Some(bare) = name.strip_prefix('.') {
        return VCS_FOLDERS.iter().copied().find(|f| *f == bare);
    }
    // The 8.3 short name: the name without its dot, then `~` and digits.
    let (stem, digits) = name.split_once('~')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    VCS_FOLDERS.iter().copied().find(|f| *f == stem)
}

/// `name` upper-cased as far as matching the ASCII names of
/// [`VCS_FOLDERS`] needs: every character whose full Unicode upper case is
/// ASCII gets it (`ı` → `I`, `ſ` → `S`, `ß` → `SS`, the `ﬀ`…`ﬆ`
/// ligatures), any other stays as it is, so the result holds an ASCII name
/// exactly when `to_uppercase` would. `to_uppercase` itself links Unicode's
/// case tables (12 KiB) into every module that checks a path
/// (`editblocks/lite`); a test compares the two over every character.
fn upper_for_match(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            _ if c.is_ascii() => out.push(c.to_ascii_uppercase()),
            '\u{131}' => out.push('I'),
            '\u{17F}' => out.push('S'),
            '\u{DF}' => out.push_str("SS"),
            '\u{FB00}' => out.push_str("FF"),
            '\u{FB01}' => out.push_str("FI"),
            '\u{FB02}' => out.push_str("FL"),
            '\u{FB03}' => out.push_str("FFI"),
            '\u{FB04}' => out.push_str("FFL"),
            '\u{FB05}' | '\u{FB06}' => out.push_str("ST"),
            _ => out.push(c),
        }
    }
    out
}

/// An invisible character: Unicode format characters (Cf: zero-width spaces
/// and joiners, bidirectional controls, the BOM, tag characters …) and the
/// line and paragraph separators. A path holding one reads as another path
/// on screen.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x2028 | 0x2029 | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_error_displays_its_reason_and_is_an_error() {
        let e = normalize_path("../x").unwrap_err();
        assert!(!e.reason.is_empty());
        assert_eq!(e.to_string(), e.reason);
        let as_error: &dyn std::error::Error = &e;
        assert_eq!(as_error.to_string(), e.reason);
    }

    #[test]
    fn upper_for_match_agrees_with_to_uppercase_on_every_character() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let full: String = c.to_uppercase().collect();
            let ours = upper_for_match(c.encode_utf8(&mut [0; 4]));
            if full.is_ascii() {
                assert_eq!(ours, full, "U+{:04X}", c as u32);
            } else {
                // Not ASCII either way, and no `.` or `~` that would split a name differently.
                assert!(!ours.is_ascii(), "U+{:04X}", c as u32);
                assert!(!full.contains(['.', '~']), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn normalises_relative_paths() {
        assert_eq!(normalize_path("./a//b").unwrap(), "a/b");
        assert_eq!(normalize_path("a\\b\\c.rs").unwrap(), "a/b/c.rs");
        assert_eq!(normalize_path("a/x/../b").unwrap(), "a/b");
        assert_eq!(normalize_path("my file.txt").unwrap(), "my file.txt");
        assert_eq!(normalize_path("..foo").unwrap(), "..foo");
        assert_eq!(normalize_path(".gitignore").unwrap(), ".gitignore");
    }

    #[test]
    fn refuses_escapes() {
        for bad in [
            "/etc/passwd",
            "../x",
            "a/../../x",
            "C:\\x",
            "c:x",
            "",
            "  ",
            "a\0b",
            "a\nb",
            ".",
            "a/..",
            "\\x",
        ] {
            let err = normalize_path(bad).unwrap_err();
            assert!(err.reason.contains("refused"), "{bad:?}: {}", err.reason);
        }
    }

    #[test]
    fn vcs_spellings() {
        for bad in [
            ".git",
            ".GIT",
            ".Git.",
            ".git ",
            ".git::$INDEX_ALLOCATION",
            "GIT~1",
            "git~12",
            ".gıt",
            ".hg",
            "HG~1",
            ".jj",
            ".svn",
            ".bzr",
        ] {
            assert!(vcs_folder(bad).is_some(), "{bad:?}");
        }
        for ok in [
            ".gitignore",
            ".github",
            "git",
            "git~",
            "git~x",
            ".gitattributes",
            "~1",
            ".",
            "...",
        ] {
            assert_eq!(vcs_folder(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn allow_folders_names_a_folder_exactly() {
        let allow = vec![".git/info".to_string()];
        assert_eq!(
            confine(".git/info/exclude", &allow).unwrap(),
            ".git/info/exclude"
        );
        assert!(
            confine(".git/info", &allow).is_err(),
            "the folder itself is not a file inside it"
        );
        assert!(confine(".git/hooks/pre-commit", &allow).is_err());
        assert!(confine(".git/info/../hooks/x", &allow).is_err());
        assert!(
            confine(".GIT/info/exclude", &allow).is_err(),
            "another spelling is not the folder named"
        );
    }

    #[test]
    fn allow_folders_entries_name_one_folder_as_written() {
        for entry in [
            ".git/info/..",
            ".git",
            "./.git/info",
            ".git//info",
            "a/../.git/info",
            ".GIT.",
            "sub/.hg",
            "",
            "../x",
        ] {
            let err = check_allow_folder(entry).unwrap_err();
            assert!(
                err.reason.contains("allowFolders entry"),
                "{entry:?}: {}",
                err.reason
            );
            let allow = vec![entry.to_string()];
            assert!(
                confine(".git/hooks/pre-commit", &allow).is_err(),
                "{entry:?}"
            );
        }
        for entry in [".git/info", ".git/info/", ".hg/x", "src"] {
            assert_eq!(check_allow_folder(entry), Ok(()), "{entry:?}");
        }
    }
}

/// Hashes the paths of the transaction's maps, eight bytes at a time.
///
/// The default hasher (SipHash) resists collisions an attacker crafts, and
/// costs several times more per path: a reply of 1,000 files hashes each
/// path about ten times. These maps hold the paths of one reply, which one
/// caller sent; the worst a crafted set of colliding paths does is make
/// that reply's own lookups slower.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathHasher(u64);

impl std::hash::Hasher for PathHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(23) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        let rest = chunks.remainder().len() as u64;
        self.0 = (h.rotate_left(23) ^ crate::text::tail_word(bytes) ^ rest).wrapping_mul(K);
    }

    fn finish(&self) -> u64 {
        // Every bit of the state reaches the low bits (the bucket) and the
        // high bits (the table's tag).
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

/// A map keyed by path, hashed with [`PathHasher`].
pub type PathMap<V> =
    std::collections::HashMap<String, V, std::hash::BuildHasherDefault<PathHasher>>;
/// A set of paths, hashed with [`PathHasher`].
pub type PathSet = std::collections::HashSet<String, std::hash::BuildHasherDefault<PathHasher>>;
/// A map keyed by a shared path: the transaction and [`Staged`] make each
/// path's key once and share it between their maps and lists (a reply of
/// 1,000 files otherwise allocates every path half a dozen times).
pub(crate) type SharedPathMap<V> =
    std::collections::HashMap<std::rc::Rc<str>, V, std::hash::BuildHasherDefault<PathHasher>>;
