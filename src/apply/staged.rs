//! The files of a reply while its edits are worked through, in memory.
//!
//! Every style keeps the same state for each path: its document now (the
//! style's own line model: `None` while no file is there), whether a file
//! was there when read, why it cannot be edited, whether it changed, and
//! which path it was moved from. [`Staged`] holds them over one
//! [`Transaction`] (each path is read once), keeps the first-changed order,
//! and gives each style the two ways a reply applies:
//!
//! - **sequential**: each unit (a block, a call, a patch) starts with
//!   [`Staged::checkpoint`]; a unit that fails calls [`Staged::rollback`]
//!   and its files are as they were before it, the earlier units kept;
//! - **atomic**: the whole reply is one unit, so one failure rolls back
//!   everything (or the style calls [`Staged::finish`] only when nothing
//!   failed).
//!
//! [`Staged::finish`] hands every changed file to the transaction once
//! (written, created, moved or deleted) and commits it.

use std::rc::Rc;

use super::{CommitOptions, Committed, Loaded, SharedPathMap, Transaction, Unusable};
use crate::host::FileHost;
use crate::text::TextFile;

/// One path's state in memory.
#[derive(Debug, Clone)]
pub struct Slot<D> {
    /// The document now; `None` while no file is there.
    pub doc: Option<D>,
    /// Whether a file was there when the path was read.
    pub existed: bool,
    /// Why the file cannot be edited (refused or failed read, binary, not UTF-8).
    pub unusable: Option<Unusable>,
    /// Whether a unit changed it (and it is to be written).
    pub changed: bool,
    /// The path this file was moved from.
    pub moved_from: Option<String>,
    /// The first unit that failed on this file (a sequential style skips
    /// the file's later edits).
    pub failed_at: Option<usize>,
}

impl<D> Slot<D> {
    /// The slot's state with no document.
    fn without_doc(&self) -> Slot<D> {
        Slot {
            doc: None,
            existed: self.existed,
            unusable: self.unusable.clone(),
            changed: self.changed,
            moved_from: self.moved_from.clone(),
            failed_at: self.failed_at,
        }
    }

    /// No file there, nothing changed.
    fn missing() -> Slot<D> {
        Slot {
            doc: None,
            existed: false,
            unusable: None,
            changed: false,
            moved_from: None,
            failed_at: None,
        }
    }
}

/// What becomes of one path when the reply is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilePlan {
    /// Nothing to write.
    Keep,
    /// Its new text, as it will be on disk.
    Write(String),
    /// Delete it.
    Delete,
}

/// What [`Staged::finish`] did: the transaction's outcome and the changed
/// paths by kind, in first-changed order.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    pub committed: Committed,
    pub modified: Vec<String>,
    pub created: Vec<String>,
    pub deleted: Vec<String>,
}

/// One path's slot with what [`Staged`] keeps beside it: everything a
/// path needs found in one lookup (a reply of 1,000 files looked each
/// path up in three maps several times).
#[derive(Debug)]
struct Held<D> {
    /// The path's shared key (the map's own, kept to be cloned without a
    /// second lookup).
    key: Rc<str>,
    slot: Slot<D>,
    /// The unit that last saved the slot in `saved` (0: none).
    saved_in: u32,
    /// Whether the path is in the first-changed order.
    listed: bool,
    /// Whether the slot is as [`Staged::load_shared`] opened it (its
    /// document made by [`Staged::reopen`] from the text as read, nothing
    /// changed since): a unit that changes it keeps no copy for a
    /// rollback, which opens the text again.
    pristine: bool,
}

/// The files of one reply in memory: see the module docs.
#[derive(Debug)]
pub struct Staged<D> {
    txn: Transaction,
    /// Keyed by the transaction's key of each path (made once, shared by
    /// every map and list here).
    slots: SharedPathMap<Held<D>>,
    /// Paths in first-changed order (each slot says whether it is listed:
    /// a reply of thousands of files must not compare every path with
    /// every other).
    order: Vec<Rc<str>>,
    /// Paths listed without a slot (touched before they were loaded).
    listed_apart: SharedPathMap<()>,
    /// Each slot as it was before the current unit first changed it; with
    /// `true`, its document is to be opened again from the text as read
    /// (it was pristine: not kept, so a reply of many files does not hold
    /// every file's first document until the end).
    saved: Vec<(Rc<str>, Slot<D>, bool)>,
    /// How [`Staged::load_shared`] opened the texts it read.
    reopen: Option<fn(&Rc<TextFile>) -> D>,
    /// The current unit (counted from 1).
    unit: u32,
}

