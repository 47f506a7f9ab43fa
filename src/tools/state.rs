//! A file as the reply's calls leave it so far, and what one change did to
//! it: the state every tool's change is worked out on, before anything is
//! written.

use super::excerpt;
use super::options::{
    fingerprint, FileHistory, HistoryUpdate, Matching, TrailingNewline, HISTORY_DEPTH,
};
use crate::apply::Loaded;
use crate::locate::tolerant as matching;
use crate::locate::{Pass as MatchPass, TOLERANT_PASSES};
use crate::result::{Diagnostics, ErrorKind, Status};
use crate::text::{Provenance, TextFile};

/// A file as the reply has left it so far.
pub(super) struct FileState {
    pub(super) original: Option<Vec<u8>>,
    pub(super) text: TextFile,
    pub(super) final_newline: bool,
    /// The LF body now; `None` while the file does not exist.
    pub(super) body: Option<String>,
    /// Which bytes of `body` are the file's own (so kept lines keep their endings).
    pub(super) provenance: Provenance,
    /// Why it cannot be edited (binary, not UTF-8, unreadable).
    pub(super) unusable: Option<(ErrorKind, String)>,
    pub(super) touched: bool,
    /// The session's most recent earlier texts of this file given to the
    /// reply, then those of the reply's own changes (for `undo_edit`).
    pub(super) history: Vec<Option<String>>,
    /// How many texts the session holds for this file in all.
    pub(super) history_depth: usize,
    /// How many texts of the session `history` started with.
    pub(super) history_given: usize,
    /// How many of those are still in `history` (the rest were undone).
    pub(super) history_kept: usize,
    pub(super) history_changed: bool,
    /// The file did not hold what the session last wrote when it was read
    /// (another writer changed it): going back to the session's texts would
    /// discard that change.
    pub(super) history_stale: bool,
    /// The body as the last change with a history entry (or undo) left it,
    /// as [`FileState::body_key`]: a change made since without one (another
    /// tool's) would be discarded by `undo_edit`.
    pub(super) undo_tip: Option<u64>,
}

impl FileState {
    /// A path that is no file (the project root, for a folder listing).
    pub(super) fn load_missing() -> FileState {
        FileState {
            original: None,
            text: TextFile::new_file(),
            final_newline: true,
            body: None,
            provenance: Provenance::default(),
            unusable: None,
            touched: false,
            history: Vec::new(),
            history_depth: 0,
            history_given: 0,
            history_kept: 0,
            history_changed: false,
            history_stale: false,
            undo_tip: None,
        }
    }

    /// The file as the transaction read it (`original`: its bytes).
    pub(super) fn open(loaded: Loaded, original: Option<&[u8]>) -> FileState {
        let empty = |unusable| FileState {
            unusable,
            ..FileState::load_missing()
        };
        let original = original.map(<[u8]>::to_vec);
        match loaded {
            Loaded::Missing => empty(None),
            Loaded::Text(text) => FileState {
                final_newline: text.has_final_newline(),
                body: Some(text.body.clone()),
                provenance: Provenance::original(text.body.len()),
                text: std::rc::Rc::unwrap_or_clone(text),
                original,
                ..FileState::load_missing()
            },
            Loaded::Unusable(u) => {
                let host = u.host_message.clone().unwrap_or_default();
                let why = match u.kind {
                    ErrorKind::PathEscape => format!("the host refused it ({host}); nothing outside the project root is read or written"),
                    ErrorKind::Binary => "it is a binary file (it has a NUL byte), so it is not edited as text".into(),
                    ErrorKind::Encoding => "it is not valid UTF-8 text, so it is not edited".into(),
                    // The whole sentence; each call's refusal ends it with a full stop.
                    ErrorKind::FileChanged => {
                        let reason = crate::apply::changed_twice(&host);
                        reason.strip_suffix('.').unwrap_or(&reason).to_string()
                    }
                    _ => format!("the host could not read it ({host})"),
                };
                FileState {
                    original,
                    ..empty(Some((u.kind, why)))
                }
            }
        }
    }

    /// Text from the model as the body sees it: CRLF read as LF, whatever
    /// the file's convention (which is applied again when the file is written).
    pub(super) fn normalise(&self, text: &str) -> String {
        crate::text::to_lf(text).into_owned()
    }

