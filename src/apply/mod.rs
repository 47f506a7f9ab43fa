//! The apply transaction: where every edit style's changes reach the host.
//!
//! Text blocks ([`crate::engine`]), tool calls ([`crate::tools`]), hashline
//! calls ([`crate::hashline`]) and patches ([`crate::patch`]) only translate
//! their input into new file contents. This module does the rest, once:
//!
//! 1. **read** — [`Transaction::read`] reads each path through the host once
//!    and decodes it with [`TextFile`]; a binary file (a NUL byte in the
//!    first 8 KiB), a file that is not UTF-8 and a read the host refused are
//!    reported here, as a [`Loaded::Unusable`] with its [`ErrorKind`];
//! 2. **plan** — the style edits the decoded text in memory (sequentially or
//!    atomically, its choice) and records each file's final bytes with
//!    [`Transaction::write`], [`Transaction::delete`] or
//!    [`Transaction::move_file`]; encoding keeps each file's line endings,
//!    BOM and final newline ([`TextFile`]);
//! 3. **commit** — [`Transaction::commit`] writes, then deletes, in the
//!    order files were first changed; when the host fails, everything
//!    already done is put back as it was read, and the failure says which
//!    files could not be restored. Then the changed paths are staged when
//!    asked. A dry run does none of this.
//!
//! Between plan and commit, [`abort_unit`] and the sentences of
//! `outcome.rs` decide, for every style alike, what a failure does to the
//! rest of a reply (sequential or atomic), and the defaults every style takes.
//!
//! Either way the transaction returns each changed file's content before and
//! after ([`FileChange`]), so a caller can show, accept or undo a change.
//!
//! ```
//! use editblocks::apply::{CommitOptions, Loaded, Transaction};
//! use editblocks::MemoryHost;
//!
//! let mut host = MemoryHost::with_files([("a.txt", "one\r\n")]);
//! let mut txn = Transaction::new();
//! let Loaded::Text(file) = txn.read(&mut host, "a.txt") else { unreachable!() };
//! let new = file.encode(&file.body.replace("one", "two"), true, Default::default());
//! txn.write("a.txt", new);
//! let done = txn.commit(&mut host, CommitOptions::default());
//! assert!(done.failure.is_none());
//! assert_eq!(host.text("a.txt").unwrap(), "two\r\n");
//! assert_eq!(done.file_changes[0].before.as_deref(), Some("one\r\n"));
//! ```

use std::rc::Rc;

use crate::host::{FileHost, HostError};
use crate::result::ErrorKind;
use crate::text::{DecodeError, TextFile};

mod outcome;
mod staged;
pub use outcome::{
    abort_unit, atomic_aborted, fails, host_undone, is_failure, not_in_context, previous_failed,
    refusal_status, Matching, Mode, Retry, Scope, Unit, UnitResult, STAGE_BY_DEFAULT,
    TEXT_BLOCKS_MATCHING, TEXT_BLOCKS_MODE, TOOL_CALLS_MATCHING, TOOL_CALLS_MODE,
};
pub use staged::{FilePlan, Finished, Slot, Staged};

pub(crate) use crate::path::SharedPathMap;
/// The path-keyed maps of a transaction (their hasher lives with the paths).
pub use crate::path::{PathHasher, PathMap, PathSet};

/// One file's content before and after a call.
pub use crate::result::FileChange;

/// A path as the transaction read it.
#[derive(Debug, Clone)]
pub enum Loaded {
    /// No file there.
    Missing,
    /// A text file, decoded (its line endings, BOM and final newline noted).
    /// Shared: a style's document keeps the body as read by holding it,
    /// not a copy of it.
    Text(Rc<TextFile>),
    /// A file (or a read) that cannot be edited as text.
    Unusable(Unusable),
}

/// Why a path cannot be edited as text: [`ErrorKind::Binary`],
/// [`ErrorKind::Encoding`], [`ErrorKind::PathEscape`] (the host refused a path
/// leading outside the root), [`ErrorKind::FileChanged`] (the file changed
/// under the run twice) or [`ErrorKind::HostError`] (the read failed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable {
    pub kind: ErrorKind,
    /// Whether a file is there (false when the read itself failed).
    pub exists: bool,
    /// The host's own words, for a failed read.
    pub host_message: Option<String>,
}

