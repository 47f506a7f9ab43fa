//! The filesystem a host supplies. The core only ever sees this trait: the
//! binding implements it over a snapshot the JavaScript layer read (from
//! Node `fs`, VS Code `workspace.fs` or a map), and tests use [`MemoryHost`].
//!
//! Paths given to a host are always normalised by [`crate::path`] first.

use std::collections::BTreeMap;

/// A host's failure to read, write, delete or stage, in its own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError(pub String);

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A filesystem confined to one root.
pub trait FileHost {
    /// The file's bytes, or `None` when there is no such file.
    fn read_file(&mut self, path: &str) -> Result<Option<Vec<u8>>, HostError>;
    /// Writes (creating parent folders) the whole file.
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), HostError>;
    /// Deletes the file. Hosts that cannot delete say so.
    fn delete_file(&mut self, path: &str) -> Result<(), HostError> {
        Err(HostError(format!(
            "this host cannot delete files (asked to delete {path})"
        )))
    }
    /// Stages paths (e.g. `git add`); hosts without staging ignore it.
    fn stage(&mut self, _paths: &[String]) -> Result<(), HostError> {
        Ok(())
    }
    /// Whether the host refused to read `path` because it leads outside the
    /// root (a symbolic link): that read error is reported as `path-escape`.
    fn refused_as_escape(&self, _path: &str) -> bool {
        false
    }
}

/// One change a host performed, in order (for tests and for replaying a
/// snapshot's changes onto an asynchronous host).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostOp {
    Write { path: String, content: String },
    Delete { path: String },
    Stage { paths: Vec<String> },
}

/// An in-memory filesystem that records what was done to it.
#[derive(Debug, Clone, Default)]
pub struct MemoryHost {
    pub files: BTreeMap<String, Vec<u8>>,
    /// Paths whose read fails with the given message.
    pub unreadable: BTreeMap<String, String>,
    /// Of those, the ones the host refused as leading outside the root.
    pub escapes: std::collections::BTreeSet<String>,
    /// Every path ever asked for, in order (to prove refused paths are never read).
    pub reads: Vec<String>,
    pub ops: Vec<HostOp>,
    /// When false, `delete_file` fails as on a host without deletion.
    pub can_delete: bool,
    /// For a snapshot of a real host: the paths that were read into it.
    /// Reading any other path is an error rather than "no such file", so a
    /// path the run did not plan for can never be mistaken for a new file.
    pub snapshot_of: Option<crate::apply::PathSet>,
    /// Files lent from one buffer ([`MemoryHost::lend`]): each path's bytes
    /// are a range of `lent_bytes`, copied only when read. A path in `files`
    /// (written since) is read from there.
    lent: std::collections::HashMap<String, std::ops::Range<usize>>,
    lent_bytes: Vec<u8>,
}

impl MemoryHost {
    pub fn new() -> MemoryHost {
        MemoryHost {
            can_delete: true,
            ..MemoryHost::default()
        }
    }

    /// A host holding the given text files.
    pub fn with_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> MemoryHost {
        let mut host = MemoryHost::new();
        for (path, content) in files {
            host.files
                .insert(path.to_string(), content.as_bytes().to_vec());
        }
        host
    }

    /// Holds the files of a snapshot packed in one buffer (`bytes`, each
    /// path's file a range of it) without copying each file out of it: a
    /// file is copied once, when it is read. The files already held stay.
    /// A range outside `bytes` is refused (nothing is lent).
    pub fn lend(
        &mut self,
        bytes: Vec<u8>,
        files: impl IntoIterator<Item = (String, std::ops::Range<usize>)>,
    ) -> Result<(), HostError> {
        let mut lent = std::collections::HashMap::new();
        for (path, range) in files {
            if range.start > range.end || range.end > bytes.len() {
                return Err(HostError(format!(
                    "the snapshot's bytes of {path} lie outside its buffer"
                )));
            }
            lent.insert(path, range);
        }
        self.lent = lent;
        self.lent_bytes = bytes;
        Ok(())
    }