    /// The file's text as it would be written now (`None`: it does not exist).
    pub(super) fn encoded(&self, policy: TrailingNewline) -> Option<String> {
        let body = self.body.as_ref()?;
        Some(if body.is_empty() {
            String::new()
        } else {
            self.text.encode(body, self.final_newline, policy)
        })
    }

    /// Takes the session's history of this file: the file is as the
    /// session left it when its bytes have the fingerprint the session
    /// recorded (or none was recorded).
    pub(super) fn take_history(&mut self, given: Option<&FileHistory>) {
        let Some(given) = given else { return };
        self.history = given.before.clone();
        self.history_given = self.history.len();
        self.history_kept = self.history.len();
        self.history_depth = given.depth.max(self.history.len());
        self.history_stale = given
            .written
            .as_ref()
            .is_some_and(|written| *written != fingerprint(self.original.as_deref()));
        self.undo_tip = (!self.history.is_empty()).then(|| self.body_key());
    }

    /// Why `undo_edit` must not go back one step now, if it must not.
    pub(super) fn undo_refusal(&self) -> Option<&'static str> {
        // The last text is one of the session's (not of this reply's changes).
        let from_session = self.history.len() <= self.history_kept;
        if (from_session && self.history_stale) || self.undo_tip != Some(self.body_key()) {
            Some("changed after the last edit made through this edit session (another writer changed it), so undo_edit would discard that change; nothing was undone. View the file and change it with str_replace or insert.")
        } else {
            None
        }
    }

    /// A hash of the body as it is now (and whether it ends with a newline).
    pub(super) fn body_key(&self) -> u64 {
        use std::hash::Hasher;
        let mut h = crate::apply::PathHasher::default();
        match &self.body {
            None => h.write_u8(0),
            Some(body) => {
                h.write(body.as_bytes());
                h.write_u8(1 + u8::from(self.final_newline));
            }
        }
        h.finish()
    }

    /// Records the text before a change that `undo_edit` can go back to.
    pub(super) fn push_history(&mut self, before: Option<String>) {
        self.history.push(before);
        self.history_changed = true;
        self.undo_tip = Some(self.body_key());
    }

    /// How this reply changed the history, for the session; hands over
    /// the texts of the reply's own changes.
    pub(super) fn take_history_update(&mut self) -> HistoryUpdate {
        let undone = self.history_given - self.history_kept;
        // The session's texts that stay (the given ones are its most recent).
        let mut left = self.history_depth - undone;
        // Those of a file another writer changed lead back to before that
        // change: they are dropped once the reply has changes of its own.
        let stale = if self.history_stale { left } else { 0 };
        left -= stale;
        let pushed = self
            .history
            .split_off(self.history_kept.min(self.history.len()));
        let too_many = (left + pushed.len()).saturating_sub(HISTORY_DEPTH);
        // Texts that would be dropped at once are not sent.
        let skip = too_many.saturating_sub(left).min(pushed.len());
        HistoryUpdate {
            undone,
            pushed: pushed.into_iter().skip(skip).collect(),
            drop_oldest: stale + too_many - skip,
            written: String::new(),
        }
    }

    /// Goes back to a text from the history (`None`: the file did not exist).
    pub(super) fn restore(&mut self, text: Option<&str>) {
        match text {
            None => self.body = None,
            Some(text) => {
                let file = TextFile::from_text(text);
                self.final_newline = file.has_final_newline();
                self.provenance = Provenance::original(file.body.len());
                self.body = Some(file.body.clone());
                self.text = file;
            }
        }
        self.touched = true;
    }

    /// Replaces the body with `next`, an edit of the current one: the common
    /// start and end stay the file's own bytes (their lines keep their own
    /// endings), the part between counts as written.
    pub(super) fn set_edited_body(&mut self, next: String) {
        match self.body.as_deref() {
            Some(current) => {
                let prefix = current
                    .bytes()
                    .zip(next.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                let max_suffix = current.len().min(next.len()) - prefix;
                let suffix = current
                    .bytes()
                    .rev()
                    .zip(next.bytes().rev())
                    .take(max_suffix)
                    .take_while(|(a, b)| a == b)
                    .count();
                let (end, new_len) = (current.len() - suffix, next.len() - prefix - suffix);
                if prefix < end || new_len > 0 {
                    self.provenance.replace(&[(prefix, end, new_len)]);
                }
            }
            None => self.provenance = Provenance::written(next.len()),
        }
        self.body = Some(next);
    }
}