impl Unusable {
    /// The one sentence every style uses, naming the file, what is wrong
    /// and what to do instead.
    pub fn reason(&self, path: &str) -> String {
        let host = self
            .host_message
            .as_deref()
            .unwrap_or("the host refused it");
        match self.kind {
            ErrorKind::Binary => binary_reason(path),
            ErrorKind::Encoding => format!("Cannot edit {path}: it is not valid UTF-8 text. Change it with a shell command instead."),
            ErrorKind::PathEscape => format!("Cannot edit {path}: {host}. Nothing outside the project root is read or written."),
            ErrorKind::FileChanged => changed_twice(host),
            _ => format!("Could not read {path}: {host}."),
        }
    }
}

/// The sentence for an edit to a file that changed on disk under the run
/// twice; `host_message` (the host's refusal) names the file and what changed.
pub(crate) fn changed_twice(host_message: &str) -> String {
    format!("{host_message} It changed again after being read a second time, so this edit was not applied.")
}

/// The one sentence for a binary file, wherever it is found (the
/// transaction's read, `applyToContent`, a streaming preview).
pub fn binary_reason(path: &str) -> String {
    format!("Cannot edit binary file: {path} has a NUL byte in its first 8 KiB. Change it with a shell command instead.")
}

/// What is planned for one path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Plan {
    Write(String),
    Delete,
}

/// The bytes a path had when read.
#[derive(Debug)]
enum Original {
    /// No file, or the read failed.
    Absent,
    /// The bytes as read, when they are not the decoded body (a BOM, CRs,
    /// or not text at all).
    Bytes(Vec<u8>),
    /// The bytes as read are exactly the decoded text's body (LF endings,
    /// no BOM): held once, there, not twice.
    Body,
}

#[derive(Debug)]
struct Entry {
    original: Original,
    loaded: Loaded,
    plan: Option<Plan>,
    moved_from: Option<String>,
    /// A move's source: deleted as part of the move, not listed on its own.
    moved_away: bool,
    /// Whether the path is in `order` (a set, not a search of the list:
    /// a reply of thousands of files must not compare every path with every other).
    listed: bool,
}

impl Entry {
    /// The bytes as read (`None`: no file, or the read failed).
    fn original(&self) -> Option<&[u8]> {
        original_bytes(&self.original, &self.loaded)
    }
}

/// The bytes as read, from an entry's two fields.
fn original_bytes<'a>(original: &'a Original, loaded: &'a Loaded) -> Option<&'a [u8]> {
    match (original, loaded) {
        (Original::Bytes(bytes), _) => Some(bytes),
        (Original::Body, Loaded::Text(text)) => Some(text.body.as_bytes()),
        _ => None,
    }
}

/// Options of [`Transaction::commit`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CommitOptions {
    /// Write nothing; the file changes are still returned.
    pub dry_run: bool,
    /// After writing, ask the host to stage every changed path.
    pub stage: bool,
}

/// A host call that failed while the transaction was being written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostFailure {
    /// The path whose write or delete failed.
    pub path: String,
    /// True when deleting failed, false when writing failed.
    pub deleting: bool,
    pub error: HostError,
    /// Paths changed before the failure and put back as they were read.
    pub restored: Vec<String>,
    /// Paths changed before the failure that could not be put back.
    pub not_restored: Vec<(String, HostError)>,
    /// The paths of the failed call and of every call after it, in order:
    /// never changed.
    pub not_attempted: Vec<String>,
}

impl HostFailure {
    /// A sentence naming the failure and the state the files are left in.
    pub fn describe(&self) -> String {
        let what = if self.deleting { "delete" } else { "write" };
        let mut out = format!("Could not {what} {}: {}.", self.path, self.error);
        if !self.restored.is_empty() {
            out.push_str(&format!(
                " Put back as they were: {}.",
                self.restored.join(", ")
            ));
        }
        if !self.not_restored.is_empty() {
            let list: Vec<String> = self
                .not_restored
                .iter()
                .map(|(p, e)| format!("{p} ({e})"))
                .collect();
            out.push_str(&format!(
                " Could not be put back, so they hold the new content: {}.",
                list.join(", ")
            ));
        }
        out
    }
}