impl<D> Default for Staged<D> {
    fn default() -> Self {
        Staged {
            txn: Transaction::new(),
            slots: SharedPathMap::default(),
            order: Vec::new(),
            listed_apart: SharedPathMap::default(),
            saved: Vec::new(),
            reopen: None,
            unit: 1,
        }
    }
}

/// Whether `path` was listed before it had a slot (in `apart`).
fn listed_apart(apart: &SharedPathMap<()>, path: &str) -> bool {
    !apart.is_empty() && apart.contains_key(path)
}

impl<D> Held<D> {
    fn new(key: Rc<str>, slot: Slot<D>, listed: bool) -> Held<D> {
        Held {
            key,
            slot,
            saved_in: 0,
            listed,
            pristine: false,
        }
    }
}

impl<D> Staged<D> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for about `paths` paths (a reply's blocks, say): the maps are
    /// not grown, and every key hashed again, as they fill.
    pub fn with_capacity(paths: usize) -> Self {
        let mut staged = Staged {
            txn: Transaction::with_capacity(paths),
            ..Self::default()
        };
        staged.slots.reserve(paths);
        staged.order.reserve(paths);
        staged
    }

    /// `path` as the transaction read it (through `host` the first time).
    pub fn read(&mut self, host: &mut dyn FileHost, path: &str) -> &Loaded {
        self.txn.read(host, path)
    }

    /// `path`'s slot, read through the transaction and opened with `open`
    /// the first time.
    pub fn load(
        &mut self,
        host: &mut dyn FileHost,
        path: &str,
        open: impl FnOnce(&TextFile) -> D,
    ) -> &Slot<D> {
        self.load_with(host, path, |text| open(text), false)
    }

    /// As [`Staged::load`], opening the text as the transaction holds it:
    /// a document that keeps the body as read shares it (a reply of 1,000
    /// files otherwise copies every file once more). `open` is also how a
    /// rollback opens the text again: a document it made is not copied to
    /// be put back (see [`Staged::set_doc`]), so every call gives the same.
    pub fn load_shared(
        &mut self,
        host: &mut dyn FileHost,
        path: &str,
        open: fn(&Rc<TextFile>) -> D,
    ) -> &Slot<D> {
        self.reopen = Some(open);
        self.load_with(host, path, open, true)
    }

    /// [`Staged::load`]; `reopen`: whether `open` is [`Staged::reopen`].
    fn load_with(
        &mut self,
        host: &mut dyn FileHost,
        path: &str,
        open: impl FnOnce(&Rc<TextFile>) -> D,
        reopen: bool,
    ) -> &Slot<D> {
        use std::collections::hash_map::Entry;
        // A path seen before is looked up; a new one is read under the
        // same key (one lookup in each map).
        let key: Rc<str> = Rc::from(path);
        let new = match self.slots.entry(key) {
            Entry::Occupied(seen) => return &seen.into_mut().slot,
            Entry::Vacant(new) => new,
        };
        let key = new.key().clone();
        let empty = Slot::missing();
        let mut pristine = false;
        let slot = match self.txn.read_with_key(host, key.clone()) {
            Loaded::Missing => empty,
            Loaded::Text(text) => {
                pristine = reopen;
                Slot {
                    doc: Some(open(text)),
                    existed: true,
                    ..empty
                }
            }
            Loaded::Unusable(u) => Slot {
                existed: u.exists,
                unusable: Some(u.clone()),
                ..empty
            },
        };
        let listed = listed_apart(&self.listed_apart, path);
        let held = new.insert(Held::new(key, slot, listed));
        held.pristine = pristine;
        &held.slot
    }

    /// The shared key of `path`: the one of its slot, else a new one.
    fn key(&self, path: &str) -> Rc<str> {
        match self.slots.get(path) {
            Some(held) => held.key.clone(),
            None => Rc::from(path),
        }
    }

    /// `path`'s slot, read through the transaction the first time; its
    /// document is always `open(as read, bytes as read)`, for a style whose
    /// document also stands for a missing or unusable file.
    pub fn load_all(
        &mut self,
        host: &mut dyn FileHost,
        path: &str,
        open: impl FnOnce(Loaded, Option<&[u8]>) -> D,
    ) -> &mut Slot<D> {
        if !self.slots.contains_key(path) {
            let loaded = self.txn.read(host, path).clone();
            let (existed, unusable) = match &loaded {
                Loaded::Missing => (false, None),
                Loaded::Text(_) => (true, None),
                Loaded::Unusable(u) => (u.exists, Some(u.clone())),
            };
            let doc = open(loaded, self.txn.original(path));
            self.insert(path, doc, existed, unusable);
        }
        let key = self.key(path);
        let listed = listed_apart(&self.listed_apart, path);
        &mut self
            .slots
            .entry(key.clone())
            .or_insert_with(|| Held::new(key, Slot::missing(), listed))
            .slot
    }

    /// Puts a document for `path` that was not read (such as the project
    /// root, for a folder listing).
    pub fn insert(&mut self, path: &str, doc: D, existed: bool, unusable: Option<Unusable>) {
        let slot = Slot {
            doc: Some(doc),
            existed,
            unusable,
            ..Slot::missing()
        };
        // A path with a slot keeps its place in the order and what the
        // unit saved of it.
        match self.slots.get_mut(path) {
            Some(held) => {
                held.slot = slot;
                held.pristine = false;
            }
            None => {
                let key: Rc<str> = Rc::from(path);
                let listed = listed_apart(&self.listed_apart, path);
                self.slots.insert(key.clone(), Held::new(key, slot, listed));
            }
        }
    }

    /// The slots in first-changed order.
    pub fn in_order(&self) -> impl Iterator<Item = (&str, &Slot<D>)> {
        self.order
            .iter()
            .filter_map(|p| Some((&**p, &self.slots.get(p)?.slot)))
    }

    /// `path`'s slot, when it was loaded.
    pub fn get(&self, path: &str) -> Option<&Slot<D>> {
        self.slots.get(path).map(|held| &held.slot)
    }

    /// `path`'s slot to change without a checkpoint: for a style that
    /// leaves a document untouched when an edit fails, and never rolls back.
    pub fn get_mut(&mut self, path: &str) -> Option<&mut Slot<D>> {
        self.slots.get_mut(path).map(|held| {
            held.pristine = false;
            &mut held.slot
        })
    }

    /// Puts `path` in the first-changed order (once).
    pub fn touch(&mut self, path: &str) {
        match self.slots.get_mut(path) {
            Some(held) if held.listed => {}
            Some(held) => {
                held.listed = true;
                self.order.push(held.key.clone());
            }
            None if listed_apart(&self.listed_apart, path) => {}
            None => {
                let key: Rc<str> = Rc::from(path);
                self.listed_apart.insert(key.clone(), ());
                self.order.push(key);
            }
        }
    }

    /// Starts a unit: the changes so far are kept by a later rollback.
    pub fn checkpoint(&mut self) {
        self.saved.clear();
        self.unit += 1;
    }

    /// Puts every slot the current unit changed back as it was at the checkpoint.
    pub fn rollback(&mut self) {
        for (path, slot, reopen) in self.saved.drain(..) {
            if let Some(held) = self.slots.get_mut(&path) {
                held.slot = slot;
                if reopen {
                    held.slot.doc = self
                        .txn
                        .text_read(&path)
                        .zip(self.reopen)
                        .map(|(t, f)| f(t));
                    held.pristine = true;
                }
            }
        }
        // A later change saves its slot again.
        self.unit += 1;
    }

    /// Hands every changed file to the transaction, in first-changed order
    /// (`encode(doc, existed)` gives its text; a changed slot with no
    /// document is deleted), and commits it.
    pub fn finish(
        self,
        host: &mut dyn FileHost,
        options: CommitOptions,
        encode: impl Fn(&D, bool) -> String,
    ) -> Finished {
        self.finish_with(host, options, |slot| match (&slot.doc, slot.changed) {
            (_, false) => FilePlan::Keep,
            (Some(doc), true) => FilePlan::Write(encode(doc, slot.existed)),
            (None, true) if slot.existed => FilePlan::Delete,
            (None, true) => FilePlan::Keep,
        })
    }

    /// [`Staged::finish`] with the style's own rule for what becomes of
    /// each path (`plan`), asked once per path in first-changed order.
    pub fn finish_with(
        mut self,
        host: &mut dyn FileHost,
        options: CommitOptions,
        plan: impl Fn(&Slot<D>) -> FilePlan,
    ) -> Finished {
        let mut out = Finished::default();
        // No unit rolls back any more.
        self.saved = Vec::new();
        // A file moved from a path that the reply deletes is one move (the
        // source's deletion is part of it): decided while every slot is here.
        let moves: SharedPathMap<String> = self
            .slots
            .iter()
            .filter_map(|(path, held)| {
                let from = held.slot.moved_from.as_ref()?;
                let source = &self.slots.get(from.as_str())?.slot;
                (source.changed && source.doc.is_none()).then(|| (path.clone(), from.clone()))
            })
            .collect();
        // Each slot is taken out, planned and dropped in turn: its document
        // is dropped while encoding it has it in the cache, not all of them
        // at the end.
        for path in std::mem::take(&mut self.order) {
            let Some(Held { slot, .. }) = self.slots.remove(&path) else {
                continue;
            };
            // Copied as text: `Rc<str>::to_string` goes through the
            // formatting machinery (0.4% of applying 1,000 files in wasm).
            let owned = || String::from(&*path);
            match plan(&slot) {
                FilePlan::Keep => {}
                FilePlan::Write(content) => {
                    if slot.existed {
                        out.modified.push(owned());
                    } else {
                        out.created.push(owned());
                    }
                    let moved = match slot.moved_from {
                        Some(_) => moves.get(&path),
                        None => None,
                    };
                    match moved {
                        Some(from) => self.txn.move_file(from, &path, content),
                        None => self.txn.write_keyed(path.clone(), content),
                    }
                }
                FilePlan::Delete => {
                    out.deleted.push(owned());
                    self.txn.delete(&path);
                }
            }
        }
        out.committed = self.txn.commit_final(host, options);
        out
    }
}

