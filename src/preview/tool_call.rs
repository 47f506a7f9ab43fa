//! The live preview of a tool call whose arguments are still streaming
//! (`edit_file`, `str_replace_based_edit_tool`'s `str_replace`, Gemini's
//! `replace`): fed the argument JSON in chunks as the API sends them
//! (OpenAI's `function_call_arguments.delta`, Anthropic's
//! `input_json_delta`), it reads the path and the old and new text as they
//! arrive ([`super::json`]: no re-parse of the text so far), and locates
//! the old text in the file while it is being written.
//!
//! The old text is matched as a piece of text, not whole lines (as the
//! tools match it), one complete line at a time: the first line is found
//! with one scan of the file, each later line only checks each candidate
//! place. When the exact text stops occurring, the text with its
//! whitespace removed is searched instead (the tolerant passes forgive
//! whitespace), so a block is only called unmatched when neither occurs.
//! Events and states depend on the lines of the old text, never on how the
//! arguments were chunked.
//!
//! When an edit is complete (its object, or the whole argument, closed),
//! its final state is what the tool applier says of it
//! ([`super::verdict::tool_edit`]); a later edit of the same call
//! (`edits: [...]`) is previewed against the file as the earlier ones left it.
//!
//! Judging each edit of a batched `edit_file` against the whole file costs
//! edits × file. So complete edits of one file are judged together
//! ([`super::verdict::tool_edit_run`]): one pass over the file places every
//! edit it can place exactly as the one-by-one applier would, and only the
//! rest are judged one by one. The events and files are the same either
//! way. Edits of a file under [`SMALL_FILE`] bytes are judged at the end of
//! the chunk that completes them, so each chunk leaves the states judging
//! them one by one leaves. In a larger file they wait until their text is
//! a [`LAG_RATIO`]th of the file's (or the arguments end), so the passes
//! over the file cost at most that ratio times the edits' bytes: the whole
//! call is linear in the file plus the edits, as long as each edit's old
//! text occurs once. The edit streaming after waiting edits waits with
//! them (their changes are its file).

use std::collections::HashMap;

use super::failure::Failure;
use super::json::{last_key, JsonEvent, JsonReader, Seg};
use super::verdict::{self, Verdict};
use super::{PreviewEvent, PreviewState};

/// The file of an edit, with what locating in it needs.
struct FileText {
    text: String,
    /// Byte offset of each line's start.
    starts: Vec<usize>,
    /// The text without whitespace, and the byte offset in `text` of each
    /// of its bytes (built when the exact text first stops matching).
    skel: Option<(String, Vec<u32>)>,
}

impl FileText {
    fn new(text: String) -> FileText {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        FileText {
            text,
            starts,
            skel: None,
        }
    }

    /// The 1-based line of a byte offset.
    fn line_of(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset) as u32
    }

    fn skel(&mut self) -> &(String, Vec<u32>) {
        let text = &self.text;
        self.skel.get_or_insert_with(|| {
            let mut s = String::new();
            let mut map = Vec::new();
            for (i, c) in text.char_indices() {
                if !c.is_whitespace() {
                    s.push(c);
                    map.extend(std::iter::repeat(i as u32).take(c.len_utf8()));
                }
            }
            (s, map)
        })
    }
}

/// Every start (overlapping ones too) of `piece` in `text`; none of an empty piece.
fn occurrences(text: &str, piece: &str) -> Vec<usize> {
    if piece.is_empty() {
        return Vec::new();
    }
    verdict::literal_starts(text, piece)
}

/// One `old`/`new` edit of the call.
#[derive(Default)]
struct Edit {
    /// Index in `edits`, for a batched `edit_file`.
    index: Option<usize>,
    path: Option<String>,
    /// The path was given in the edit itself (not inherited from the call).
    own_path: bool,
    /// The path's string is complete.
    path_done: bool,
    old: String,
    old_done: bool,
    /// Whether an old text was given at all (`create` gives none).
    has_old: bool,
    new: String,
    replace_all: bool,
    expected: Option<String>,
    create: bool,
    /// The file (`None` inside: no such file); `None`: not given yet.
    file: Option<Option<FileText>>,
    /// Bytes of `old` located so far (whole lines, or all once complete).
    consumed: usize,
    /// Bytes of `old` searched for a line end so far.
    scanned: usize,
    /// Bytes of the whitespace-free old text located so far.
    loose_len: usize,
    lines_done: u32,
    exact: Option<Vec<usize>>,
    loose: Option<Vec<usize>>,
    failure: Option<Failure>,
    verdict: Option<Verdict>,
    located_sent: bool,
    unmatched_sent: bool,
    /// Complete and waiting to be judged with the next edits of its file.
    deferred: bool,
    /// The line its old text was found at when it was judged together with
    /// other edits (it was never searched for line by line).
    placed_line: Option<u32>,
}

impl Edit {
    /// The edit as written, without what judging it found: what stays the
    /// open edit while the edit itself waits to be judged.
    fn as_written(&self) -> Edit {
        Edit {
            index: self.index,
            path: self.path.clone(),
            own_path: self.own_path,
            path_done: self.path_done,
            old: self.old.clone(),
            old_done: self.old_done,
            has_old: self.has_old,
            new: self.new.clone(),
            replace_all: self.replace_all,
            expected: self.expected.clone(),
            create: self.create,
            ..Edit::default()
        }
    }

