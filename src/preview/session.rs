//! A reply's live preview: the parser's events in, each block previewed
//! against its file as the earlier blocks of the reply left it.
//!
//! The session never reads a file itself. It says which file it needs
//! ([`PreviewSession::wanted`]) and is given it ([`PreviewSession::provide`])
//! at once (a file the caller has at hand, or a synchronous host) or later
//! (an asynchronous host): lines that arrive meanwhile wait in the session,
//! and what the file then makes true is queued
//! ([`PreviewSession::take_queued`]) for the caller to hand out first with
//! the next events. A session made with [`PreviewSession::new`] is given
//! its files up front and never waits.
//!
//! Patch operations (`apply-patch`, `unified-diff`) are read in the order
//! they start: while an earlier operation's file is still being read, a
//! later one waits, so it sees what the earlier ones did to the same file.

use std::collections::{HashMap, VecDeque};

use crate::block::{EditBlock, Format};
use crate::parser::{Section, StreamEvent};

use super::{BlockPreview, PatchPreview, PreviewEvent, PreviewHtml, PreviewState};

/// A file the session needs: give it with [`PreviewSession::provide`] and
/// the same `ticket`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWanted {
    pub ticket: u32,
    /// The normalised path.
    pub path: String,
    /// The path as the reply wrote it.
    pub file_path: String,
}

/// Where the open block (or the last one) stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockStanding {
    /// The path as the reply wrote it.
    pub file_path: String,
    /// The block's line in the reply.
    pub line_number: u32,
    pub state: PreviewState,
    /// A patch operation's open section (1-based); `None` for a text block.
    pub section: Option<u32>,
}

/// A block's state when it ended, with a patch operation's open section.
pub type FinalState = (PreviewState, Option<u32>);

/// A preview event with the line of its block in the reply.
pub type LinedEvent = (u32, PreviewEvent);

enum View {
    /// The file is being read.
    Waiting,
    Block(Box<BlockPreview>),
    Patch(Box<PatchPreview>),
}

struct Entry {
    file_path: String,
    line_number: u32,
    /// The normalised path (`None`: refused, or drawn without its file).
    path: Option<String>,
    /// A patch operation's format.
    patch: Option<Format>,
    view: View,
    /// Lines that arrived while the file was being read.
    buffered: Vec<(Section, Vec<String>)>,
    /// The block completed while its file was being read.
    completed: Option<EditBlock>,
    /// A patch operation completed while its file was being read: the
    /// number its final state is reported under ([`PreviewSession::take_late_states`]).
    completed_as: Option<u32>,
    /// A format the preview does not read: no preview for this block.
    unsupported: bool,
    /// A patch operation that is done (completed or discarded).
    retired: bool,
}

impl Entry {
    fn events(&mut self) -> Vec<PreviewEvent> {
        match &mut self.view {
            View::Waiting => Vec::new(),
            View::Block(p) => p.take_events(),
            View::Patch(p) => p.take_events(),
        }
    }

    fn state(&self) -> PreviewState {
        match &self.view {
            View::Waiting => PreviewState::Waiting,
            View::Block(p) => p.state(),
            View::Patch(p) => p.state(),
        }
    }

    /// A patch operation's open section (1-based).
    fn section(&self) -> Option<u32> {
        match &self.view {
            View::Patch(p) => Some(p.section()),
            _ => None,
        }
    }

    fn content_after(&self) -> Option<String> {
        match &self.view {
            View::Waiting => None,
            View::Block(p) => p.content_after(),
            View::Patch(p) => p.content_after(),
        }
    }
}