/// What [`Transaction::commit`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Committed {
    /// Each changed file, in first-changed order. After a host failure:
    /// only the files that could not be put back.
    pub file_changes: Vec<FileChange>,
    pub failure: Option<HostFailure>,
    /// Set when staging failed (the files were written).
    pub stage_error: Option<HostError>,
    /// The paths written or deleted (and staged when asked), in order.
    pub touched: Vec<String>,
}

impl Committed {
    /// The sentence for a staging that failed after every change was
    /// written (`None` when staging did not fail): the files are as the
    /// result says, only not staged.
    pub fn stage_failure(&self) -> Option<String> {
        let error = self.stage_error.as_ref()?;
        let written = listed(&self.touched);
        Some(format!(
            "host.stage failed: {error}. Every change was written ({written}); nothing was staged. Stage those paths yourself."
        ))
    }
}

/// Paths as a sentence lists them: `a.txt, b.txt`, or `nothing`.
pub fn listed(paths: &[String]) -> String {
    match paths.is_empty() {
        true => "nothing".to_string(),
        false => paths.join(", "),
    }
}

/// The files of one call: read once, changed in memory, written once.
#[derive(Debug, Default)]
pub struct Transaction {
    entries: SharedPathMap<Entry>,
    /// Paths in first-planned order.
    order: Vec<Rc<str>>,
}

impl Transaction {
    pub fn new() -> Transaction {
        Transaction::default()
    }

    /// Room for about `paths` paths (see [`Staged::with_capacity`]).
    pub fn with_capacity(paths: usize) -> Transaction {
        let mut txn = Transaction::default();
        txn.entries.reserve(paths);
        txn.order.reserve(paths);
        txn
    }

    /// `path` as read (through `host` the first time, from the snapshot after).
    pub fn read(&mut self, host: &mut dyn FileHost, path: &str) -> &Loaded {
        if self.entries.contains_key(path) {
            return match self.entries.get(path) {
                Some(e) => &e.loaded,
                None => &Loaded::Missing,
            };
        }
        self.read_with_key(host, Rc::from(path))
    }

    /// As [`Transaction::read`], under `key` (the path) when it is read
    /// now: the caller made the shared key already.
    pub(crate) fn read_with_key(&mut self, host: &mut dyn FileHost, key: Rc<str>) -> &Loaded {
        use std::collections::hash_map::Entry as Slot;
        match self.entries.entry(key) {
            Slot::Occupied(seen) => &seen.into_mut().loaded,
            Slot::Vacant(new) => {
                let (original, loaded) = load(host, new.key());
                let entry = new.insert(Entry {
                    original,
                    loaded,
                    plan: None,
                    moved_from: None,
                    moved_away: false,
                    listed: false,
                });
                &entry.loaded
            }
        }
    }