    /// Takes what judging `judged` (this edit, as it was deferred) found.
    fn take_judgement(&mut self, judged: Edit) {
        self.file = judged.file;
        self.consumed = judged.consumed;
        self.scanned = judged.scanned;
        self.loose_len = judged.loose_len;
        self.lines_done = judged.lines_done;
        self.exact = judged.exact;
        self.loose = judged.loose;
        self.failure = judged.failure;
        self.verdict = judged.verdict;
        self.located_sent = judged.located_sent;
        self.unmatched_sent = judged.unmatched_sent;
        self.placed_line = judged.placed_line;
        self.deferred = false;
    }
}

/// Files smaller than this are judged at the end of each chunk: a pass
/// over them costs less than the chunk.
const SMALL_FILE: usize = 64 * 1024;

/// In a larger file, edits wait until their old and new text together are
/// this fraction of the file.
const LAG_RATIO: usize = 32;

/// The streaming preview of one tool call's edits.
///
/// ```
/// use editblocks::preview::{PreviewEvent, PreviewState, ToolCallPreview};
///
/// let mut p = ToolCallPreview::with_files("edit_file", [("a.py", "x = 1\ny = 2\nz = 3\n")]);
/// let mut events = Vec::new();
/// for delta in [r#"{"path":"a.py","old_str"#, r#"ing":"y = 2\n"#, r#"","new_string":"y = \u00e9\n"}"#] {
///     events.extend(p.feed(delta));
/// }
/// assert_eq!(events, [PreviewEvent::BlockLocated { file_path: "a.py".into(), line: 2 }]);
/// assert_eq!(p.state(), PreviewState::Located { line: 2 });
/// assert_eq!(p.content_after().as_deref(), Some("x = 1\ny = é\nz = 3\n"));
/// ```
pub struct ToolCallPreview {
    tool: String,
    reader: JsonReader,
    /// `path` / `file_path` of the call (batched edits may name their own).
    top_path: Option<String>,
    command: Option<String>,
    edit: Edit,
    /// Files as the earlier edits of this call left them, by normalised path.
    files: HashMap<String, Option<String>>,
    /// True: a path not in `files` has no file; false: ask with `wanted_file`.
    complete_map: bool,
    /// Files the host refused to read, by normalised path: the message, and
    /// whether it refused the path as leading outside the root.
    refused: HashMap<String, (String, bool)>,
    events: Vec<PreviewEvent>,
    finished: bool,
    edits_done: usize,
    /// What the reader reported and the preview has not worked through
    /// (it waits while a file is asked for).
    backlog: std::collections::VecDeque<Item>,
    /// The reader is done (complete or broken).
    input_closed: bool,
    /// Complete edits of one file (`pending_key`) waiting to be judged
    /// together, in order.
    pending: Vec<Edit>,
    pending_key: String,
    /// The old and new text of the pending edits, in bytes.
    pending_bytes: usize,
    /// `edit` is the last of `pending` as written (no edit opened since).
    edit_is_pending: bool,
    /// The pending edits are being judged.
    judging: bool,
    /// Edits placed by one-pass runs (for tests: that the runs happen).
    #[cfg(test)]
    placed_in_runs: usize,
    /// Judge every edit as it closes (for tests: the answer to compare with).
    #[cfg(test)]
    never_defer: bool,
}

enum Item {
    Json(JsonEvent),
    Broken(String),
    Done,
}

const OLD_KEYS: [&str; 3] = ["old_string", "old_str", "search"];
const NEW_KEYS: [&str; 4] = ["new_string", "new_str", "replace", "file_text"];
const PATH_KEYS: [&str; 2] = ["path", "file_path"];

fn normalize(path: &str) -> Result<String, String> {
    crate::path::normalize_path(path).map_err(|e| e.reason)
}

impl ToolCallPreview {
    /// A preview of a call to `tool`; the files are asked for with
    /// [`ToolCallPreview::wanted_file`] and given with [`ToolCallPreview::provide_file`].
    pub fn new(tool: &str) -> ToolCallPreview {
        ToolCallPreview {
            tool: tool.to_string(),
            reader: JsonReader::new(),
            top_path: None,
            command: None,
            edit: Edit::default(),
            files: HashMap::new(),
            complete_map: false,
            refused: HashMap::new(),
            events: Vec::new(),
            finished: false,
            edits_done: 0,
            backlog: std::collections::VecDeque::new(),
            input_closed: false,
            pending: Vec::new(),
            pending_key: String::new(),
            pending_bytes: 0,
            edit_is_pending: false,
            judging: false,
            #[cfg(test)]
            placed_in_runs: 0,
            #[cfg(test)]
            never_defer: false,
        }
    }

    /// A preview over these files (path, content); a path not named has no file.
    pub fn with_files<P: AsRef<str>, C: Into<String>>(
        tool: &str,
        files: impl IntoIterator<Item = (P, C)>,
    ) -> ToolCallPreview {
        let mut p = ToolCallPreview::new(tool);
        for (path, c) in files {
            let key = normalize(path.as_ref()).unwrap_or_else(|_| path.as_ref().to_string());
            p.files.insert(key, Some(c.into()));
        }
        p.complete_map = true;
        p
    }

