//! Live preview: where a block that is still streaming lands in its file,
//! and whether it can still apply.
//!
//! A [`BlockPreview`] holds the current content of the open block's file and
//! is fed the block's lines as the parser reports them (the `section` and
//! `lines` of each [`StreamEvent::BlockUpdate`](crate::parser::StreamEvent::BlockUpdate)). It keeps the positions in
//! the file where the location sequence written so far (anchor, old lines,
//! trailing anchor, as [`crate::engine`] locates an edit) starts, and each
//! new line only checks the next file line at each of those positions: the
//! cost of an update is proportional to the new lines and the candidates,
//! never to the file or to the block. The first line of the sequence is
//! found with one scan of the file by the locate module's exact pass.
//!
//! States ([`PreviewState`]): `waiting` (no old line yet), `searching` (the
//! old lines so far occur at `count` places), `located` at a file line,
//! `ambiguous` (the old text is complete and occurs at several places),
//! `no-match` since a line of the old text, and `create` (a block that
//! creates a file). Matching is exact, whole lines, as the text formats'
//! default; a block that would only apply with `matching: 'tolerant'` shows
//! as `no-match`.
//!
//! Events ([`PreviewEvent`]) are produced once per block, when they become
//! true: `block-located` when exactly one place is left, and
//! `block-unmatched` (with the reason a model would get from
//! [`crate::engine::validate_edit`]) as soon as the block can no longer
//! apply: its old text stopped occurring in the file, its complete old text
//! occurs more than once, the file is missing or binary, or it would create
//! a file that exists. At [`BlockPreview::complete`] the final state equals
//! what a one-shot `validate_edit` of the complete block says.
//!
//! [`PreviewSession`] drives previews from a parser's events for a set of
//! files, and lets a later block in the same file see the earlier ones (as
//! sequential apply does). Patch operations (`apply-patch`, `unified-diff`)
//! are previewed section by section by [`PatchPreview`] (see its module),
//! and tool calls whose arguments stream by [`ToolCallPreview`], which reads
//! the argument JSON incrementally with [`JsonReader`]. Both end with the
//! applier's own verdict on the complete operation or edit; their only calls
//! into the appliers and the matcher are in `verdict.rs`.
//!
//! ```
//! use editblocks::parser::{EditStream, ParseOptions};
//! use editblocks::preview::{PreviewSession, PreviewEvent, PreviewState};
//!
//! let mut session = PreviewSession::new([("a.py", "x = 1\ny = 2\nz = 3\n")]);
//! let mut stream = EditStream::new(&ParseOptions::default());
//! let mut events = Vec::new();
//! for chunk in ["a.py\n<<<<<<< SEARCH\ny = ", "2\n=======\ny = 20\n", ">>>>>>> REPLACE\n"] {
//!     for event in stream.feed(chunk) {
//!         events.extend(session.on_event(&event));
//!     }
//! }
//! assert_eq!(events, [PreviewEvent::BlockLocated { file_path: "a.py".into(), line: 2 }]);
//! assert_eq!(session.file("a.py"), Some("x = 1\ny = 20\nz = 3\n"));
//! ```

mod failure;
mod json;
mod patch;
mod render;
mod session;
mod tool_call;
mod verdict;

use serde::Serialize;

use crate::block::{EditBlock, Format};
use crate::parser::Section;
use crate::text::{body_lines, is_binary, TextFile};

use failure::Failure;
use verdict::{validate_edit, ApplyOptions};

pub use json::{JsonEvent, JsonReader, Seg};
pub use patch::PatchPreview;
pub use render::PreviewHtml;
pub use session::{BlockStanding, FileWanted, FinalState, LinedEvent, PreviewSession};
pub use tool_call::ToolCallPreview;

/// Whether a file is binary, and its lines as the line model splits them
/// (none for a binary or missing file).
fn file_lines(content: Option<&str>) -> (bool, Vec<String>) {
    let binary = content.is_some_and(|c| is_binary(c.as_bytes()));
    let lines = match content {
        Some(c) if !binary => body_lines(&TextFile::from_text(c).body)
            .into_iter()
            .map(String::from)
            .collect(),
        _ => Vec::new(),
    };
    (binary, lines)
}