    /// `path`'s text as read, when it was read and is text.
    pub(crate) fn text_read(&self, path: &str) -> Option<&Rc<TextFile>> {
        match &self.entries.get(path)?.loaded {
            Loaded::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Whether `path` was read already.
    pub fn has_read(&self, path: &str) -> bool {
        self.entries.contains_key(path)
    }

    /// Whether a file was there when `path` was read.
    pub fn existed(&self, path: &str) -> bool {
        self.entries.get(path).is_some_and(|e| match &e.loaded {
            Loaded::Missing => false,
            Loaded::Text(_) => true,
            Loaded::Unusable(u) => u.exists,
        })
    }

    /// The bytes `path` had when read (`None`: no file).
    pub fn original(&self, path: &str) -> Option<&[u8]> {
        self.entries.get(path)?.original()
    }

    /// `path`'s entry, listed in the first-planned order.
    fn entry(&mut self, path: &str) -> &mut Entry {
        let key = match self.entries.get_key_value(path) {
            Some((key, _)) => key.clone(),
            None => Rc::from(path),
        };
        self.keyed_entry(key)
    }

    fn keyed_entry(&mut self, key: Rc<str>) -> &mut Entry {
        let entry = self.entries.entry(key.clone()).or_insert_with(|| Entry {
            original: Original::Absent,
            loaded: Loaded::Missing,
            plan: None,
            moved_from: None,
            moved_away: false,
            listed: false,
        });
        if !entry.listed {
            entry.listed = true;
            self.order.push(key);
        }
        entry
    }

    /// Plans `path`'s new content (the full text as it will be on disk).
    pub fn write(&mut self, path: &str, content: String) {
        self.entry(path).plan = Some(Plan::Write(content));
    }

    /// As [`Transaction::write`], for a path keyed by [`Transaction::read_with_key`].
    pub(crate) fn write_keyed(&mut self, key: Rc<str>, content: String) {
        self.keyed_entry(key).plan = Some(Plan::Write(content));
    }

    /// Plans deleting `path`.
    pub fn delete(&mut self, path: &str) {
        self.entry(path).plan = Some(Plan::Delete);
    }

    /// Plans moving `from` to `to` with `content` as its new text.
    pub fn move_file(&mut self, from: &str, to: &str, content: String) {
        let source = self.entry(from);
        source.plan = Some(Plan::Delete);
        source.moved_away = true;
        let target = self.entry(to);
        target.plan = Some(Plan::Write(content));
        target.moved_from = Some(from.to_string());
    }

    /// Drops what is planned for `path` (it stays as read).
    pub fn forget(&mut self, path: &str) {
        if let Some(e) = self.entries.get_mut(path) {
            e.plan = None;
            e.moved_from = None;
            e.moved_away = false;
            e.listed = false;
        }
        self.order.retain(|p| &**p != path);
    }

    /// Drops every plan: nothing will be written.
    pub fn forget_all(&mut self) {
        for e in self.entries.values_mut() {
            e.plan = None;
            e.moved_from = None;
            e.moved_away = false;
            e.listed = false;
        }
        self.order.clear();
    }

    /// The planned changes, before and after, in first-changed order.
    pub fn file_changes(&self) -> Vec<FileChange> {
        self.order
            .iter()
            .filter_map(|path| {
                let e = self.entries.get(path)?;
                let plan = e.plan.as_ref()?;
                if e.moved_away && matches!(plan, Plan::Delete) {
                    return None;
                }
                let before = match &e.moved_from {
                    Some(from) => self
                        .entries
                        .get(from.as_str())
                        .and_then(|s| text_of(s.original())),
                    None => text_of(e.original()),
                };
                Some(FileChange {
                    path: path.to_string(),
                    before,
                    after: match plan {
                        Plan::Write(c) => Some(c.clone()),
                        Plan::Delete => None,
                    },
                    moved_from: e.moved_from.clone(),
                })
            })
            .collect()
    }

    /// Writes the planned contents, then the deletes, in first-changed
    /// order; on a host failure puts back what was already changed. Stages
    /// the changed paths when asked. See the module docs.
    pub fn commit(&mut self, host: &mut dyn FileHost, options: CommitOptions) -> Committed {
        self.commit_inner(host, options, false)
    }

    /// As [`Transaction::commit`], for the transaction's last use: each
    /// change's texts move into `file_changes` instead of being copied (a
    /// reply of many files copies each file twice less).
    pub fn commit_final(mut self, host: &mut dyn FileHost, options: CommitOptions) -> Committed {
        self.commit_inner(host, options, true)
    }

    fn commit_inner(
        &mut self,
        host: &mut dyn FileHost,
        options: CommitOptions,
        take: bool,
    ) -> Committed {
        let changes = |txn: &mut Transaction| {
            if take {
                txn.take_file_changes()
            } else {
                txn.file_changes()
            }
        };
        if options.dry_run {
            return Committed {
                file_changes: changes(self),
                ..Committed::default()
            };
        }
        // Writes, then deletes, each in first-planned order (one lookup a path).
        let mut steps: Vec<(&str, &Plan)> = Vec::with_capacity(self.order.len());
        let mut deletes: Vec<(&str, &Plan)> = Vec::new();
        for path in &self.order {
            match self.entries.get(path).and_then(|e| e.plan.as_ref()) {
                Some(plan @ Plan::Delete) => deletes.push((path, plan)),
                Some(plan) => steps.push((path, plan)),
                None => {}
            }
        }
        steps.append(&mut deletes);
        let mut done: Vec<&str> = Vec::new();
        let mut failed = None;
        for (at, &(path, plan)) in steps.iter().enumerate() {
            let outcome = match plan {
                Plan::Write(content) => host.write_file(path, content.as_bytes()),
                Plan::Delete => host.delete_file(path),
            };
            if let Err(error) = outcome {
                let mut failure = HostFailure {
                    path: path.to_string(),
                    deleting: matches!(plan, Plan::Delete),
                    error,
                    restored: Vec::new(),
                    not_restored: Vec::new(),
                    not_attempted: steps[at..].iter().map(|(p, _)| p.to_string()).collect(),
                };
                for path in done.drain(..).rev() {
                    let original = self.entries.get(path).and_then(Entry::original);
                    // As `Undo::of` says: a file that was there gets
                    // its bytes back, one the run created is deleted.
                    let put_back = match original {
                        None => host.delete_file(path),
                        Some(bytes) => host.write_file(path, bytes),
                    };
                    match put_back {
                        Ok(()) => failure.restored.push(path.to_string()),
                        Err(e) => failure.not_restored.push((path.to_string(), e)),
                    }
                }
                failed = Some(failure);
                break;
            }
            done.push(path);
        }
        let touched: Vec<String> = done.into_iter().map(str::to_string).collect();
        let mut committed = Committed {
            file_changes: changes(self),
            ..Committed::default()
        };
        if let Some(failure) = failed {
            committed.file_changes.retain(|c| {
                failure
                    .not_restored
                    .iter()
                    .any(|(p, _)| *p == c.path || c.moved_from.as_deref() == Some(p.as_str()))
            });
            committed.failure = Some(failure);
            return committed;
        }
        committed.touched = touched;
        if options.stage && !committed.touched.is_empty() {
            if let Err(e) = host.stage(&committed.touched) {
                committed.stage_error = Some(e);
            }
        }
        committed
    }

    /// [`Transaction::file_changes`], moving the texts out of the
    /// transaction (its plans and originals are not used again).
    fn take_file_changes(&mut self) -> Vec<FileChange> {
        // A file another one was moved from keeps its original: that
        // change's `before` is copied from it.
        let sources: PathSet = self
            .entries
            .values()
            .filter_map(|e| e.moved_from.clone())
            .collect();
        let sources_exist = !sources.is_empty();
        let mut out = Vec::with_capacity(self.order.len());
        for path in &self.order {
            // A moved file's before is its source's text (read first: the
            // source's entry may be the one taken below). Without moves,
            // no path is looked up for it.
            let before = match sources_exist {
                true => self
                    .entries
                    .get(path)
                    .and_then(|e| e.moved_from.as_ref())
                    .and_then(|from| self.entries.get(from.as_str()))
                    .and_then(|s| text_of(s.original())),
                false => None,
            };
            let Some(e) = self.entries.get_mut(path) else {
                continue;
            };
            let Some(plan) = e.plan.as_mut() else {
                continue;
            };
            if e.moved_away && matches!(plan, Plan::Delete) {
                continue;
            }
            let before = match &e.moved_from {
                Some(_) => before,
                None if sources_exist && sources.contains(&**path) => {
                    text_of(original_bytes(&e.original, &e.loaded))
                }
                None => match (
                    std::mem::replace(&mut e.original, Original::Absent),
                    &mut e.loaded,
                ) {
                    // The bytes as read are the body, already read as UTF-8
                    // (no second check; no copy once the documents that
                    // shared it are gone).
                    (Original::Body, Loaded::Text(text)) => Some(match Rc::get_mut(text) {
                        Some(text) => std::mem::take(&mut text.body),
                        None => text.body.clone(),
                    }),
                    (Original::Bytes(bytes), _) => Some(match String::from_utf8(bytes) {
                        Ok(text) => text,
                        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
                    }),
                    _ => None,
                },
            };
            out.push(FileChange {
                path: path.to_string(),
                before,
                after: match plan {
                    Plan::Write(c) => Some(std::mem::take(c)),
                    Plan::Delete => None,
                },
                moved_from: e.moved_from.clone(),
            });
        }
        out
    }
}

fn text_of(bytes: Option<&[u8]>) -> Option<String> {
    // Valid UTF-8 (every file read as text) is copied as is; the lossy
    // reading, far slower, is for a deleted binary or non-UTF-8 file.
    bytes.map(|b| match std::str::from_utf8(b) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(b).into_owned(),
    })
}

/// Reads and decodes one path: binary, non-UTF-8 and refused reads are
/// decided here, for every style.
fn load(host: &mut dyn FileHost, path: &str) -> (Original, Loaded) {
    let unusable = |kind, exists, host_message| {
        Loaded::Unusable(Unusable {
            kind,
            exists,
            host_message,
        })
    };
    match host.read_file(path) {
        Err(e) if host.refused_as_escape(path) => (
            Original::Absent,
            unusable(ErrorKind::PathEscape, false, Some(e.0)),
        ),
        Err(e) if host.changed_since_read(path) => (
            Original::Absent,
            unusable(ErrorKind::FileChanged, false, Some(e.0)),
        ),
        Err(e) => (
            Original::Absent,
            unusable(ErrorKind::HostError, false, Some(e.0)),
        ),
        Ok(None) => (Original::Absent, Loaded::Missing),
        Ok(Some(bytes)) => match TextFile::decode_owned(bytes) {
            Ok((text, None)) => (Original::Body, Loaded::Text(Rc::new(text))),
            Ok((text, Some(bytes))) => (Original::Bytes(bytes), Loaded::Text(Rc::new(text))),
            Err((DecodeError::Binary, bytes)) => (
                Original::Bytes(bytes),
                unusable(ErrorKind::Binary, true, None),
            ),
            Err((DecodeError::NotUtf8, bytes)) => (
                Original::Bytes(bytes),
                unusable(ErrorKind::Encoding, true, None),
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{HostOp, MemoryHost};

    /// A host whose writes to one path fail.
    struct Failing {
        inner: MemoryHost,
        fail_on: &'static str,
    }

    impl FileHost for Failing {
        fn read_file(&mut self, path: &str) -> Result<Option<Vec<u8>>, HostError> {
            self.inner.read_file(path)
        }
        fn write_file(&mut self, path: &str, content: &[u8]) -> Result<(), HostError> {
            if path == self.fail_on {
                return Err(HostError("disk full".into()));
            }
            self.inner.write_file(path, content)
        }
        fn delete_file(&mut self, path: &str) -> Result<(), HostError> {
            if path == self.fail_on {
                return Err(HostError("permission denied".into()));
            }
            self.inner.delete_file(path)
        }
    }

    #[test]
    fn reads_once_and_refuses_binary_and_non_utf8() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n")]);
        host.files.insert("b.bin".into(), b"a\0b".to_vec());
        host.files.insert("c.txt".into(), vec![0xff, 0xfe, b'a']);
        let mut txn = Transaction::new();
        assert!(matches!(txn.read(&mut host, "a.txt"), Loaded::Text(_)));
        assert!(matches!(txn.read(&mut host, "a.txt"), Loaded::Text(_)));
        assert!(
            matches!(txn.read(&mut host, "b.bin"), Loaded::Unusable(u) if u.kind == ErrorKind::Binary)
        );
        assert!(
            matches!(txn.read(&mut host, "c.txt"), Loaded::Unusable(u) if u.kind == ErrorKind::Encoding)
        );
        assert!(matches!(txn.read(&mut host, "new.txt"), Loaded::Missing));
        assert_eq!(host.reads, ["a.txt", "b.bin", "c.txt", "new.txt"]);
    }

    #[test]
    fn dry_run_returns_changes_and_writes_nothing() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n"), ("old.txt", "o\n")]);
        let mut txn = Transaction::new();
        txn.read(&mut host, "a.txt");
        txn.read(&mut host, "old.txt");
        txn.write("a.txt", "b\n".into());
        txn.write("n.txt", "n\n".into());
        txn.move_file("old.txt", "moved.txt", "O\n".into());
        let dry = txn.commit(
            &mut host,
            CommitOptions {
                dry_run: true,
                stage: true,
            },
        );
        assert!(host.ops.is_empty());
        let real = txn.commit(
            &mut host,
            CommitOptions {
                dry_run: false,
                stage: true,
            },
        );
        assert_eq!(dry.file_changes, real.file_changes);
        let c = &real.file_changes;
        assert_eq!(c.len(), 3);
        assert_eq!(
            (c[0].before.as_deref(), c[0].after.as_deref()),
            (Some("a\n"), Some("b\n"))
        );
        assert_eq!(
            (c[1].before.as_deref(), c[1].path.as_str()),
            (None, "n.txt")
        );
        assert_eq!(c[2].moved_from.as_deref(), Some("old.txt"));
        assert_eq!(c[2].before.as_deref(), Some("o\n"));
        assert_eq!(host.text("moved.txt").as_deref(), Some("O\n"));
        assert!(host.text("old.txt").is_none());
        assert_eq!(
            host.ops.last(),
            Some(&HostOp::Stage {
                paths: vec![
                    "a.txt".into(),
                    "n.txt".into(),
                    "moved.txt".into(),
                    "old.txt".into()
                ]
            })
        );
    }

    #[test]
    fn a_text_read_is_shared_and_its_before_taken_or_copied() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n"), ("b.txt", "b\n")]);
        let mut txn = Transaction::new();
        let Loaded::Text(a) = txn.read(&mut host, "a.txt").clone() else {
            unreachable!()
        };
        txn.read(&mut host, "b.txt");
        // A reader's share of `a.txt` outlives the commit: its `before` is
        // copied; `b.txt`'s, held by the transaction alone, is taken.
        assert_eq!(Rc::strong_count(&a), 2);
        txn.write("a.txt", "A\n".into());
        txn.write("b.txt", "B\n".into());
        let done = txn.commit_final(&mut host, CommitOptions::default());
        let before: Vec<_> = done
            .file_changes
            .iter()
            .map(|c| c.before.as_deref())
            .collect();
        assert_eq!(before, [Some("a\n"), Some("b\n")]);
        assert_eq!(a.body, "a\n");
    }

    #[test]
    fn a_host_failure_puts_back_what_was_written() {
        let inner = MemoryHost::with_files([("a.txt", "a\n"), ("c.txt", "c\n")]);
        let mut host = Failing {
            inner,
            fail_on: "c.txt",
        };
        let mut txn = Transaction::new();
        for p in ["a.txt", "b.txt", "c.txt"] {
            txn.read(&mut host, p);
        }
        txn.write("a.txt", "A\n".into());
        txn.write("b.txt", "B\n".into());
        txn.write("c.txt", "C\n".into());
        let done = txn.commit(&mut host, CommitOptions::default());
        let failure = done.failure.expect("the write of c.txt fails");
        assert_eq!(failure.path, "c.txt");
        assert_eq!(failure.restored, ["b.txt", "a.txt"]);
        assert_eq!(failure.not_attempted, ["c.txt"]);
        assert!(done.file_changes.is_empty());
        assert_eq!(host.inner.text("a.txt").as_deref(), Some("a\n"));
        assert!(host.inner.text("b.txt").is_none());
        assert!(failure
            .describe()
            .contains("Could not write c.txt: disk full."));
    }

    #[test]
    fn a_deleted_file_that_is_not_utf8_is_put_back_byte_for_byte() {
        let latin1 = vec![b'c', 0xe9, b'\n', 0xff];
        let mut inner = MemoryHost::with_files([("keep.txt", "k\n")]);
        inner.files.insert("old.txt".into(), latin1.clone());
        let mut host = Failing {
            inner,
            fail_on: "keep.txt",
        };
        let mut txn = Transaction::new();
        for p in ["old.txt", "keep.txt"] {
            txn.read(&mut host, p);
        }
        txn.delete("old.txt");
        txn.delete("keep.txt");
        let done = txn.commit(&mut host, CommitOptions::default());
        let failure = done.failure.expect("deleting keep.txt fails");
        assert_eq!(failure.path, "keep.txt");
        assert_eq!(failure.restored, ["old.txt"]);
        assert!(failure.not_restored.is_empty());
        assert_eq!(host.inner.files.get("old.txt"), Some(&latin1));
    }
}