    /// The normalised path of a file the preview needs and was not given.
    pub fn wanted_file(&self) -> Option<String> {
        if self.complete_map || self.edit.file.is_some() || !self.edit.path_done {
            return None;
        }
        let path = self.edit.path.as_deref()?;
        let n = normalize(path).ok()?;
        (!self.files.contains_key(&n)).then_some(n)
    }

    /// The content of a file asked for by [`ToolCallPreview::wanted_file`]
    /// (`None`: no such file); returns the events it made true.
    pub fn provide_file(&mut self, path: &str, content: Option<&str>) -> Vec<PreviewEvent> {
        let key = normalize(path).unwrap_or_else(|_| path.to_string());
        // Under the path as asked too: whatever the caller passes back is the answer.
        for k in [path.to_string(), key] {
            self.files
                .entry(k)
                .or_insert_with(|| content.map(String::from));
        }
        self.attach();
        self.pump();
        self.take_events()
    }

    /// A file asked for by [`ToolCallPreview::wanted_file`] that the host
    /// refused to read (`escape`: as leading outside the root, such as a
    /// symbolic link out of it); returns the events it made true.
    pub fn provide_refused(
        &mut self,
        path: &str,
        message: &str,
        escape: bool,
    ) -> Vec<PreviewEvent> {
        let key = normalize(path).unwrap_or_else(|_| path.to_string());
        self.refused
            .entry(key)
            .or_insert_with(|| (message.to_string(), escape));
        self.provide_file(path, None)
    }

    /// A chunk of the arguments' JSON; returns the events it made true.
    pub fn feed(&mut self, chunk: &str) -> Vec<PreviewEvent> {
        if self.input_closed {
            return self.take_events();
        }
        let events = self.reader.feed(chunk);
        self.backlog.extend(events.into_iter().map(Item::Json));
        if let Some(why) = self.reader.broken().map(String::from) {
            self.backlog.push_back(Item::Broken(format!(
                "The arguments are not valid JSON: {why}."
            )));
            self.input_closed = true;
        } else if self.reader.done() {
            self.backlog.push_back(Item::Done);
            self.input_closed = true;
        }
        self.pump();
        self.take_events()
    }

    /// The arguments ended (the call's last delta came). A file still not
    /// given is taken as missing.
    pub fn finish(&mut self) -> Vec<PreviewEvent> {
        if !self.input_closed {
            let events = self.reader.finish();
            self.backlog.extend(events.into_iter().map(Item::Json));
            let item = if let Some(why) = self.reader.broken() {
                Item::Broken(format!("The arguments are not valid JSON: {why}."))
            } else if self.reader.done() {
                Item::Done
            } else {
                Item::Broken(
                    "The arguments ended before their JSON was complete; send the whole call again."
                        .into(),
                )
            };
            self.backlog.push_back(item);
            self.input_closed = true;
        }
        self.pump();
        while let Some(path) = self.wanted_file() {
            self.files.insert(path, None);
            self.attach();
            self.pump();
        }
        self.take_events()
    }

    /// Works through what the reader reported, in order, as far as the
    /// files at hand allow: while the open edit's file is asked for, the
    /// rest waits, so results never depend on when a file arrives.
    fn pump(&mut self) {
        while self.wanted_file().is_none() {
            let Some(item) = self.backlog.pop_front() else {
                break;
            };
            match item {
                Item::Json(e) => self.on_json(e),
                Item::Broken(reason) => self.malformed(reason),
                Item::Done => {
                    self.finish_edit();
                    self.finished = true;
                }
            }
        }
        if self.input_closed || self.pending_due() {
            self.judge_pending();
        }
        if self.wanted_file().is_none() {
            if self.edit.path_done {
                // Its path came while earlier edits waited.
                self.attach();
            }
            self.advance();
        }
    }

    fn malformed(&mut self, reason: String) {
        self.judge_pending();
        self.advance();
        if self.edit.failure.is_none() && self.edit.verdict.is_none() {
            self.fail(Failure::of("malformed", reason));
        }
        self.finished = true;
    }

    pub fn take_events(&mut self) -> Vec<PreviewEvent> {
        std::mem::take(&mut self.events)
    }

    /// The path of the edit being previewed, as written.
    pub fn file_path(&self) -> Option<&str> {
        self.edit.path.as_deref()
    }

    /// Which edit of a batched call is being previewed (0-based).
    pub fn edit_index(&self) -> Option<usize> {
        self.edit.index
    }

    /// How many edits of the call are complete.
    pub fn edits_done(&self) -> usize {
        self.edits_done
    }