/// Where a streaming block stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "state",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum PreviewState {
    /// No old line written yet.
    Waiting,
    /// The old lines so far occur at `count` places (`lines`: the first
    /// ten, 1-based file lines).
    Searching { count: u32, lines: Vec<u32> },
    /// Exactly one place: the sequence starts at file line `line`.
    Located { line: u32 },
    /// The old text is complete and occurs at every line of `lines`.
    Ambiguous { lines: Vec<u32>, reason: String },
    /// The old text stopped occurring in the file at its line `since`
    /// (1-based, counted in the block's location sequence: anchor, old
    /// lines, trailing anchor), or the file cannot be edited (`since` 0).
    NoMatch {
        since: u32,
        error_kind: String,
        reason: String,
    },
    /// The block creates a file (its old text is empty).
    Create,
    /// The patch operation deletes the file.
    Delete,
    /// Not located: the preview was made without the file
    /// ([`BlockPreview::unlocated`]), to draw the block incrementally only.
    Unlocated,
}

impl PreviewState {
    /// The kebab-case name (`'searching'`, `'located'`, …).
    pub fn name(&self) -> &'static str {
        match self {
            PreviewState::Waiting => "waiting",
            PreviewState::Searching { .. } => "searching",
            PreviewState::Located { .. } => "located",
            PreviewState::Ambiguous { .. } => "ambiguous",
            PreviewState::NoMatch { .. } => "no-match",
            PreviewState::Create => "create",
            PreviewState::Delete => "delete",
            PreviewState::Unlocated => "unlocated",
        }
    }
}

/// What became true while a block streamed; at most one of each per block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum PreviewEvent {
    /// Exactly one place in the file is left for the block.
    BlockLocated { file_path: String, line: u32 },
    /// The block can no longer apply; `reason` is what a model would be told.
    BlockUnmatched {
        file_path: String,
        error_kind: String,
        reason: String,
        /// Line of the block's location sequence where it stopped matching
        /// (0 when the file itself is the problem or the text is ambiguous).
        since: u32,
        /// Candidate file lines when the text is ambiguous.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        lines: Vec<u32>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Anchor and old lines (`edit`, `search`, `anchor`, `old`).
    Old,
    New,
    Trailing,
    Complete,
}

/// The streaming preview of one block against the current content of its file.
pub struct BlockPreview {
    path: String,
    /// The file as given (`None`: no such file).
    content: Option<String>,
    lines: Vec<String>,
    binary: bool,
    /// False: no file given; lines are only kept for drawing.
    locate: bool,
    /// A failure decided while streaming whose event waits for the end
    /// marker: the parser may still rewrite the old text (line-number
    /// prefixes, a wrapper line, a spurious blank first line), or a line
    /// hint (`:start_line:`) may pick one of several places.
    withheld: bool,
    format: Option<Format>,
    /// Anchor and old lines, in order (the `edit`, `search`, `anchor` and `old` sections).
    seq: Vec<String>,
    /// How many of `seq` came in the `old` section (the rest is the anchored leading anchor).
    old_count: usize,
    new: Vec<String>,
    trailing: Vec<String>,
    phase: Phase,
    /// 0-based file lines where the location sequence so far starts.
    candidates: Vec<usize>,
    failure: Option<Failure>,
    /// `edit-repl`: how many leading new lines equal the leading old lines.
    prefix: usize,
    located_sent: bool,
    unmatched_sent: bool,
    events: Vec<PreviewEvent>,
    cursor: render::Cursor,
    /// The colours the drawing asks for (a class on its root).
    theme: crate::render::Theme,
}