impl<D: Clone> Staged<D> {
    /// `path`'s slot to change in the current unit: what it was before is
    /// kept for [`Staged::rollback`].
    pub fn edit(&mut self, path: &str) -> Option<&mut Slot<D>> {
        let held = self.slots.get_mut(path)?;
        if held.saved_in != self.unit {
            held.saved_in = self.unit;
            let before = match held.pristine {
                // Opened again on a rollback, not copied.
                true => held.slot.without_doc(),
                false => held.slot.clone(),
            };
            self.saved.push((held.key.clone(), before, held.pristine));
        }
        held.pristine = false;
        Some(&mut held.slot)
    }

    /// As [`Staged::edit`] followed by setting the slot's document to
    /// `doc`: the document it replaces is kept for [`Staged::rollback`]
    /// by moving it, not by copying it first.
    pub fn set_doc(&mut self, path: &str, doc: Option<D>) -> Option<&mut Slot<D>> {
        let held = self.slots.get_mut(path)?;
        let slot = &mut held.slot;
        let old = std::mem::replace(&mut slot.doc, doc);
        if held.saved_in != self.unit {
            held.saved_in = self.unit;
            // A pristine document is dropped now: a rollback opens the
            // text again.
            let before = Slot {
                doc: if held.pristine { None } else { old },
                ..slot.without_doc()
            };
            self.saved.push((held.key.clone(), before, held.pristine));
        }
        held.pristine = false;
        Some(&mut held.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::MemoryHost;

    fn open(t: &TextFile) -> String {
        t.body.clone()
    }

    #[test]
    fn rollback_puts_back_only_the_failed_unit() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n"), ("b.txt", "b\n")]);
        let mut staged: Staged<String> = Staged::new();
        staged.load(&mut host, "a.txt", open);
        staged.load(&mut host, "b.txt", open);
        staged.checkpoint();
        let a = staged.edit("a.txt").unwrap();
        a.doc = Some("A\n".into());
        a.changed = true;
        staged.touch("a.txt");
        staged.checkpoint();
        let b = staged.edit("b.txt").unwrap();
        b.doc = None;
        b.changed = true;
        staged.touch("b.txt");
        staged.rollback();
        assert_eq!(staged.get("b.txt").unwrap().doc.as_deref(), Some("b\n"));
        let done = staged.finish(&mut host, CommitOptions::default(), |d, _| d.clone());
        assert_eq!(done.modified, ["a.txt"]);
        assert!(done.deleted.is_empty());
        assert_eq!(host.text("a.txt").as_deref(), Some("A\n"));
        assert_eq!(host.text("b.txt").as_deref(), Some("b\n"));
    }

    #[test]
    fn a_second_rollback_in_one_unit_puts_back_what_changed_after_the_first() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n")]);
        let mut staged: Staged<String> = Staged::new();
        staged.load(&mut host, "a.txt", open);
        staged.checkpoint();
        staged.edit("a.txt").unwrap().doc = Some("b\n".into());
        staged.rollback();
        staged.set_doc("a.txt", Some("c\n".into()));
        staged.rollback();
        assert_eq!(staged.get("a.txt").unwrap().doc.as_deref(), Some("a\n"));
    }

