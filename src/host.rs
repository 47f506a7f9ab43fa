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

impl std::error::Error for HostError {}

/// A filesystem confined to one root.
pub trait FileHost {
    /// The file's bytes, or `None` when there is no such file.
    fn read_file(&mut self, path: &str) -> Result<Option<Vec<u8>>, HostError>;
    /// Writes (creating parent folders) the whole file. Edits write UTF-8
    /// text; a rollback writes a file's original bytes back, whatever they are.
    fn write_file(&mut self, path: &str, content: &[u8]) -> Result<(), HostError>;
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
    /// Whether the host refused to read `path` because the file changed on
    /// disk under a run twice: once after it was read, and again after it
    /// was read a second time. That read error is reported as
    /// `file-changed`, and the host's message says what changed.
    fn changed_since_read(&self, _path: &str) -> bool {
        false
    }
}

/// One change a host performed, in order, with how to undo it (for tests
/// and for replaying a snapshot's changes onto an asynchronous host).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostOp {
    Write {
        path: String,
        content: Vec<u8>,
        undo: Undo,
    },
    Delete {
        path: String,
        undo: Undo,
    },
    Stage {
        paths: Vec<String>,
    },
}

/// How a change to a file is undone when a later host call of the same run
/// fails: the file is put back as it was before the change. A snapshot
/// host records it with each change ([`HostOp`]), and the JavaScript driver,
/// which carries those changes out on the real host, undoes them as it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undo {
    /// There was no file: delete the one written.
    Delete,
    /// Write back the bytes that were there, which are UTF-8 text.
    WriteBackText,
    /// Write back the bytes that were there, which are not UTF-8: a host
    /// taking text would lose them. (Every edit style refuses to change
    /// such a file, so no run records this today; the rule still covers it.)
    WriteBackBytes,
}

impl Undo {
    /// The undo of a change to a file that held `before` (`None`: no file).
    pub fn of(before: Option<&[u8]>) -> Undo {
        match before {
            None => Undo::Delete,
            Some(bytes) if std::str::from_utf8(bytes).is_ok() => Undo::WriteBackText,
            Some(_) => Undo::WriteBackBytes,
        }
    }
}

/// An in-memory filesystem that records what was done to it.
#[derive(Debug, Clone, Default)]
pub struct MemoryHost {
    /// The files held. A host that lent a snapshot ([`MemoryHost::lend`])
    /// holds the files it writes apart, as their recorded writes: read them
    /// with [`FileHost::read_file`] or [`MemoryHost::text`].
    pub files: BTreeMap<String, Vec<u8>>,
    /// Paths whose read fails with the given message.
    pub unreadable: BTreeMap<String, String>,
    /// Of those, the ones the host refused as leading outside the root.
    pub escapes: std::collections::BTreeSet<String>,
    /// Of those, the ones that changed on disk under the run twice
    /// ([`FileHost::changed_since_read`]).
    pub changed_on_disk: std::collections::BTreeSet<String>,
    /// Every path ever asked for, in order (to prove refused paths are never
    /// read), unless [`MemoryHost::stop_read_log`] was called.
    pub reads: Vec<String>,
    pub ops: Vec<HostOp>,
    /// When false, `delete_file` fails as on a host without deletion.
    pub can_delete: bool,
    /// For a snapshot of a real host: the paths that were read into it.
    /// Reading any other path is an error rather than "no such file", so a
    /// path the run did not plan for can never be mistaken for a new file.
    /// (A snapshot lent in order, [`MemoryHost::lend_snapshot`], keeps its
    /// paths with their files instead.)
    pub snapshot_of: Option<crate::path::PathSet>,
    /// Files lent from one buffer ([`MemoryHost::lend`]): each path's bytes
    /// are a range of `lent_bytes`, copied only when read. Once a host has
    /// lent files (a snapshot), what it writes is held here too, as the
    /// write recorded in `ops`, not copied a second time into `files`. A
    /// path in `files` is read from there. Hashed as the transaction
    /// hashes paths: each is looked up when read and when written.
    lent: crate::path::PathMap<Lent>,
    lent_bytes: Vec<u8>,
    /// Whether [`MemoryHost::lend`] was called: writes are then held in `lent`.
    lending: bool,
    /// Whether the snapshot's paths are all in `lent` ([`MemoryHost::lend_snapshot`]):
    /// a path not there was not read.
    lent_all: bool,
    /// Whether reads go unrecorded ([`MemoryHost::stop_read_log`]).
    reads_unlogged: bool,
    /// Writes and deletes that fail ([`MemoryHost::fail_call`]): per path,
    /// how many of its calls succeed first, and the message of the failure.
    failing: BTreeMap<String, (u32, String)>,
    /// Staging fails with this message ([`MemoryHost::fail_stage`]).
    failing_stage: Option<String>,
}