impl BlockPreview {
    /// A preview of a block to `path`, whose file holds `content` (`None`
    /// when there is no such file). Costs one pass over the file.
    pub fn new(path: &str, content: Option<&str>) -> BlockPreview {
        let (binary, lines) = file_lines(content);
        BlockPreview {
            path: path.to_string(),
            content: content.map(String::from),
            lines,
            binary,
            format: None,
            seq: Vec::new(),
            old_count: 0,
            new: Vec::new(),
            trailing: Vec::new(),
            phase: Phase::Old,
            candidates: Vec::new(),
            failure: None,
            prefix: 0,
            located_sent: false,
            unmatched_sent: false,
            events: Vec::new(),
            cursor: render::Cursor::default(),
            theme: crate::render::Theme::Auto,
            locate: true,
            withheld: false,
        }
    }

    /// A preview of a block to `path` as written in a reply: a path that
    /// leaves the root (or is otherwise refused) is never read, and the
    /// block is unmatched at once with the reason; otherwise `read` is asked
    /// for the normalised path's content.
    pub fn for_reply_path(path: &str, read: impl FnOnce(&str) -> Option<String>) -> BlockPreview {
        match crate::path::normalize_path(path) {
            Ok(normal) => {
                let content = read(&normal);
                BlockPreview::new(path, content.as_deref())
            }
            Err(e) => BlockPreview::refused(path, e.reason),
        }
    }

    /// A block refused before its file is read (its path leaves the root):
    /// unmatched from the start.
    pub fn refused(path: &str, reason: String) -> BlockPreview {
        let mut p = BlockPreview::new(path, None);
        p.fail(Failure::path_escape(reason));
        p
    }

    pub fn file_path(&self) -> &str {
        &self.path
    }

    /// The block's format, once known.
    pub fn set_format(&mut self, format: Format) {
        self.format = Some(format);
    }

    /// Lines appended to `section` of the block (what a `block-update` carries).
    pub fn push<S: AsRef<str>>(&mut self, section: Section, lines: &[S]) {
        // Sections of other formats (a patch body) are not previewed.
        if matches!(
            section,
            Section::Edit | Section::Search | Section::Anchor | Section::Old
        ) {
            if section == Section::Old {
                self.format = Some(Format::Anchored);
            }
            if section == Section::Search {
                self.format = Some(Format::SearchReplace);
            }
            if self.phase != Phase::Old {
                return; // cannot happen with a parser's events; ignore rather than mislocate
            }
            for line in lines {
                let line = line.as_ref();
                self.narrow(line);
                self.seq.push(line.to_string());
                if section == Section::Old {
                    self.old_count += 1;
                }
                // After every line: events must not depend on how the reply was chunked.
                self.update_located();
            }
        } else if matches!(section, Section::Repl | Section::Replace | Section::New) {
            if section == Section::New {
                self.format = Some(Format::Anchored);
            } else if section == Section::Repl {
                self.format = Some(Format::EditRepl);
            } else {
                self.format = Some(Format::SearchReplace);
            }
            if self.phase == Phase::Old {
                self.end_old();
            }
            if self.phase != Phase::New {
                return;
            }
            for line in lines {
                let line = line.as_ref();
                if self.shares_prefix()
                    && self.prefix == self.new.len()
                    && self.seq.get(self.prefix).is_some_and(|s| s == line)
                {
                    self.prefix += 1;
                }
                self.new.push(line.to_string());
            }
        } else if section == Section::TrailingAnchor {
            self.format = Some(Format::Anchored);
            if self.phase == Phase::Old {
                self.end_old();
            }
            if self.phase == Phase::New {
                self.phase = Phase::Trailing;
            }
            if self.phase != Phase::Trailing {
                return;
            }
            for line in lines {
                let line = line.as_ref();
                self.narrow(line);
                self.trailing.push(line.to_string());
                self.update_located();
            }
        }
    }

    /// The position in the location sequence of the next line.
    fn seq_len(&self) -> usize {
        self.seq.len() + self.trailing.len()
    }

    /// A preview without the file: never located, for drawing the block
    /// incrementally when the file's content is not at hand.
    pub fn unlocated(path: &str) -> BlockPreview {
        let mut p = BlockPreview::new(path, None);
        p.locate = false;
        p
    }