    /// The bytes held for `path`: written or inserted, else lent.
    fn bytes(&self, path: &str) -> Option<&[u8]> {
        match self.files.get(path) {
            Some(b) => Some(b),
            None => self
                .lent
                .get(path)
                .and_then(|r| self.lent_bytes.get(r.clone())),
        }
    }

    /// The file as text (lossy), for assertions.
    pub fn text(&self, path: &str) -> Option<String> {
        self.bytes(path)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// Only the writes and deletes recorded (no stage operations).
    pub fn changes(&self) -> Vec<&HostOp> {
        self.ops
            .iter()
            .filter(|op| !matches!(op, HostOp::Stage { .. }))
            .collect()
    }
}

impl FileHost for MemoryHost {
    fn read_file(&mut self, path: &str) -> Result<Option<Vec<u8>>, HostError> {
        self.reads.push(path.to_string());
        if let Some(message) = self.unreadable.get(path) {
            return Err(HostError(message.clone()));
        }
        if let Some(read) = &self.snapshot_of {
            if !read.contains(path) && self.bytes(path).is_none() {
                return Err(HostError(format!("{path} was not read from the host before the edits ran (an internal planning error); nothing was written")));
            }
        }
        Ok(self.bytes(path).map(<[u8]>::to_vec))
    }

    fn write_file(&mut self, path: &str, content: &str) -> Result<(), HostError> {
        self.files
            .insert(path.to_string(), content.as_bytes().to_vec());
        self.ops.push(HostOp::Write {
            path: path.to_string(),
            content: content.to_string(),
        });
        Ok(())
    }

    fn delete_file(&mut self, path: &str) -> Result<(), HostError> {
        if !self.can_delete {
            return Err(HostError(format!(
                "this host cannot delete files (asked to delete {path})"
            )));
        }
        self.files.remove(path);
        self.lent.remove(path);
        self.ops.push(HostOp::Delete {
            path: path.to_string(),
        });
        Ok(())
    }

    fn stage(&mut self, paths: &[String]) -> Result<(), HostError> {
        self.ops.push(HostOp::Stage {
            paths: paths.to_vec(),
        });
        Ok(())
    }

    fn refused_as_escape(&self, path: &str) -> bool {
        self.escapes.contains(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_refuses_paths_it_did_not_read() {
        let mut host = MemoryHost::new();
        host.snapshot_of = Some(["missing.txt".to_string()].into_iter().collect());
        assert_eq!(host.read_file("missing.txt").unwrap(), None);
        assert!(host
            .read_file("other.txt")
            .unwrap_err()
            .0
            .contains("was not read"));
        host.write_file("other.txt", "x").unwrap();
        assert_eq!(host.read_file("other.txt").unwrap().unwrap(), b"x");
    }

    #[test]
    fn lent_files_read_as_held_ones_until_written_or_deleted() {
        let mut host = MemoryHost::new();
        host.lend(
            b"onetwo".to_vec(),
            [("a.txt".to_string(), 0..3), ("b.txt".to_string(), 3..6)],
        )
        .unwrap();
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"one");
        assert_eq!(host.text("b.txt").as_deref(), Some("two"));
        host.write_file("a.txt", "ONE").unwrap();
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"ONE");
        host.delete_file("b.txt").unwrap();
        assert_eq!(host.read_file("b.txt").unwrap(), None);
        assert!(host
            .lend(b"x".to_vec(), [("c.txt".to_string(), 0..2)])
            .unwrap_err()
            .0
            .contains("outside"));
    }

    #[test]
    fn memory_host_records_operations() {
        let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"one\n");
        assert_eq!(host.read_file("missing").unwrap(), None);
        host.write_file("b/c.txt", "x").unwrap();
        host.delete_file("a.txt").unwrap();
        assert_eq!(host.reads, ["a.txt", "missing"]);
        assert_eq!(host.changes().len(), 2);
        assert!(host.text("a.txt").is_none());
    }
}