/// One path of a snapshot host: where it holds the file's bytes, and the
/// path's position in the snapshot lent in order.
#[derive(Debug, Clone)]
struct Lent {
    held: Held,
    position: Option<usize>,
}

/// Where a snapshot host holds one file's bytes.
#[derive(Debug, Clone)]
enum Held {
    /// A range of the lent buffer.
    Lent(std::ops::Range<usize>),
    /// The content of the write `ops[i]`.
    Written(usize),
    /// No file (none was read, or it was deleted).
    Absent,
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
        self.lend_from(bytes, files.into_iter().map(|(p, r)| (p, Some(r))), false)
    }

    /// As [`MemoryHost::lend`], for every path a snapshot read, in order:
    /// `None` where no file was read (none there, or the read failed: see
    /// `unreadable`). Only these paths can be read (as `snapshot_of`),
    /// and each keeps its position ([`MemoryHost::position`]).
    pub fn lend_snapshot(
        &mut self,
        bytes: Vec<u8>,
        files: impl IntoIterator<Item = (String, Option<std::ops::Range<usize>>)>,
    ) -> Result<(), HostError> {
        self.lend_from(bytes, files, true)
    }

    fn lend_from(
        &mut self,
        bytes: Vec<u8>,
        files: impl IntoIterator<Item = (String, Option<std::ops::Range<usize>>)>,
        in_order: bool,
    ) -> Result<(), HostError> {
        let files = files.into_iter();
        let mut lent = crate::path::PathMap::default();
        lent.reserve(files.size_hint().0);
        for (position, (path, range)) in files.enumerate() {
            let held = match range {
                Some(range) if range.start > range.end || range.end > bytes.len() => {
                    return Err(HostError(format!(
                        "the snapshot's bytes of {path} lie outside its buffer"
                    )));
                }
                Some(range) => Held::Lent(range),
                None => Held::Absent,
            };
            let position = in_order.then_some(position);
            // A path given twice is held as given first.
            lent.entry(path).or_insert(Lent { held, position });
        }
        self.lent = lent;
        self.lent_bytes = bytes;
        self.lending = true;
        self.lent_all = in_order;
        Ok(())
    }

    /// Stops recording the paths read in `reads`: for a host whose reads
    /// nobody inspects (the wasm binding's snapshot host), which then
    /// copies no path per read.
    pub fn stop_read_log(&mut self) {
        self.reads_unlogged = true;
    }

    /// Makes the writes and deletes of `path` fail with `message` once
    /// `succeeding` of them have succeeded: `0` fails the first (a write
    /// that failed), `1` the second (a file written, then not put back).
    /// A host failure that happened on a real host is replayed this way, so
    /// that the edit paths decide what the failure leaves on disk.
    pub fn fail_call(&mut self, path: &str, succeeding: u32, message: impl Into<String>) {
        self.failing
            .insert(path.to_string(), (succeeding, message.into()));
    }

    /// Makes staging fail with `message` (a staging that failed on a real
    /// host, replayed so that the result says what it left to stage).
    pub fn fail_stage(&mut self, message: impl Into<String>) {
        self.failing_stage = Some(message.into());
    }

    /// The failure [`MemoryHost::fail_call`] set for this call to `path`, if any.
    fn failing_call(&mut self, path: &str) -> Result<(), HostError> {
        if self.failing.is_empty() {
            return Ok(());
        }
        match self.failing.get_mut(path) {
            Some((0, message)) => Err(HostError(message.clone())),
            Some((succeeding, _)) => {
                *succeeding -= 1;
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Whether the host holds a snapshot lent in order ([`MemoryHost::lend_snapshot`]).
    pub fn is_lent_snapshot(&self) -> bool {
        self.lent_all
    }

    /// `path`'s position in the snapshot lent in order
    /// ([`MemoryHost::lend_snapshot`]); `None` for a path not in it.
    pub fn position(&self, path: &str) -> Option<usize> {
        self.lent.get(path)?.position
    }

    /// Whether `path` was read into this snapshot host (`snapshot_of`, or
    /// the paths lent in order).
    pub fn in_snapshot(&self, path: &str) -> bool {
        self.snapshot_of
            .as_ref()
            .is_some_and(|read| read.contains(path))
            || self.position(path).is_some()
    }

    /// `path`'s position in the snapshot lent in order, and which of `ops`
    /// is its last write ([`HostOp::Write`]), in one lookup.
    pub fn position_and_write(&self, path: &str) -> (Option<usize>, Option<usize>) {
        match self.lent.get(path) {
            Some(Lent {
                held: Held::Written(i),
                position,
            }) => (*position, Some(*i)),
            Some(l) => (l.position, None),
            None => (None, None),
        }
    }

    /// The bytes held for `path`: inserted, else lent or written to a snapshot.
    fn bytes(&self, path: &str) -> Option<&[u8]> {
        if let Some(b) = self.files.get(path) {
            return Some(b);
        }
        match &self.lent.get(path)?.held {
            Held::Lent(range) => self.lent_bytes.get(range.clone()),
            Held::Written(i) => match self.ops.get(*i) {
                Some(HostOp::Write {
                    path: p, content, ..
                }) if p == path => Some(content),
                _ => None,
            },
            Held::Absent => None,
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
        if !self.reads_unlogged {
            self.reads.push(path.to_string());
        }
        if let Some(message) = self.unreadable.get(path) {
            return Err(HostError(message.clone()));
        }
        // A file held is read (one lookup); only a path with none is checked
        // against the snapshot's list.
        if let Some(bytes) = self.bytes(path) {
            return Ok(Some(bytes.to_vec()));
        }
        let not_read = match &self.snapshot_of {
            Some(read) => !read.contains(path),
            None => self.lent_all && !self.lent.contains_key(path),
        };
        if not_read {
            return Err(HostError(format!("{path} was not read from the host before the edits ran (an internal planning error); nothing was written")));
        }
        Ok(None)
    }

    fn write_file(&mut self, path: &str, content: &[u8]) -> Result<(), HostError> {
        self.failing_call(path)?;
        let undo = Undo::of(self.bytes(path));
        if self.lending {
            // The content is held once: as the write recorded below.
            self.files.remove(path);
            let held = Held::Written(self.ops.len());
            match self.lent.get_mut(path) {
                Some(lent) => lent.held = held,
                None => {
                    let position = None;
                    self.lent.insert(path.to_string(), Lent { held, position });
                }
            }
        } else {
            self.files.insert(path.to_string(), content.to_vec());
        }
        self.ops.push(HostOp::Write {
            path: path.to_string(),
            content: content.to_vec(),
            undo,
        });
        Ok(())
    }

    fn delete_file(&mut self, path: &str) -> Result<(), HostError> {
        if !self.can_delete {
            return Err(HostError(format!(
                "this host cannot delete files (asked to delete {path})"
            )));
        }
        self.failing_call(path)?;
        let undo = Undo::of(self.bytes(path));
        self.files.remove(path);
        // A path of the snapshot keeps its place (it was read: it reads
        // as no file now).
        match self.lent.get_mut(path) {
            Some(lent) if lent.position.is_some() => lent.held = Held::Absent,
            Some(_) => {
                self.lent.remove(path);
            }
            None => {}
        }
        self.ops.push(HostOp::Delete {
            path: path.to_string(),
            undo,
        });
        Ok(())
    }

    fn stage(&mut self, paths: &[String]) -> Result<(), HostError> {
        if let Some(message) = &self.failing_stage {
            return Err(HostError(message.clone()));
        }
        self.ops.push(HostOp::Stage {
            paths: paths.to_vec(),
        });
        Ok(())
    }

    fn refused_as_escape(&self, path: &str) -> bool {
        self.escapes.contains(path)
    }

    fn changed_since_read(&self, path: &str) -> bool {
        self.changed_on_disk.contains(path)
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
        host.write_file("other.txt", b"x").unwrap();
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
        host.write_file("a.txt", b"ONE").unwrap();
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"ONE");
        host.write_file("new.txt", b"N").unwrap();
        host.write_file("a.txt", b"ONE!").unwrap();
        assert_eq!(host.text("a.txt").as_deref(), Some("ONE!"));
        assert_eq!(host.text("new.txt").as_deref(), Some("N"));
        host.delete_file("b.txt").unwrap();
        assert_eq!(host.read_file("b.txt").unwrap(), None);
        assert!(host
            .lend(b"x".to_vec(), [("c.txt".to_string(), 0..2)])
            .unwrap_err()
            .0
            .contains("outside"));
    }

    #[test]
    fn a_snapshot_lent_in_order_knows_its_paths_and_their_positions() {
        let mut host = MemoryHost::new();
        let files = [
            ("a.txt".to_string(), Some(0..3)),
            ("missing.txt".to_string(), None),
            ("empty.txt".to_string(), Some(3..3)),
        ];
        host.lend_snapshot(b"one".to_vec(), files).unwrap();
        assert!(host.is_lent_snapshot());
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"one");
        assert_eq!(host.read_file("missing.txt").unwrap(), None);
        assert_eq!(host.read_file("empty.txt").unwrap().unwrap(), b"");
        assert!(host
            .read_file("other.txt")
            .unwrap_err()
            .0
            .contains("was not read"));
        assert_eq!(host.position("empty.txt"), Some(2));
        assert!(host.in_snapshot("missing.txt") && !host.in_snapshot("other.txt"));
        host.write_file("missing.txt", b"m").unwrap();
        host.write_file("new.txt", b"n").unwrap();
        assert_eq!(host.position_and_write("missing.txt"), (Some(1), Some(0)));
        assert_eq!(host.position_and_write("new.txt"), (None, Some(1)));
        host.delete_file("a.txt").unwrap();
        host.delete_file("new.txt").unwrap();
        assert_eq!(host.read_file("a.txt").unwrap(), None);
        assert_eq!(host.position("a.txt"), Some(0));
        assert!(host
            .read_file("new.txt")
            .unwrap_err()
            .0
            .contains("was not read"));
        assert_eq!(host.text("missing.txt").as_deref(), Some("m"));
    }

    #[test]
    fn memory_host_records_operations() {
        let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"one\n");
        assert_eq!(host.read_file("missing").unwrap(), None);
        host.write_file("b/c.txt", b"x").unwrap();
        host.delete_file("a.txt").unwrap();
        assert_eq!(host.reads, ["a.txt", "missing"]);
        assert_eq!(host.changes().len(), 2);
        assert!(host.text("a.txt").is_none());
    }

    #[test]
    fn each_change_records_how_to_put_the_file_back_as_it_was() {
        // A lent snapshot: text, bytes that are not UTF-8, and no file.
        let mut host = MemoryHost::new();
        let bytes = b"one\n\xff\x00\xfe".to_vec();
        let files = [
            ("a.txt".to_string(), Some(0..4)),
            ("b.bin".to_string(), Some(4..7)),
            ("new.txt".to_string(), None),
        ];
        host.lend_snapshot(bytes, files).unwrap();
        host.write_file("a.txt", b"ONE\n").unwrap();
        host.delete_file("b.bin").unwrap();
        host.write_file("new.txt", b"n").unwrap();
        let undos: Vec<Undo> = host
            .ops
            .iter()
            .filter_map(|op| match op {
                HostOp::Write { undo, .. } | HostOp::Delete { undo, .. } => Some(*undo),
                HostOp::Stage { .. } => None,
            })
            .collect();
        assert_eq!(
            undos,
            [Undo::WriteBackText, Undo::WriteBackBytes, Undo::Delete]
        );
        // The same from files held in the map.
        let mut held = MemoryHost::with_files([("a.txt", "one\n")]);
        held.write_file("a.txt", b"two\n").unwrap();
        held.write_file("b.txt", b"b").unwrap();
        assert!(matches!(
            &held.ops[..],
            [
                HostOp::Write {
                    undo: Undo::WriteBackText,
                    ..
                },
                HostOp::Write {
                    undo: Undo::Delete,
                    ..
                }
            ]
        ));
    }

    #[test]
    fn a_host_whose_read_log_stopped_reads_the_same_and_logs_nothing() {
        let mut host = MemoryHost::with_files([("a.txt", "one\n")]);
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"one\n");
        host.stop_read_log();
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"one\n");
        assert_eq!(host.read_file("missing").unwrap(), None);
        assert_eq!(host.reads, ["a.txt"]);
    }

    #[test]
    fn a_failing_call_fails_after_the_calls_that_succeed_first() {
        let mut host = MemoryHost::with_files([("a.txt", "one\n"), ("b.txt", "two\n")]);
        host.fail_call("a.txt", 1, "disk full");
        host.fail_call("b.txt", 0, "read-only");
        assert_eq!(host.write_file("a.txt", b"ONE\n"), Ok(()));
        assert_eq!(
            host.write_file("a.txt", b"one\n"),
            Err(HostError("disk full".into()))
        );
        assert_eq!(
            host.delete_file("b.txt"),
            Err(HostError("read-only".into()))
        );
        assert_eq!(host.read_file("a.txt").unwrap().unwrap(), b"ONE\n");
        assert_eq!(host.read_file("b.txt").unwrap().unwrap(), b"two\n");
        assert_eq!(host.write_file("c.txt", b"c"), Ok(()));
    }
}