    /// Narrows the candidates by the next line of the location sequence.
    fn narrow(&mut self, line: &str) {
        if self.failure.is_some() || !self.locate {
            return;
        }
        let k = self.seq_len();
        if self.content.is_none() || self.binary {
            self.fail_file(k);
            return;
        }
        if k == 0 {
            self.candidates = verdict::starts_of(&self.lines, line, verdict::Pass::Exact, 0);
        } else {
            let lines = &self.lines;
            self.candidates
                .retain(|&s| lines.get(s + k).is_some_and(|l| l == line));
        }
        if self.candidates.is_empty() {
            let since = (k + 1) as u32;
            // The reason a model would get for the lines written so far.
            let mut seq: Vec<&str> = self.seq.iter().map(String::as_str).collect();
            let mut trailing: Vec<&str> = self.trailing.iter().map(String::as_str).collect();
            if self.phase == Phase::Trailing {
                trailing.push(line);
            } else {
                seq.push(line);
            }
            let (kind, reason) = self.explain(&seq, &trailing);
            let kind = kind.unwrap_or_else(|| "old-mismatch".to_string());
            let reason = reason.unwrap_or_else(|| {
                format!(
                    "The old lines do not occur in {} from line {since} of the edit on.",
                    self.path
                )
            });
            let rewritable = self.may_be_rewritten(line);
            self.fail_maybe_later(Failure::since(since, &kind, reason), rewritable);
        }
    }

    /// Whether the parser may still rewrite the old text when the block
    /// ends (so a mismatch now is not final): a line-number prefix on a
    /// line (`12 | `, `12: `, `12<tab>`), or a first line that is blank, a
    /// fence, or names a file (a wrapper the parser strips).
    fn may_be_rewritten(&self, line: &str) -> bool {
        let numbered = |l: &str| {
            let t = l.trim_start();
            let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            digits > 0 && {
                let rest = &t[digits..];
                rest.starts_with('\t')
                    || rest.trim_start_matches(' ').starts_with('|')
                    || rest.trim_start_matches(' ').starts_with(':')
            }
        };
        let first = self.seq.first().map(String::as_str).unwrap_or(line);
        let f = first.trim();
        let wrapper = f.is_empty()
            || f.starts_with("```")
            || f.starts_with("~~~")
            || (!f.contains(' ')
                && (f.contains('/')
                    || f.rsplit_once('.').is_some_and(|(a, b)| {
                        !a.is_empty()
                            && !b.is_empty()
                            && b.chars().all(|c| c.is_ascii_alphanumeric())
                    })));
        wrapper || numbered(line) || self.seq.iter().any(|l| numbered(l))
    }

    /// [`BlockPreview::fail`], with the event held back until the end
    /// marker when `later` (see [`BlockPreview::withheld`]).
    fn fail_maybe_later(&mut self, failure: Failure, later: bool) {
        if later && self.phase != Phase::Complete {
            self.candidates.clear();
            self.failure = Some(failure);
            self.withheld = true;
        } else {
            self.fail(failure);
        }
    }

    /// A block with the lines so far, for the engine's explainer.
    fn block_for(&self, seq: &[&str], trailing: &[&str]) -> Option<EditBlock> {
        let anchored = self.format == Some(Format::Anchored);
        let anchor_len = if anchored {
            self.seq.len() - self.old_count
        } else {
            0
        };
        let anchor_len = anchor_len.min(seq.len());
        let mut block = template_block()?;
        block.format = if anchored {
            Format::Anchored
        } else {
            Format::SearchReplace
        };
        block.file_path = self.path.clone();
        block.anchor = seq[..anchor_len].join("\n");
        block.old_lines = seq[anchor_len..].join("\n");
        // Not the old text: an explanation, not a no-op.
        block.new_lines = "\u{0}".into();
        block.trailing_anchor = trailing.join("\n");
        Some(block)
    }