    #[test]
    fn a_document_opened_from_the_text_is_opened_again_on_rollback_not_kept() {
        fn shared(t: &Rc<TextFile>) -> String {
            t.body.clone()
        }
        let mut host = MemoryHost::with_files([("a.txt", "a\n"), ("b.txt", "b\n")]);
        let mut staged: Staged<String> = Staged::new();
        staged.load_shared(&mut host, "a.txt", shared);
        staged.load_shared(&mut host, "b.txt", shared);
        staged.checkpoint();
        staged.set_doc("a.txt", Some("A\n".into())).unwrap().changed = true;
        staged.edit("b.txt").unwrap().doc = None;
        // Nothing is kept of the documents as opened: the unit's saves
        // hold no document.
        assert!(staged
            .saved
            .iter()
            .all(|(_, slot, reopen)| *reopen && slot.doc.is_none()));
        staged.rollback();
        for (path, text) in [("a.txt", "a\n"), ("b.txt", "b\n")] {
            let slot = staged.get(path).unwrap();
            assert_eq!((slot.doc.as_deref(), slot.changed), (Some(text), false));
        }
        // Opened again, they are pristine again; once changed and kept by
        // a unit, a later unit keeps a copy to put back.
        staged.checkpoint();
        staged.set_doc("a.txt", Some("A\n".into()));
        assert!(staged.saved[0].2);
        staged.checkpoint();
        staged.set_doc("a.txt", Some("AA\n".into()));
        assert!(!staged.saved[0].2);
        staged.rollback();
        assert_eq!(staged.get("a.txt").unwrap().doc.as_deref(), Some("A\n"));
    }