    fn on_json(&mut self, e: JsonEvent) {
        match e {
            JsonEvent::Open { path, array: false } if is_edit_item(&path) => {
                // A new edit of `edits`: the one before is complete.
                if self.edit.index.is_some() || self.edit.has_old || self.edit.create {
                    self.finish_edit();
                }
                let index = match path.last() {
                    Some(Seg::Index(i)) => Some(*i),
                    _ => None,
                };
                self.edit = Edit {
                    index,
                    path_done: self.top_path.is_some(),
                    path: self.top_path.clone(),
                    ..Edit::default()
                };
                self.edit_is_pending = false;
            }
            JsonEvent::Close { path } if is_edit_item(&path) => self.finish_edit(),
            JsonEvent::Text { path, text } => {
                let Some(key) = edit_key(&path) else { return };
                if OLD_KEYS.contains(&key) {
                    if !self.edit.old_done {
                        self.edit.has_old = true;
                        self.edit.old.push_str(&text);
                    }
                } else if NEW_KEYS.contains(&key) {
                    self.edit.new.push_str(&text);
                    if key == "file_text" {
                        self.edit.create = true;
                    }
                } else if PATH_KEYS.contains(&key) || key == "command" {
                    // Short values: gathered until the string ends.
                    if key != "command" && path.len() == 3 && !self.edit.own_path {
                        // An edit's own path, not the call's.
                        self.edit.own_path = true;
                        self.edit.path = None;
                        self.edit.path_done = false;
                        self.edit.file = None;
                    }
                    let slot = if key == "command" {
                        self.command.get_or_insert_with(String::new)
                    } else {
                        self.edit.path.get_or_insert_with(String::new)
                    };
                    if slot.len() < 4096 {
                        slot.push_str(&text);
                    }
                }
            }
            JsonEvent::StringEnd { path } => {
                let Some(key) = edit_key(&path) else { return };
                if OLD_KEYS.contains(&key) {
                    self.edit.has_old = true;
                    self.edit.old_done = true;
                } else if key == "file_text" {
                    self.edit.create = true;
                } else if PATH_KEYS.contains(&key) {
                    let p = self.edit.path.clone().unwrap_or_default();
                    if path.len() == 1 {
                        self.top_path = Some(p);
                    }
                    self.edit.path_done = true;
                    self.attach();
                }
                self.advance();
            }
            JsonEvent::Scalar { path, text } => match edit_key(&path) {
                Some("replace_all") => self.edit.replace_all = text == "true",
                Some("expected_replacements") => self.edit.expected = Some(text),
                _ => {}
            },
            _ => {}
        }
    }

    /// Gives the open edit its file once its path is known and the file at hand.
    fn attach(&mut self) {
        if self.edit.file.is_some() || self.edit.verdict.is_some() || self.waits() {
            return;
        }
        let Some(path) = self.edit.path.clone() else {
            return;
        };
        let key = match normalize(&path) {
            Ok(k) => k,
            Err(reason) => {
                self.edit.file = Some(None);
                self.fail(Failure::path_escape(reason));
                return;
            }
        };
        let content = match self.files.get(&key) {
            Some(c) => c.clone(),
            None if self.complete_map => None,
            None => return, // asked for with wanted_file
        };
        self.edit.file = Some(content.map(FileText::new));
    }

    /// Locates the complete lines of the old text not located yet.
    fn advance(&mut self) {
        if self.edit.failure.is_some() || self.edit.verdict.is_some() || self.waits() {
            return;
        }
        let Some(file) = self.edit.file.as_ref() else {
            return;
        };
        let path = self.edit.path.clone().unwrap_or_default();
        let refused = normalize(&path).ok().and_then(|k| self.refused.get(&k));
        if let Some((message, escape)) = refused {
            // The applier reads the same refusal: its verdict, once the old
            // text has started (an empty one is refused first).
            if self.edit.create || (self.edit.has_old && !self.edit.old.is_empty()) {
                let v = verdict::tool_edit_refused(
                    &self.tool_name(),
                    self.arguments(),
                    &path,
                    message,
                    *escape,
                );
                self.fail(Failure::of(&v.kind, v.reason));
            }
            return;
        }
        if self.edit.create {
            return;
        }
        if file.is_none() {
            if self.edit.has_old && !(self.edit.old_done && self.edit.old.is_empty()) {
                // The tool applier's own refusal of the missing file, in its tool's voice.
                let path = self.edit.path.clone().unwrap_or_default();
                let v = verdict::tool_edit(&self.tool_name(), self.arguments(), &path, None);
                let reason = if v.kind == "file-not-found" {
                    v.reason
                } else {
                    format!(
                        "File not found: {path}. Check the path against the files you were shown."
                    )
                };
                self.fail(Failure::of("file-not-found", reason));
            }
            return;
        }
        loop {
            // Only text not looked at yet is searched for the next line end
            // (a long line fed in small chunks is scanned once, not per chunk).
            let from = self.edit.scanned.max(self.edit.consumed);
            let rest = self.edit.old.get(from..).unwrap_or("");
            let end = match rest.find('\n') {
                Some(nl) => from + nl + 1,
                None if self.edit.old_done && self.edit.consumed < self.edit.old.len() => {
                    self.edit.old.len()
                }
                None => {
                    self.edit.scanned = self.edit.old.len();
                    break;
                }
            };
            self.narrow(end);
            if self.edit.failure.is_some() {
                break;
            }
        }
    }