    /// What `validate_edit` says of the lines so far: error kind and reason.
    fn explain(&self, seq: &[&str], trailing: &[&str]) -> (Option<String>, Option<String>) {
        match self.block_for(seq, trailing) {
            Some(block) => {
                let v = validate_edit(
                    &block,
                    self.content.as_deref().unwrap_or(""),
                    &ApplyOptions::default(),
                );
                (v.error_kind.map(|k| k.as_str().to_string()), v.reason)
            }
            None => (None, None),
        }
    }

    fn fail_file(&mut self, k: usize) {
        let (kind, reason) = if self.binary {
            ("binary", verdict::binary_reason(&self.path))
        } else {
            ("file-not-found", verdict::file_not_found(&self.path))
        };
        let _ = k;
        self.fail(Failure::of(kind, reason));
    }

    fn fail(&mut self, failure: Failure) {
        self.candidates.clear();
        if !self.unmatched_sent {
            self.unmatched_sent = true;
            self.events.push(failure.event(&self.path));
        }
        self.failure = Some(failure);
    }

    fn update_located(&mut self) {
        if self.failure.is_none() && self.candidates.len() == 1 && !self.located_sent {
            self.located_sent = true;
            self.events.push(PreviewEvent::BlockLocated {
                file_path: self.path.clone(),
                line: (self.candidates[0] + 1) as u32,
            });
        }
    }

    /// The old text is complete: decide create, ambiguity (final unless a
    /// trailing anchor may still narrow it).
    fn end_old(&mut self) {
        self.phase = Phase::New;
        if self.failure.is_some() || !self.locate {
            return;
        }
        if self.seq.is_empty() {
            if self.format != Some(Format::Anchored) {
                self.check_create();
            }
            return;
        }
        if self.candidates.len() > 1 && self.format != Some(Format::Anchored) {
            self.fail_ambiguous();
        }
    }

    fn check_create(&mut self) {
        if self.binary {
            self.fail_file(0);
        } else if self.lines.iter().any(|l| !l.trim().is_empty()) {
            let reason = verdict::file_exists_reason(&self.path);
            self.fail(Failure::of("file-exists", reason));
        }
    }

    fn fail_ambiguous(&mut self) {
        let seq: Vec<&str> = self.seq.iter().map(String::as_str).collect();
        let trailing: Vec<&str> = self.trailing.iter().map(String::as_str).collect();
        let (_, reason) = self.explain(&seq, &trailing);
        let lines: Vec<u32> = self.candidates.iter().map(|&i| (i + 1) as u32).collect();
        let reason = reason.unwrap_or_else(|| {
            format!(
                "Edit location is ambiguous: the old lines occur {} times in {}.",
                lines.len(),
                self.path
            )
        });
        // Before the end marker a line hint may still pick one place.
        self.fail_maybe_later(
            Failure {
                lines,
                ..Failure::of("ambiguous", reason)
            },
            true,
        );
    }