/// Previews driven by a parser's events (see the module docs).
///
/// Each block is previewed against its file as the earlier blocks of the
/// reply left it (as sequential apply sees it): a located block that
/// completes updates the session's copy of its file.
pub struct PreviewSession {
    /// `false`: blocks are drawn, not located (no file is read).
    locate: bool,
    /// The files given up front ([`PreviewSession::new`]); `None`: asked for.
    files: Option<HashMap<String, Option<String>>>,
    /// Files as the reply's earlier blocks left them (`None`: moved away).
    changed: HashMap<String, Option<String>>,
    entries: HashMap<u32, Entry>,
    next_id: u32,
    /// The open block (a text block or a patch operation).
    block: Option<u32>,
    /// The last block that ended, whose state is kept.
    last: Option<u32>,
    /// Patch operations started and not complete, oldest first: an
    /// `apply-patch` envelope completes all its operations at `*** End Patch`.
    patches: VecDeque<u32>,
    /// Patch operations whose file is still to be read, in order; the first
    /// may be being read.
    loading: VecDeque<u32>,
    /// The patch operation whose file is being read.
    patch_read: Option<u32>,
    wanted: VecDeque<FileWanted>,
    /// Tickets given out and not answered yet.
    reading: HashMap<u32, u32>,
    next_ticket: u32,
    made: Vec<LinedEvent>,
    queued: Vec<LinedEvent>,
    /// The final state of the block the last event completed or discarded.
    final_state: Option<FinalState>,
    /// A patch operation's block-complete whose state comes later.
    deferred: Option<u32>,
    late_states: Vec<(u32, FinalState)>,
    next_completion: u32,
    /// The last event ended a patch operation (it is `last`).
    patch_ended: bool,
}

impl PreviewSession {
    /// A session over `files` (path, content); files not named do not exist.
    pub fn new<P: Into<String>, C: Into<String>>(
        files: impl IntoIterator<Item = (P, C)>,
    ) -> PreviewSession {
        let files = files
            .into_iter()
            .map(|(p, c)| (normalize(&p.into()), Some(c.into())))
            .collect();
        PreviewSession {
            files: Some(files),
            ..PreviewSession::reading(true)
        }
    }

    /// A session that asks for each file it needs ([`PreviewSession::wanted`]);
    /// `locate: false` only draws the blocks (no file is asked for).
    pub fn reading(locate: bool) -> PreviewSession {
        PreviewSession {
            locate,
            files: None,
            changed: HashMap::new(),
            entries: HashMap::new(),
            next_id: 1,
            block: None,
            last: None,
            patches: VecDeque::new(),
            loading: VecDeque::new(),
            patch_read: None,
            wanted: VecDeque::new(),
            reading: HashMap::new(),
            next_ticket: 1,
            made: Vec::new(),
            queued: Vec::new(),
            final_state: None,
            deferred: None,
            late_states: Vec::new(),
            next_completion: 1,
            patch_ended: false,
        }
    }

    /// The session's copy of a file (with the earlier located blocks
    /// applied); for a session that asks for its files, only what the
    /// reply's blocks changed.
    pub fn file(&self, path: &str) -> Option<&str> {
        let path = normalize(path);
        match self.changed.get(&path) {
            Some(c) => c.as_deref(),
            None => self.files.as_ref()?.get(&path)?.as_deref(),
        }
    }

    /// Feeds one parser event; returns the preview events it made true
    /// (after those a file read since the last event made true).
    pub fn on_event(&mut self, event: &StreamEvent) -> Vec<PreviewEvent> {
        self.event(event);
        self.take_queued()
            .into_iter()
            .chain(self.take_made())
            .map(|(_, e)| e)
            .collect()
    }