    /// Narrows the candidates to the old text up to byte `end` (the next line).
    fn narrow(&mut self, end: usize) {
        let e = &mut self.edit;
        let Some(Some(file)) = e.file.as_mut() else {
            return;
        };
        let piece = e.old.get(e.consumed..end).unwrap_or("").to_string();
        let done = e.consumed;
        e.exact = Some(match e.exact.take() {
            None => occurrences(&file.text, &piece),
            Some(mut c) => {
                c.retain(|&s| {
                    file.text
                        .get(s + done..)
                        .is_some_and(|t| t.starts_with(piece.as_str()))
                });
                c
            }
        });
        e.consumed = end;
        e.lines_done += 1;
        let exact_empty = e.exact.as_ref().map_or(true, Vec::is_empty);
        if exact_empty {
            // The whitespace-free text: from scratch the first time, then line by line.
            let (skel, _) = file.skel();
            match e.loose.take() {
                None => {
                    let whole = verdict::squeeze(e.old.get(..end).unwrap_or(""));
                    e.loose_len = whole.len();
                    e.loose = (!whole.is_empty()).then(|| occurrences(skel, &whole));
                }
                Some(mut c) => {
                    let add = verdict::squeeze(&piece);
                    let at = e.loose_len;
                    c.retain(|&s| {
                        skel.get(s + at..)
                            .is_some_and(|t| t.starts_with(add.as_str()))
                    });
                    e.loose_len += add.len();
                    e.loose = Some(c);
                }
            }
        }
        let found = self.candidates();
        let since = self.edit.lines_done;
        match found.as_slice() {
            [] if !exact_empty || self.edit.loose.is_some() => {
                let path = self.edit.path.clone().unwrap_or_default();
                self.fail(Failure::since(since, "old-mismatch", format!(
                        "The old text does not occur in {path} from its line {since} on (not even with its whitespace ignored). Copy it from the file as it is now."
                    )));
            }
            [line] if !self.edit.located_sent => {
                self.edit.located_sent = true;
                let path = self.edit.path.clone().unwrap_or_default();
                self.events.push(PreviewEvent::BlockLocated {
                    file_path: path,
                    line: *line,
                });
            }
            _ => {}
        }
    }