    /// The block's end marker was read: `block` is what the parser
    /// completed. The final state is then what `validate_edit` says of it
    /// (the reason of a failure is the engine's own for the whole block).
    pub fn complete(&mut self, block: &EditBlock) {
        self.format = Some(block.format);
        let split = |t: &str| -> Vec<String> {
            if t.is_empty() {
                Vec::new()
            } else {
                t.split('\n').map(String::from).collect()
            }
        };
        let mut seq = split(&block.anchor);
        seq.extend(split(&block.old_lines));
        let trailing = split(&block.trailing_anchor);
        // As streamed, an edit-repl block's new lines start with its anchor
        // (the REPL section repeats it); the block keeps them apart.
        let mut new = match block.format {
            Format::EditRepl => split(&block.anchor),
            _ => Vec::new(),
        };
        new.extend(split(&block.new_lines));
        if !self.locate {
            self.seq = seq;
            self.trailing = trailing;
            self.new = new;
            self.prefix = self.complete_prefix(block);
            self.old_count = if block.format == Format::Anchored {
                split(&block.old_lines).len()
            } else {
                0
            };
            self.phase = Phase::Complete;
            return;
        }
        if seq != self.seq || trailing != self.trailing {
            // Not what was streamed (a caller feeding by hand): start over from the block.
            let mut fresh = BlockPreview::new(&self.path, self.content.as_deref());
            fresh.located_sent = self.located_sent;
            fresh.unmatched_sent = self.unmatched_sent;
            fresh.format = Some(block.format);
            let section = if block.format == Format::Anchored {
                Section::Anchor
            } else {
                Section::Search
            };
            fresh.push(section, &split(&block.anchor));
            let old_section = if block.format == Format::Anchored {
                Section::Old
            } else {
                Section::Search
            };
            fresh.push(old_section, &split(&block.old_lines));
            fresh.end_old();
            fresh.push(Section::TrailingAnchor, &trailing);
            fresh.format = Some(block.format);
            let mut events = std::mem::take(&mut self.events);
            events.append(&mut fresh.events);
            fresh.events = events;
            fresh.cursor = std::mem::take(&mut self.cursor);
            *self = fresh;
        }
        self.new = new;
        self.prefix = self.complete_prefix(block);
        if self.phase == Phase::Old {
            self.end_old();
        }
        self.phase = Phase::Complete;
        if self.failure.is_none() && self.seq.is_empty() && self.trailing.is_empty() {
            self.check_create();
        }
        // An ambiguity held back: the block's line hint may pick one place (as the engine does).
        if let Some(f) = self
            .failure
            .as_ref()
            .filter(|f| f.kind == "ambiguous" && self.withheld)
        {
            self.candidates = f
                .lines
                .iter()
                .map(|&l| (l as usize).saturating_sub(1))
                .collect();
            self.failure = None;
            self.withheld = false;
        }
        if self.failure.is_none() && self.candidates.len() > 1 {
            let anchor_len = split(&block.anchor).len();
            if let Some(pos) =
                verdict::nearest_to_hint(&self.candidates, anchor_len, block.line_hint)
            {
                self.candidates = vec![pos];
            }
        }
        if self.failure.is_none() && self.candidates.len() > 1 {
            self.fail_ambiguous();
        }
        self.update_located();
        // The engine's own words for the whole block replace the reason given mid-stream.
        if let Some(failure) = &mut self.failure {
            let v = validate_edit(
                block,
                self.content.as_deref().unwrap_or(""),
                &ApplyOptions::default(),
            );
            if let (Some(kind), Some(reason), true) = (
                v.error_kind,
                v.reason,
                self.content.is_some() && failure.kind != "path-escape",
            ) {
                failure.kind = kind.as_str().to_string();
                failure.reason = reason;
            }
        }
        // A mismatch held back while the parser could still rewrite the old text: final now.
        if self.withheld {
            self.withheld = false;
            if let Some(f) = self.failure.clone() {
                self.fail(f);
            }
        }
    }

    /// The events that became true since the last call.
    pub fn take_events(&mut self) -> Vec<PreviewEvent> {
        std::mem::take(&mut self.events)
    }

    /// Where the block stands now.
    pub fn state(&self) -> PreviewState {
        if !self.locate {
            return PreviewState::Unlocated;
        }
        if let Some(f) = &self.failure {
            return f.state();
        }
        if self.seq_len() == 0 {
            // An anchored block may still bring a trailing anchor to locate.
            let open = self.phase == Phase::Old
                || (self.format == Some(Format::Anchored) && self.phase != Phase::Complete);
            return if open {
                PreviewState::Waiting
            } else {
                PreviewState::Create
            };
        }
        match self.candidates.as_slice() {
            [one] => PreviewState::Located {
                line: (*one + 1) as u32,
            },
            many => PreviewState::Searching {
                count: many.len() as u32,
                lines: many.iter().take(10).map(|&i| (i + 1) as u32).collect(),
            },
        }
    }

    /// The 0-based file line where the block's sequence starts, when exactly one place is left.
    pub fn located_start(&self) -> Option<usize> {
        match (self.failure.as_ref(), self.candidates.as_slice()) {
            (None, [one]) if self.seq_len() > 0 => Some(*one),
            _ => None,
        }
    }