    #[test]
    fn a_path_touched_before_it_is_loaded_is_listed_once() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n"), ("b.txt", "b\n")]);
        let mut staged: Staged<String> = Staged::new();
        staged.touch("b.txt");
        staged.load(&mut host, "a.txt", open);
        staged.load(&mut host, "b.txt", open);
        staged.touch("a.txt");
        staged.touch("b.txt");
        let order: Vec<&str> = staged.in_order().map(|(p, _)| p).collect();
        assert_eq!(order, ["b.txt", "a.txt"]);
    }

    #[test]
    fn set_doc_keeps_the_replaced_document_for_rollback() {
        let mut host = MemoryHost::with_files([("a.txt", "a\n")]);
        let mut staged: Staged<String> = Staged::new();
        staged.load(&mut host, "a.txt", open);
        staged.checkpoint();
        staged.set_doc("a.txt", Some("b\n".into())).unwrap().changed = true;
        staged.set_doc("a.txt", Some("c\n".into()));
        assert_eq!(staged.get("a.txt").unwrap().doc.as_deref(), Some("c\n"));
        staged.rollback();
        let slot = staged.get("a.txt").unwrap();
        assert_eq!((slot.doc.as_deref(), slot.changed), (Some("a\n"), false));
        assert!(staged.set_doc("missing.txt", None).is_none());
    }

    #[test]
    fn a_move_is_one_change_and_unusable_files_are_named() {
        let mut host = MemoryHost::with_files([("old.txt", "o\n")]);
        host.files.insert("bin".into(), b"a\0".to_vec());
        let mut staged: Staged<String> = Staged::new();
        assert_eq!(
            staged
                .load(&mut host, "bin", open)
                .unusable
                .as_ref()
                .map(|u| u.kind),
            Some(crate::result::ErrorKind::Binary)
        );
        staged.load(&mut host, "old.txt", open);
        staged.load(&mut host, "new.txt", open);
        staged.checkpoint();
        let doc = staged.edit("old.txt").unwrap().doc.take();
        staged.edit("old.txt").unwrap().changed = true;
        let new = staged.edit("new.txt").unwrap();
        new.doc = doc;
        new.changed = true;
        new.moved_from = Some("old.txt".into());
        staged.touch("new.txt");
        staged.touch("old.txt");
        let done = staged.finish(&mut host, CommitOptions::default(), |d, _| d.clone());
        assert_eq!(
            (done.created, done.deleted),
            (vec!["new.txt".to_string()], vec!["old.txt".to_string()])
        );
        let change = &done.committed.file_changes;
        assert_eq!(change.len(), 1);
        assert_eq!(change[0].moved_from.as_deref(), Some("old.txt"));
        assert_eq!(host.text("new.txt").as_deref(), Some("o\n"));
        assert!(host.text("old.txt").is_none());
    }
}