#[cfg(test)]
impl FileState {
    /// A file read from `bytes`, as a transaction opens it.
    pub(super) fn read(bytes: &[u8]) -> FileState {
        let text = TextFile::decode(bytes).expect("test files are text");
        FileState::open(Loaded::Text(std::rc::Rc::new(text)), Some(bytes))
    }

    /// The bytes it would write now.
    pub(super) fn written(&self) -> Option<String> {
        self.encoded(TrailingNewline::Preserve)
    }
}

/// A change's outcome while the reply is being worked through.
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct Outcome {
    pub(super) status: Status,
    pub(super) kind: Option<ErrorKind>,
    pub(super) reason: Option<String>,
    pub(super) line: Option<u32>,
    pub(super) matched_by: Option<MatchPass>,
    pub(super) diagnostics: Option<Diagnostics>,
    /// What was assumed to place it (`unescaped`).
    pub(super) assumed: Vec<String>,
    /// The tool's answer on success.
    pub(super) said: Option<String>,
    /// Only read the file (a view): stands even when the reply is not written.
    pub(super) read_only: bool,
    /// Added to the model's answer (not to `reason`): the lines to copy.
    pub(super) retry: Option<String>,
}

impl Outcome {
    pub(super) fn ok(line: Option<u32>, matched_by: Option<MatchPass>) -> Outcome {
        Outcome {
            status: Status::Applied,
            kind: None,
            reason: None,
            line,
            matched_by,
            diagnostics: None,
            assumed: Vec::new(),
            said: None,
            read_only: false,
            retry: None,
        }
    }
    pub(super) fn fail(kind: ErrorKind, reason: String) -> Outcome {
        Outcome {
            status: crate::apply::refusal_status(kind),
            kind: Some(kind),
            reason: Some(reason),
            ..Outcome::ok(None, None)
        }
    }
    pub(super) fn skip(kind: ErrorKind, reason: String) -> Outcome {
        Outcome {
            status: Status::Skipped,
            ..Outcome::fail(kind, reason)
        }
    }
    pub(super) fn at(mut self, line: Option<u32>) -> Outcome {
        self.line = line;
        self
    }
    pub(super) fn with(mut self, diagnostics: Diagnostics) -> Outcome {
        self.diagnostics = Some(diagnostics);
        self
    }
    pub(super) fn say(mut self, text: String) -> Outcome {
        self.said = Some(text);
        self
    }
    /// The file's current lines near what `wanted` meant, for the model to copy.
    pub(super) fn copy_from(mut self, body: &str, wanted: &str) -> Outcome {
        let (mut block, _) = excerpt::current_lines(body, wanted);
        if block.is_empty() {
            // Nothing alike: the lines where the change was aimed, if known.
            if let Some(line) = self.line {
                block = excerpt::around(body, line as usize, 3);
            }
        }
        if !block.is_empty() {
            self.retry = Some(format!("The file's current lines there (copy from them, without the line numbers):\n{block}"));
        }
        self
    }
    /// The places an ambiguous text matched, for the model to choose from.
    pub(super) fn candidates(mut self, body: &str, lines: &[u32]) -> Outcome {
        if !lines.is_empty() {
            self.retry = Some(format!(
                "The candidates (add lines that tell yours apart):\n{}",
                excerpt::candidates(body, lines)
            ));
        }
        self
    }
    pub(super) fn read_only(mut self) -> Outcome {
        self.read_only = true;
        self
    }
}

/// A file the host could not give: refused as leading outside the root
/// (`skipped`, like a path the core refuses), or unreadable (`failed`),
/// by the one rule ([`crate::apply::refusal_status`]).
pub(super) fn unusable(kind: ErrorKind, why: String) -> Outcome {
    Outcome::fail(kind, why)
}

/// The passes [`replace`] searches with in each matching mode.
pub(super) fn search_passes(mode: Matching) -> &'static [MatchPass] {
    match mode {
        Matching::Tolerant => &TOLERANT_PASSES,
        Matching::Exact => &[MatchPass::Substring],
    }
}

/// `body` with each match's span replaced by its replacement (the matches
/// in order, not overlapping); `extra` is a hint for the new length.
pub(super) fn spliced(body: &str, matches: &[matching::TolerantMatch], extra: usize) -> String {
    let mut next = String::with_capacity(body.len() + extra);
    let mut at = 0;
    for m in matches {
        next.push_str(&body[at..m.start]);
        next.push_str(&m.replacement);
        at = m.end;
    }
    next.push_str(&body[at..]);
    next
}