    /// How many leading lines of the sequence stay (context): the leading
    /// anchor (`anchored`) or the common prefix with the new lines so far (`edit-repl`).
    fn kept_prefix(&self) -> usize {
        match self.format {
            Some(Format::Anchored) => self.seq.len() - self.old_count,
            Some(Format::EditRepl | Format::SearchReplace) if self.phase != Phase::Old => {
                self.prefix
            }
            _ => 0,
        }
    }

    /// Whether the lines the old and new text start with in common stay
    /// (drawn as context, not removed and added again): edit-repl's shared
    /// context, and the lines a SEARCH and its REPLACE both begin with.
    pub(super) fn shares_prefix(&self) -> bool {
        matches!(self.format, Some(Format::EditRepl | Format::SearchReplace))
    }

    /// The kept prefix of a completed block: edit-repl's context (its
    /// anchor), or the lines a SEARCH and its REPLACE begin with in common.
    fn complete_prefix(&self, block: &EditBlock) -> usize {
        match block.format {
            Format::EditRepl if block.anchor.is_empty() => 0,
            Format::EditRepl => block.anchor.split('\n').count(),
            Format::SearchReplace => self
                .seq
                .iter()
                .zip(self.new.iter())
                .take_while(|(a, b)| a == b)
                .count(),
            _ => 0,
        }
    }

    /// The new lines so far that replace the old ones.
    fn replacement(&self) -> &[String] {
        let p = if self.shares_prefix() {
            self.prefix.min(self.new.len())
        } else {
            0
        };
        &self.new[p..]
    }

    /// The file as it would look with the new lines written so far, when
    /// the block is located (or creates a file). Costs one pass over the
    /// file: call it when the text is needed, not per token.
    pub fn content_after(&self) -> Option<String> {
        if self.failure.is_some() || !self.locate {
            return None;
        }
        if self.seq_len() == 0 && self.phase != Phase::Old {
            let mut out = self.new.join("\n");
            if !self.new.is_empty() {
                out.push('\n');
            }
            return Some(out);
        }
        let start = self.located_start()?;
        let content = self.content.as_deref()?;
        let text = TextFile::from_text(content);
        let from = start + self.kept_prefix();
        let to = start + self.seq.len();
        let mut lines: Vec<&str> = Vec::with_capacity(self.lines.len() + self.new.len());
        lines.extend(
            self.lines[..from.min(self.lines.len())]
                .iter()
                .map(String::as_str),
        );
        if self.phase != Phase::Old {
            lines.extend(self.replacement().iter().map(String::as_str));
        } else {
            lines.extend(
                self.lines[from.min(self.lines.len())..to.min(self.lines.len())]
                    .iter()
                    .map(String::as_str),
            );
        }
        lines.extend(
            self.lines[to.min(self.lines.len())..]
                .iter()
                .map(String::as_str),
        );
        let final_newline = !lines.is_empty() && text.has_final_newline();
        Some(text.encode_lines(&lines, final_newline))
    }

    /// The theme of the next renders (a new one redraws the whole preview).
    pub fn set_theme(&mut self, theme: crate::render::Theme) {
        self.theme = theme;
    }

    /// Incremental HTML: what changed since the last call (see [`PreviewHtml`]).
    pub fn render_delta(&mut self, partial_line: Option<&str>) -> PreviewHtml {
        render::delta(self, partial_line)
    }

    /// The whole preview as HTML (what [`BlockPreview::render_delta`] builds up).
    pub fn render_full(&self, partial_line: Option<&str>) -> String {
        render::full(self, partial_line)
    }
}

/// A plain block with every field at its default, whatever fields the
/// block type has: what the parser makes of a minimal reply.
pub(crate) fn template_block() -> Option<EditBlock> {
    let reply = "t.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n";
    crate::parser::parse_edits(reply, &crate::parser::ParseOptions::default()).pop()
}

#[cfg(test)]
mod tests;