    /// The 1-based file lines of the candidate places (exact, else whitespace-free).
    fn candidates(&self) -> Vec<u32> {
        let Some(Some(file)) = self.edit.file.as_ref() else {
            return Vec::new();
        };
        match (&self.edit.exact, &self.edit.loose) {
            (Some(c), _) if !c.is_empty() => c.iter().map(|&s| file.line_of(s)).collect(),
            (_, Some(c)) => {
                let map = file.skel.as_ref().map(|(_, m)| m.as_slice()).unwrap_or(&[]);
                c.iter()
                    .map(|&s| file.line_of(map.get(s).copied().unwrap_or(0) as usize))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn fail(&mut self, f: Failure) {
        if !self.edit.unmatched_sent {
            self.edit.unmatched_sent = true;
            self.events
                .push(f.event(self.edit.path.as_deref().unwrap_or_default()));
        }
        self.edit.failure = Some(f);
    }

    /// The open edit is complete: the applier decides its final state.
    fn finish_edit(&mut self) {
        if self.edit.verdict.is_some()
            || self.edit.deferred
            || !(self.edit.has_old || self.edit.create)
        {
            return;
        }
        self.edit.old_done = true;
        if self.defer() {
            return;
        }
        // Edits before this one are judged first: its file is as they leave it.
        self.judge_pending();
        self.attach();
        if self.edit.file.is_none() && !self.complete_map {
            // The host never answered: judge against no file only if asked by path.
            self.edit.file = Some(None);
        }
        self.advance();
        let path = self.edit.path.clone().unwrap_or_default();
        if self
            .edit
            .failure
            .as_ref()
            .is_some_and(Failure::is_path_escape)
        {
            self.edits_done += 1;
            return;
        }
        let key = normalize(&path).unwrap_or_else(|_| path.clone());
        let (tool, arguments) = (self.tool_name(), self.arguments());
        // The file is lent to the applier, not copied for it.
        let content = self.files.get(&key).and_then(Option::as_deref);
        let v = verdict::tool_edit(&tool, arguments, &path, content);
        if v.applied {
            if !self.edit.located_sent && !self.edit.create {
                self.edit.located_sent = true;
                if let Some(line) = v.line {
                    self.events.push(PreviewEvent::BlockLocated {
                        file_path: path.clone(),
                        line,
                    });
                }
            }
            self.files.insert(key, v.after.clone());
        } else {
            let lines = if v.kind == "ambiguous" {
                self.candidates()
            } else {
                Vec::new()
            };
            let since = self.edit.failure.as_ref().map_or(0, |f| f.since);
            let f = Failure {
                lines,
                ..Failure::since(since, &v.kind, v.reason.clone())
            };
            self.fail(f);
        }
        self.edit.verdict = Some(v);
        self.edits_done += 1;
    }

    /// Whether the open edit waits for complete edits before it to be
    /// judged (its file is as they leave it).
    fn waits(&self) -> bool {
        !self.pending.is_empty() && !self.judging
    }

    /// Puts the completed open edit with the edits waiting to be judged
    /// together, when it is one a one-pass run may place: an `old_string`
    /// edit of a batched `edit_file` call, with nothing found against it
    /// yet, of the file the waiting edits change.
    fn defer(&mut self) -> bool {
        if self.judging || self.tool_name() != "edit_file" || self.command.is_some() {
            return false;
        }
        #[cfg(test)]
        if self.never_defer {
            return false;
        }
        let e = &self.edit;
        let plain = e.index.is_some()
            && e.has_old
            && !e.create
            && !e.replace_all
            && e.expected.is_none()
            && e.failure.is_none()
            && !e.old.is_empty()
            && e.old != e.new;
        let Some(key) = e.path.as_deref().and_then(|p| normalize(p).ok()) else {
            return false;
        };
        let file_at_hand = match self.pending.is_empty() {
            true => matches!(e.file, Some(Some(_))),
            false => key == self.pending_key,
        };
        if !plain
            || !file_at_hand
            || self.refused.contains_key(&key)
            || !matches!(self.files.get(&key), Some(Some(_)))
        {
            return false;
        }
        let mut waiting = self.edit.as_written();
        waiting.deferred = true;
        // The first one keeps the file it was searched in: until it is
        // judged, that is the file as it stands.
        let queued = std::mem::replace(&mut self.edit, waiting);
        self.pending_bytes += queued.old.len() + queued.new.len();
        self.pending.push(queued);
        self.pending_key = key;
        self.edit_is_pending = true;
        true
    }

    /// Whether the waiting edits are judged at the end of this chunk.
    fn pending_due(&self) -> bool {
        let file_len = match self.files.get(&self.pending_key) {
            Some(Some(text)) => text.len(),
            _ => 0,
        };
        file_len < SMALL_FILE || self.pending_bytes.saturating_mul(LAG_RATIO) >= file_len
    }

    /// Judges the edits waiting, in order: as many as a one-pass run places
    /// at once, each other one by one (its events as if it had been
    /// searched for line by line as it streamed). Costs a pass over the
    /// file per edit no run can place, plus one.
    fn judge_pending(&mut self) {
        if self.pending.is_empty() || self.judging {
            return;
        }
        self.judging = true;
        let mut pending = std::mem::take(&mut self.pending);
        let key = std::mem::take(&mut self.pending_key);
        self.pending_bytes = 0;
        let open = std::mem::take(&mut self.edit);
        // A run is tried again after each edit judged one by one: both cost
        // a pass over the file, so the runs at most double what the edits
        // no run can place cost, and every other edit is placed by a run.
        let mut at = 0;
        while at < pending.len() {
            if pending.len() - at >= verdict::MIN_RUN_EDITS {
                let args: Vec<serde_json::Value> =
                    pending[at..].iter().map(|e| self.arguments_of(e)).collect();
                let content = self.files.get(&key).and_then(Option::as_deref);
                if let Some((placed, after)) =
                    content.and_then(|c| verdict::tool_edit_run(c, &args))
                {
                    for (e, p) in pending[at..].iter_mut().zip(&placed) {
                        if !e.located_sent {
                            e.located_sent = true;
                            self.events.push(PreviewEvent::BlockLocated {
                                file_path: e.path.clone().unwrap_or_default(),
                                line: p.found_line,
                            });
                        }
                        e.placed_line = Some(p.found_line);
                        e.verdict = Some(Verdict {
                            applied: true,
                            kind: String::new(),
                            reason: String::new(),
                            line: Some(p.line),
                            after: None,
                        });
                        self.edits_done += 1;
                    }
                    #[cfg(test)]
                    {
                        self.placed_in_runs += placed.len();
                    }
                    at += placed.len();
                    self.files.insert(key.clone(), Some(after));
                    continue;
                }
            }
            self.edit = std::mem::take(&mut pending[at]);
            self.attach();
            self.advance();
            self.finish_edit();
            pending[at] = std::mem::take(&mut self.edit);
            at += 1;
        }
        self.edit = open;
        if self.edit_is_pending {
            self.edit_is_pending = false;
            if let Some(mut last) = pending.pop() {
                if let Some(v) = last
                    .verdict
                    .as_mut()
                    .filter(|v| v.applied && v.after.is_none())
                {
                    v.after = self.files.get(&key).cloned().flatten();
                }
                self.edit.take_judgement(last);
            }
        }
        self.judging = false;
    }

    fn tool_name(&self) -> String {
        match self.tool.as_str() {
            "str_replace_based_edit_tool"
            | "str_replace_editor"
            | "replace"
            | "edit_file"
            | "modify_file"
            | "search_replace" => self.tool.clone(),
            _ => "edit_file".to_string(),
        }
    }

    /// The edit as the applier takes it, in the tool's own spelling.
    fn arguments(&self) -> serde_json::Value {
        self.arguments_of(&self.edit)
    }

    /// `e` as the applier takes it, in the tool's own spelling.
    fn arguments_of(&self, e: &Edit) -> serde_json::Value {
        let path = e.path.clone().unwrap_or_default();
        match self.tool.as_str() {
            "str_replace_based_edit_tool" | "str_replace_editor" => {
                if e.create || self.command.as_deref() == Some("create") {
                    serde_json::json!({ "command": "create", "path": path, "file_text": e.new })
                } else {
                    serde_json::json!({ "command": "str_replace", "path": path, "old_str": e.old, "new_str": e.new })
                }
            }
            "replace" => {
                let mut v = serde_json::json!({ "file_path": path, "old_string": e.old, "new_string": e.new });
                if let Some(n) = e.expected.as_deref().and_then(|n| n.parse::<u64>().ok()) {
                    v["expected_replacements"] = n.into();
                }
                v
            }
            _ => {
                serde_json::json!({ "path": path, "old_string": e.old, "new_string": e.new, "replace_all": e.replace_all })
            }
        }
    }

    /// Where the open (or last) edit stands.
    pub fn state(&self) -> PreviewState {
        let e = &self.edit;
        if let Some(v) = e.verdict.as_ref().filter(|v| v.applied) {
            if e.create || (e.old.is_empty() && e.file.as_ref().is_some_and(Option::is_none)) {
                return PreviewState::Create;
            }
            let line = match (e.placed_line, self.candidates().as_slice()) {
                (Some(line), _) | (None, &[line]) => line,
                _ => v.line.unwrap_or(1),
            };
            return PreviewState::Located { line };
        }
        if let Some(f) = &e.failure {
            return f.state();
        }
        if e.create {
            return PreviewState::Create;
        }
        if e.exact.is_none() {
            return PreviewState::Waiting;
        }
        match self.candidates().as_slice() {
            [one] => PreviewState::Located { line: *one },
            many => PreviewState::Searching {
                count: many.len() as u32,
                lines: many.iter().take(10).copied().collect(),
            },
        }
    }

    /// The file as it would look with the new text written so far, when the
    /// old text is located at one place (or every place, with `replace_all`),
    /// or the file is created. Costs one copy of the file.
    pub fn content_after(&self) -> Option<String> {
        let e = &self.edit;
        if let Some(v) = &e.verdict {
            return v.after.clone();
        }
        if e.failure.is_some() {
            return None;
        }
        if e.create {
            return Some(e.new.clone());
        }
        let Some(Some(file)) = e.file.as_ref() else {
            return None;
        };
        let starts = e.exact.as_ref().filter(|c| !c.is_empty())?;
        if starts.len() > 1 && !e.replace_all {
            return None;
        }
        if !e.old_done {
            return Some(file.text.clone());
        }
        let len = e.old.len();
        let mut out = String::with_capacity(file.text.len() + e.new.len());
        let mut copied = 0;
        for &s in starts {
            if s < copied {
                continue; // overlapping places: the first one wins
            }
            out.push_str(file.text.get(copied..s)?);
            out.push_str(&e.new);
            copied = s + len;
        }
        out.push_str(file.text.get(copied..)?);
        Some(out)
    }
}

/// `edits[i]`: an edit of a batched `edit_file`.
fn is_edit_item(path: &[Seg]) -> bool {
    matches!(path, [Seg::Key(k), Seg::Index(_)] if k == "edits")
}

/// The argument key a string at `path` is, for the open edit: a top-level
/// key, or a key of an `edits` item.
fn edit_key(path: &[Seg]) -> Option<&str> {
    match path {
        [Seg::Key(_)] => Some(last_key(path)),
        [Seg::Key(e), Seg::Index(_), Seg::Key(_)] if e == "edits" => Some(last_key(path)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a preview shows of a call: every event, the state and file
    /// after each chunk, and how many edits were complete.
    #[derive(Debug, PartialEq)]
    struct Seen {
        events: Vec<PreviewEvent>,
        after_each: Vec<(PreviewState, Option<String>, Option<usize>)>,
        edits_done: usize,
    }

    /// `args` fed in `chunks` (byte lengths, cycled; 0: all at once), the
    /// file given up front or, with `lazy`, only when asked for.
    fn watch(file: &str, args: &str, chunks: &[usize], lazy: bool) -> (Seen, usize) {
        watch_with(file, args, chunks, lazy, false)
    }

    /// As [`watch`]; with `never_defer`, each edit judged as it closes.
    fn watch_with(
        file: &str,
        args: &str,
        chunks: &[usize],
        lazy: bool,
        never_defer: bool,
    ) -> (Seen, usize) {
        let mut p = if lazy {
            ToolCallPreview::new("edit_file")
        } else {
            ToolCallPreview::with_files("edit_file", [("f.txt", file)])
        };
        p.never_defer = never_defer;
        let mut seen = Seen {
            events: Vec::new(),
            after_each: Vec::new(),
            edits_done: 0,
        };
        let mut rest = args;
        let mut sizes = chunks.iter().cycle();
        while !rest.is_empty() {
            let mut cut = match sizes.next() {
                Some(&n) if n > 0 => n.min(rest.len()),
                _ => rest.len(),
            };
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            seen.events.extend(p.feed(&rest[..cut]));
            rest = &rest[cut..];
            while let (true, Some(want)) = (lazy, p.wanted_file()) {
                let content = (want == "f.txt").then_some(file);
                seen.events.extend(p.provide_file(&want, content));
            }
            seen.after_each
                .push((p.state(), p.content_after(), p.edit_index()));
        }
        seen.events.extend(p.finish());
        seen.after_each
            .push((p.state(), p.content_after(), p.edit_index()));
        seen.edits_done = p.edits_done();
        (seen, p.placed_in_runs)
    }

    fn call(edits: &[(String, String)]) -> String {
        let items: Vec<serde_json::Value> = edits
            .iter()
            .map(|(old, new)| serde_json::json!({ "path": "f.txt", "old_string": old, "new_string": new }))
            .collect();
        serde_json::json!({ "edits": items }).to_string()
    }

    /// Numbered lines, some repeated; edits of single lines (some changed
    /// by an earlier edit, repeated, missing, at the end of the file, or
    /// deleted), one of them sometimes spanning two lines.
    fn batch() -> impl Strategy<Value = (String, Vec<(String, String)>)> {
        (
            prop::collection::vec(0u8..12, 12..60),
            prop::bool::ANY,
            prop::collection::vec((0usize..80, 0u8..10), 8..40),
        )
            .prop_map(|(kinds, final_lf, picks)| {
                let lines: Vec<String> = kinds
                    .iter()
                    .enumerate()
                    .map(|(i, k)| match k {
                        0 => "}".to_string(),
                        1 => "    x = 1;".to_string(),
                        _ => format!("let value_{i} = compute({i});"),
                    })
                    .collect();
                let mut file = lines.join("\n");
                if final_lf {
                    file.push('\n');
                }
                let edits = picks
                    .iter()
                    .map(|&(at, how)| {
                        let line = &lines[at % lines.len()];
                        let next = &lines[(at + 1) % lines.len()];
                        match how {
                            0 => (format!("{line}\n"), String::new()),
                            1 => (line.clone(), format!("{line} // changed")),
                            2 => (format!("{line} // changed"), format!("{line} // again")),
                            3 => (format!("{line}\n{next}"), format!("{next}\n{line}")),
                            4 => ("missing text".to_string(), "x".to_string()),
                            5 => (line.clone(), format!("{line}\n{line}")),
                            6 => (format!("{line}\n"), format!("{line}\n\n")),
                            _ => (line.clone(), line.replace("value", "renamed")),
                        }
                    })
                    .collect();
                (file, edits)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Edits judged together when they arrive in one chunk show exactly
        /// what judging each as it closes shows.
        #[test]
        fn edits_judged_together_show_what_one_by_one_shows(
            (file, edits) in batch(),
            chunks in prop::collection::vec(1usize..24, 1..8),
            lazy in prop::bool::ANY,
        ) {
            let args = call(&edits);
            let (one_by_one, placed) = watch_with(&file, &args, &[1], false, true);
            prop_assert_eq!(placed, 0);
            let (together, _) = watch(&file, &args, &[0], lazy);
            prop_assert_eq!(&together.events, &one_by_one.events);
            prop_assert_eq!(together.edits_done, one_by_one.edits_done);
            prop_assert_eq!(together.after_each.last(), one_by_one.after_each.last());
            let (chunked, _) = watch(&file, &args, &chunks, lazy);
            prop_assert_eq!(&chunked.events, &one_by_one.events);
            prop_assert_eq!(chunked.after_each.last(), one_by_one.after_each.last());
            // Chunk by chunk, the same states and files as judging each edit as it closes.
            let (reference, _) = watch_with(&file, &args, &chunks, lazy, true);
            prop_assert_eq!(&chunked, &reference);
        }
    }

    #[test]
    fn edits_of_a_large_file_wait_and_are_placed_together() {
        let file: String = (0..2400)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        assert!(file.len() > SMALL_FILE);
        let mut edits: Vec<(String, String)> = (0..100)
            .map(|i| {
                (
                    format!("value_{} = compute(", i * 23),
                    format!("value_{} = compute2(", i * 23),
                )
            })
            .collect();
        // Ones the pass cannot decide (eleven places), each followed by a
        // few it can: more than one wait's worth of runs.
        for at in (3..100).step_by(3).rev() {
            edits.insert(at, ("compute(99".into(), "compute(ninety-nine".into()));
        }
        let args = call(&edits);
        let (reference, _) = watch_with(&file, &args, &[61], false, true);
        let (streamed, placed) = watch(&file, &args, &[61], false);
        // Every edit but the undecidable ones, and the few after the last run
        // of each wait that are too few for a run.
        assert!(placed >= 80, "{placed} placed in runs");
        assert_eq!(streamed.events, reference.events);
        assert_eq!(streamed.edits_done, reference.edits_done);
        assert_eq!(streamed.after_each.last(), reference.after_each.last());
        let after = streamed.after_each.last().unwrap().1.clone().unwrap();
        assert_eq!(after.matches("compute2(").count(), 100);
    }

    #[test]
    fn a_batch_in_one_chunk_is_placed_in_one_pass() {
        let file: String = (0..100)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        let edits: Vec<(String, String)> = (0..40)
            .map(|i| {
                (
                    format!("value_{} = compute(", i * 2),
                    format!("value_{} = compute2(", i * 2),
                )
            })
            .collect();
        let args = call(&edits);
        let (together, placed) = watch(&file, &args, &[0], false);
        assert_eq!(placed, 40);
        let (one_by_one, _) = watch_with(&file, &args, &[7], false, true);
        assert_eq!(
            together,
            Seen {
                after_each: together.after_each.clone(),
                ..one_by_one
            }
        );
        let after = together.after_each.last().unwrap().1.clone().unwrap();
        assert_eq!(after.matches("compute2(").count(), 40);
        assert_eq!(together.events.len(), 40);
        assert_eq!(
            together.events[39],
            PreviewEvent::BlockLocated {
                file_path: "f.txt".into(),
                line: 79
            }
        );
        assert_eq!(
            together.after_each.last().unwrap().0,
            PreviewState::Located { line: 79 }
        );
    }
}