    /// Feeds one parser event; what it made true is in [`PreviewSession::take_made`].
    pub fn event(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::BlockStart {
                file_path,
                format,
                line_number,
            } => {
                self.start(file_path, *format, *line_number);
                self.opened();
            }
            StreamEvent::BlockUpdate { section, lines, .. } => self.update(*section, lines),
            StreamEvent::BlockComplete { block, .. } => self.complete(block),
            StreamEvent::BlockDiscarded { .. } => self.discard(),
        }
    }

    /// A block starts. Serve [`PreviewSession::wanted`], then call
    /// [`PreviewSession::opened`].
    pub fn start(&mut self, file_path: &str, format: Option<Format>, line_number: u32) {
        self.end();
        self.patch_ended = false;
        let id = self.next_id;
        self.next_id += 1;
        let mut entry = Entry {
            file_path: file_path.to_string(),
            line_number,
            path: None,
            patch: None,
            view: View::Waiting,
            buffered: Vec::new(),
            completed: None,
            completed_as: None,
            unsupported: false,
            retired: false,
        };
        self.block = Some(id);
        if let Some(f) = format.filter(|f| self.locate && f.is_patch()) {
            entry.patch = Some(f);
            self.patches.push_back(id);
            match crate::path::normalize_path(file_path) {
                Err(e) => {
                    entry.view =
                        View::Patch(Box::new(PatchPreview::refused(file_path, f, e.reason)));
                    self.entries.insert(id, entry);
                }
                Ok(path) => {
                    entry.path = Some(path);
                    self.entries.insert(id, entry);
                    self.loading.push_back(id);
                    if self.patch_read.is_none() {
                        self.load_patches();
                    }
                }
            }
            return;
        }
        if format.is_some_and(Format::is_patch) {
            entry.unsupported = true;
            self.entries.insert(id, entry);
            return;
        }
        if !self.locate {
            entry.view = View::Block(Box::new(BlockPreview::unlocated(file_path)));
            self.entries.insert(id, entry);
            return;
        }
        let path = match crate::path::normalize_path(file_path) {
            Ok(path) => path,
            Err(e) => {
                entry.view = View::Block(Box::new(BlockPreview::refused(file_path, e.reason)));
                self.entries.insert(id, entry);
                return;
            }
        };
        entry.path = Some(path.clone());
        if let Some(content) = self.changed.get(&path) {
            entry.view = View::Block(Box::new(BlockPreview::new(file_path, content.as_deref())));
            self.entries.insert(id, entry);
            return;
        }
        self.entries.insert(id, entry);
        self.want(id, path);
    }

    /// The block that started has been given its file if it could be at
    /// once: what it made true is in [`PreviewSession::take_made`].
    pub fn opened(&mut self) {
        self.drain();
    }

    /// Lines appended to a section of the open block.
    pub fn update<S: AsRef<str>>(&mut self, section: Section, lines: &[S]) {
        let Some(e) = self.block.and_then(|id| self.entries.get_mut(&id)) else {
            return;
        };
        if e.unsupported {
            return;
        }
        let line_number = e.line_number;
        let events = match (&mut e.view, e.patch.is_some()) {
            (_, true) if section != Section::Patch => return,
            (View::Waiting, _) => {
                let lines = lines.iter().map(|l| l.as_ref().to_string()).collect();
                e.buffered.push((section, lines));
                return;
            }
            (View::Patch(p), _) => {
                p.push(lines);
                p.take_events()
            }
            (View::Block(p), _) => {
                // A text block's sections only (a patch body is not previewed).
                if section != Section::Patch {
                    p.push(section, lines);
                }
                p.take_events()
            }
        };
        self.made
            .extend(events.into_iter().map(|e| (line_number, e)));
    }

    /// The open block completed (`block` as the parser made it).
    pub fn complete(&mut self, block: &EditBlock) {
        self.final_state = None;
        self.deferred = None;
        if block.format.is_patch() && !self.patches.is_empty() {
            self.complete_patch(block);
            return;
        }
        let Some(id) = self.block else {
            return;
        };
        let e = self
            .entries
            .get_mut(&id)
            .expect("the open block has an entry");
        if e.unsupported {
            self.block = None;
            self.set_last(None);
            return;
        }
        if matches!(e.view, View::Waiting) {
            e.completed = Some(block.clone());
            self.end();
            return;
        }
        if let View::Block(p) = &mut e.view {
            p.complete(block);
        }
        self.drain();
        let e = &self.entries[&id];
        let state = e.state();
        if matches!(state, PreviewState::Located { .. } | PreviewState::Create) {
            if let (Some(after), Some(path)) = (e.content_after(), e.path.clone()) {
                self.changed.insert(path, Some(after));
            }
        }
        if self.locate {
            self.final_state = Some((state, None));
        }
        self.end();
    }

    /// The open block was discarded.
    pub fn discard(&mut self) {
        self.final_state = None;
        self.deferred = None;
        if let Some(id) = self.patches.pop_front() {
            self.patch_ended = true;
            let e = &self.entries[&id];
            if self.locate && !matches!(e.view, View::Waiting) {
                self.final_state = Some((e.state(), e.section()));
            }
            self.retire(id);
            return;
        }
        let Some(id) = self.block else {
            return;
        };
        let e = &self.entries[&id];
        if e.unsupported {
            self.block = None;
            self.set_last(None);
            return;
        }
        if self.locate && !matches!(e.view, View::Waiting) {
            self.final_state = Some((e.state(), e.section()));
        }
        self.end();
    }

    /// The next file the session needs, if any.
    pub fn wanted(&mut self) -> Option<FileWanted> {
        self.wanted.pop_front()
    }

    /// The file a [`FileWanted`] asked for (`None`: no such file, or it
    /// could not be read). `late`: given after the event that asked for
    /// it was handled (an asynchronous read), so what it makes true is
    /// queued ([`PreviewSession::take_queued`]).
    pub fn provide(&mut self, ticket: u32, content: Option<&str>, late: bool) {
        let Some(id) = self.reading.remove(&ticket) else {
            return;
        };
        let Some(e) = self.entries.get(&id) else {
            return;
        };
        if e.patch.is_some() {
            self.patch_read = None;
            self.ready_patch(id, content);
            self.load_patches();
        } else {
            self.ready_block(id, content, late);
        }
        self.collect();
    }

    /// The preview events made true since the last call, with their block's line.
    pub fn take_made(&mut self) -> Vec<LinedEvent> {
        std::mem::take(&mut self.made)
    }

    /// Preview events made true by files given late, to hand out before
    /// the next event's.
    pub fn take_queued(&mut self) -> Vec<LinedEvent> {
        std::mem::take(&mut self.queued)
    }

    /// Whether events wait in [`PreviewSession::take_queued`].
    pub fn has_queued(&self) -> bool {
        !self.queued.is_empty()
    }

    /// The final state of the block the last `complete` or `discard` ended
    /// (`None` when it had none yet, or the session only draws).
    pub fn final_state(&self) -> Option<&FinalState> {
        self.final_state.as_ref()
    }

    /// For a patch operation whose file was still being read when the last
    /// `complete` ended it: the number its final state will be reported
    /// under in [`PreviewSession::take_late_states`].
    pub fn deferred(&self) -> Option<u32> {
        self.deferred
    }

    /// Final states of completed patch operations whose file arrived late.
    pub fn take_late_states(&mut self) -> Vec<(u32, FinalState)> {
        std::mem::take(&mut self.late_states)
    }

    /// Where the open block (or the last one) stands; `None` before any
    /// block, for a block of a format the preview does not read, and when
    /// the session only draws.
    pub fn standing(&self) -> Option<BlockStanding> {
        if !self.locate {
            return None;
        }
        let e = match self.block {
            Some(id) => &self.entries[&id],
            None => &self.entries[&self.last?],
        };
        if e.unsupported {
            return None;
        }
        Some(BlockStanding {
            file_path: e.file_path.clone(),
            line_number: e.line_number,
            state: e.state(),
            section: e.section(),
        })
    }

    /// Where the open block (or the last one) stands, whatever its format.
    pub fn state(&self) -> Option<PreviewState> {
        self.standing().map(|s| s.state)
    }

    /// The open block's file as it would look with its lines so far.
    pub fn content(&self) -> Option<String> {
        if !self.locate {
            return None;
        }
        self.entries.get(&self.block?)?.content_after()
    }

    /// The preview of the open text block, or of the last one when none is open.
    pub fn preview(&self) -> Option<&BlockPreview> {
        match &self.entries.get(&self.block.or(self.last)?)?.view {
            View::Block(p) => Some(p),
            _ => None,
        }
    }

    /// The preview of the open text block, or of the last one (mutable, e.g. to render).
    pub fn preview_mut(&mut self) -> Option<&mut BlockPreview> {
        match &mut self.entries.get_mut(&self.block.or(self.last)?)?.view {
            View::Block(p) => Some(p),
            _ => None,
        }
    }

    /// The preview of the patch operation the last event ended, else of
    /// the open one.
    pub fn patch_preview(&self) -> Option<&PatchPreview> {
        let id = match self.last {
            Some(id) if self.patch_ended => id,
            _ => *self.patches.back()?,
        };
        match &self.entries.get(&id)?.view {
            View::Patch(p) => Some(p),
            _ => None,
        }
    }

    /// The open block drawn in full with `partial` (the line being typed),
    /// in `theme`; `None` when no block is open or its file is being read.
    pub fn render_full(
        &mut self,
        partial: Option<&str>,
        theme: crate::render::Theme,
    ) -> Option<String> {
        match &mut self.entries.get_mut(&self.block?)?.view {
            View::Waiting => None,
            View::Block(p) => {
                p.set_theme(theme);
                Some(p.render_full(partial))
            }
            View::Patch(p) => {
                p.set_theme(theme);
                Some(p.render_full(partial))
            }
        }
    }

    /// What changed in the open block's drawing since the last call.
    pub fn render_delta(
        &mut self,
        partial: Option<&str>,
        theme: crate::render::Theme,
    ) -> Option<PreviewHtml> {
        match &mut self.entries.get_mut(&self.block?)?.view {
            View::Waiting => None,
            View::Block(p) => {
                p.set_theme(theme);
                Some(p.render_delta(partial))
            }
            View::Patch(p) => {
                p.set_theme(theme);
                Some(p.render_delta(partial))
            }
        }
    }

    /// The reply ended: every block still open ends.
    pub fn close(&mut self) {
        self.end();
        while let Some(id) = self.patches.pop_front() {
            self.retire(id);
        }
        self.collect();
    }

    fn want(&mut self, id: u32, path: String) {
        if let Some(files) = &self.files {
            // Given up front: read at once.
            let content = files.get(&path).cloned().flatten();
            match self.entries[&id].patch {
                Some(_) => self.ready_patch(id, content.as_deref()),
                None => self.ready_block(id, content.as_deref(), false),
            }
            return;
        }
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.reading.insert(ticket, id);
        if self.entries[&id].patch.is_some() {
            self.patch_read = Some(id);
        }
        let file_path = self.entries[&id].file_path.clone();
        self.wanted.push_back(FileWanted {
            ticket,
            path,
            file_path,
        });
    }

    /// Loads the waiting patch operations in order until one must be read.
    fn load_patches(&mut self) {
        while self.patch_read.is_none() {
            let Some(id) = self.loading.pop_front() else {
                return;
            };
            let Some(e) = self.entries.get(&id) else {
                continue;
            };
            if e.retired {
                continue;
            }
            let path = e.path.clone().expect("a loaded patch operation has a path");
            // An earlier operation of the same patch on this file, as streamed so far.
            let at = self.patches.iter().position(|q| *q == id).unwrap_or(0);
            let earlier = self.patches.iter().take(at).rev().find_map(|q| {
                let q = &self.entries[q];
                (q.path.as_deref() == Some(path.as_str()) && !matches!(q.view, View::Waiting))
                    .then(|| q.content_after())
            });
            if let Some(Some(after)) = earlier {
                self.ready_patch(id, Some(&after));
                continue;
            }
            if let Some(content) = self.changed.get(&path).cloned() {
                self.ready_patch(id, content.as_deref());
                continue;
            }
            self.want(id, path);
        }
    }

    fn ready_patch(&mut self, id: u32, content: Option<&str>) {
        let Some(e) = self.entries.get_mut(&id) else {
            return;
        };
        if e.retired {
            return;
        }
        let format = e.patch.expect("a patch operation");
        let mut p = PatchPreview::new(&e.file_path, format, content);
        for (_, lines) in std::mem::take(&mut e.buffered) {
            p.push(&lines);
        }
        e.view = View::Patch(Box::new(p));
        let completed = e
            .completed
            .take()
            .map(|block| (block, e.completed_as.take()));
        if let Some((block, number)) = &completed {
            let state = self.finish_patch(id, block);
            if let Some(number) = number {
                self.late_states.push((*number, state));
            }
        }
        let e = self.entries.get_mut(&id).expect("still there");
        let line_number = e.line_number;
        let events = e.events();
        self.queued
            .extend(events.into_iter().map(|ev| (line_number, ev)));
        if completed.is_some() {
            self.retire(id);
        }
    }

    fn ready_block(&mut self, id: u32, content: Option<&str>, late: bool) {
        let Some(e) = self.entries.get_mut(&id) else {
            return;
        };
        if e.unsupported {
            return;
        }
        let mut p = BlockPreview::new(&e.file_path, content);
        for (section, lines) in std::mem::take(&mut e.buffered) {
            if section != Section::Patch {
                p.push(section, &lines);
            }
        }
        if let Some(block) = e.completed.take() {
            p.complete(&block);
        }
        e.view = View::Block(Box::new(p));
        if late {
            let line_number = e.line_number;
            let events = e.events();
            self.queued
                .extend(events.into_iter().map(|ev| (line_number, ev)));
        }
    }

    fn complete_patch(&mut self, block: &EditBlock) {
        let id = self.patches.pop_front().expect("a patch operation is open");
        self.patch_ended = true;
        let e = self
            .entries
            .get_mut(&id)
            .expect("an open patch operation has an entry");
        if matches!(e.view, View::Waiting) {
            let number = self.next_completion;
            self.next_completion += 1;
            e.completed = Some(block.clone());
            e.completed_as = Some(number);
            self.deferred = Some(number);
            return;
        }
        let state = self.finish_patch(id, block);
        self.final_state = Some(state);
        let e = self.entries.get_mut(&id).expect("still there");
        let line_number = e.line_number;
        let events = e.events();
        self.made
            .extend(events.into_iter().map(|ev| (line_number, ev)));
        if self.block == Some(id) {
            self.block = None;
        }
        self.retire(id);
    }

    /// Completes a patch operation's preview; updates the session's files
    /// when it applies. Returns its final state.
    fn finish_patch(&mut self, id: u32, block: &EditBlock) -> FinalState {
        let e = self.entries.get_mut(&id).expect("a patch operation");
        if let View::Patch(p) = &mut e.view {
            p.complete(block);
        }
        let state = e.state();
        if let Some(path) = e.path.clone() {
            if matches!(
                state,
                PreviewState::Located { .. } | PreviewState::Create | PreviewState::Delete
            ) {
                let after = e.content_after();
                let to = block.patch.as_ref().and_then(|op| op.move_to.as_deref());
                match to.and_then(|to| crate::path::normalize_path(to).ok()) {
                    Some(dest) if dest != path => {
                        self.changed.insert(path, None);
                        self.changed.insert(dest, after);
                    }
                    _ => {
                        self.changed.insert(path, after);
                    }
                }
            }
        }
        let section = self.entries[&id].section();
        (state, section)
    }

    /// A patch operation is done: it stays as the last one.
    fn retire(&mut self, id: u32) {
        let Some(e) = self.entries.get_mut(&id) else {
            return;
        };
        e.retired = true;
        if self.block == Some(id) {
            self.block = None;
        }
        if !matches!(e.view, View::Waiting) {
            self.set_last(Some(id));
        }
    }

    /// The open block ends (a patch operation stays pending until its
    /// block-complete, the patch's end).
    fn end(&mut self) {
        let Some(id) = self.block.take() else {
            return;
        };
        let e = &self.entries[&id];
        if e.patch.is_some() {
            return;
        }
        if e.unsupported {
            self.set_last(None);
        } else {
            self.set_last(Some(id));
        }
    }

    fn set_last(&mut self, id: Option<u32>) {
        self.last = id;
        self.collect();
    }

    /// Drops the blocks nothing refers to any more.
    fn collect(&mut self) {
        if self.entries.len() <= 2 + self.patches.len() + self.loading.len() + self.reading.len() {
            return;
        }
        let keep: std::collections::HashSet<u32> = self
            .block
            .iter()
            .chain(self.last.iter())
            .chain(self.patches.iter())
            .chain(self.loading.iter())
            .chain(self.reading.values())
            .copied()
            .collect();
        self.entries.retain(|id, _| keep.contains(id));
    }

    /// The open block's events, into what the current call made.
    fn drain(&mut self) {
        let Some(e) = self.block.and_then(|id| self.entries.get_mut(&id)) else {
            return;
        };
        let line_number = e.line_number;
        let events = e.events();
        self.made
            .extend(events.into_iter().map(|ev| (line_number, ev)));
    }
}

fn normalize(path: &str) -> String {
    crate::path::normalize_path(path).unwrap_or_else(|_| path.to_string())
}
