//! The live preview of a patch operation while it streams: one file
//! operation of an `apply-patch` envelope (`*** Update File:` …) or one
//! file of a unified diff, fed the body lines as the parser reports them
//! (`section: patch`: lines with their ` `, `-`, `+` or `@@` prefix).
//!
//! The open section (hunk) is located as the applier locates it
//! ([`crate::locate`]'s passes, through [`super::verdict`]): after the end
//! of the section before it (a unified hunk may start in the previous
//! hunk's trailing context, by the applier's own rule), after each `@@
//! context` line of an `apply-patch` section, with the unified diff's
//! stated line and the `*** End of File` marker breaking ties when the
//! section ends. Its first old line is found with one scan per pass; every
//! later old line only checks each candidate's next file line, so an update
//! costs the new lines times the candidates. The decisive pass is the first one with any
//! candidate, as in the applier; `searching` lists its candidates.
//!
//! An `apply-patch` body loses its blank lines in the parser's updates
//! (the grammar reads a blank line as a context line only once a body line
//! follows), so while streaming, blank file lines may be skipped between
//! two old lines of an `apply-patch` section. Once the operation is
//! complete its final state is the applier's own verdict on the whole
//! operation ([`super::verdict::patch_block`]).
//!
//! The operation is read from the body: a diff of a missing file, or an
//! `apply-patch` body of `+` lines for a missing file, creates it
//! (`create`: the applier creates a missing file whose diff only adds
//! lines; the `---` header, which would tell a `/dev/null` diff, is not
//! seen here, so only an old line under a hunk that states old lines,
//! `-1,3`, refuses it while streaming); a hunk `+0,0` deletes it
//! (`delete`); a `*** Delete File:` has no body and shows as `delete` once
//! complete. [`PatchPreview::set_operation`] tells it outright.

use super::failure::Failure;
use super::verdict::{self, Pass, Verdict};
use super::{PreviewEvent, PreviewState};
use crate::block::{EditBlock, Format};
use crate::patch::Operation;
use crate::render::Theme;
use crate::text::TextFile;

/// A place a section may start: its first file line and the next file line to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cand {
    start: usize,
    next: usize,
}

/// The open section (hunk).
#[derive(Debug, Default)]
struct Open {
    anchors: u32,
    /// Where the section may start (after the previous one and its `@@` lines).
    from: usize,
    /// The body lines as written (with their prefix).
    body: Vec<String>,
    old_count: u32,
    /// Candidates per pass (in the applier's pass order); empty until the first old line.
    cands: Vec<(Pass, Vec<Cand>)>,
    /// `apply-patch`: candidates (per pass, at most one) whose old lines so far
    /// reach the end of the file and go on with blank context lines only. The
    /// applier reads such lines as the final newline when nothing matches as
    /// written, so they count only while `cands` is empty.
    past_end: Vec<(Pass, Cand)>,
    /// unified: the `@@ -os,oc +ns,nc @@` numbers.
    numbers: Option<(u32, u32, u32, u32)>,
    end_of_file: bool,
}

impl Open {
    /// The candidates that decide where the section goes: the first pass with
    /// any, else the place whose blank context lines run past the end.
    fn decisive(&self) -> Option<(Pass, &[Cand])> {
        self.cands
            .iter()
            .find(|(_, c)| !c.is_empty())
            .map(|(p, c)| (*p, c.as_slice()))
            .or_else(|| {
                self.past_end
                    .first()
                    .map(|(p, c)| (*p, std::slice::from_ref(c)))
            })
    }
}

/// A located section: where it starts and its body.
#[derive(Debug, Clone)]
struct Placed {
    start: usize,
    pass: Pass,
    body: Vec<String>,
}

/// The streaming preview of one patch operation against its file.
pub struct PatchPreview {
    path: String,
    format: Format,
    content: Option<String>,
    lines: Vec<String>,
    binary: bool,
    operation: Option<Operation>,
    /// The caller named the operation ([`PatchPreview::set_operation`]).
    told: bool,
    /// unified, on a missing file: the open hunk states old lines (`-1,3`).
    states_old: bool,
    placed: Vec<Placed>,
    /// Where the next section may start.
    cursor: usize,
    /// unified: actual minus stated start of the last hunk.
    offset: isize,
    open: Option<Open>,
    /// Sections begun so far (the open one included).
    sections: u32,
    failure: Option<Failure>,
    verdict: Option<Verdict>,
    located_sent: bool,
    unmatched_sent: bool,
    events: Vec<PreviewEvent>,
    /// Lines received (for telling an added file from an update).
    received: usize,
    /// The state and file as streamed, just before the operation completed.
    streamed: Option<(PreviewState, Option<String>)>,
    /// What the last incremental render showed.
    drawn: Option<Drawn>,
    /// The file's lines numbered per pass, once a section narrows.
    ids: Option<LineIds>,
    /// The colours the drawing asks for (a class on its root).
    theme: Theme,
}

/// The file's lines as each patch pass compares them, numbered: a file line
/// and a patch line are the same under a pass when their numbers are. Built
/// once per operation, when a section has a second old line, so that
/// narrowing a candidate costs an integer comparison, not the normalising
/// of two lines (on a repetitive file thousands of candidates survive each
/// line, in every pass).
struct LineIds {
    /// A normalised text and its number.
    numbers: std::collections::HashMap<String, u32>,
    /// Per pass, the numbers of the file's lines.
    per_pass: Vec<(Pass, Vec<u32>)>,
    /// Whether a file line is blank (whitespace only).
    blank: Vec<bool>,
    /// Per pass (as `per_pass`), the file's line indexes grouped by number,
    /// ascending within a group: where a section's first old line may be
    /// is looked up, not scanned for from its start on.
    at: Vec<Positions>,
}

/// Line indexes grouped by number: those of number `k` are
/// `lines[first[k]..first[k + 1]]`, ascending.
struct Positions {
    first: Vec<u32>,
    lines: Vec<u32>,
}

impl Positions {
    fn new(ids: &[u32], numbers: usize) -> Positions {
        let mut first = vec![0u32; numbers + 1];
        for &id in ids {
            first[id as usize + 1] += 1;
        }
        for k in 1..first.len() {
            first[k] += first[k - 1];
        }
        let mut next = first.clone();
        let mut lines = vec![0u32; ids.len()];
        for (i, &id) in ids.iter().enumerate() {
            lines[next[id as usize] as usize] = i as u32;
            next[id as usize] += 1;
        }
        Positions { first, lines }
    }

    /// The lines of number `id` at or after `from`, ascending.
    fn of(&self, id: u32, from: usize) -> &[u32] {
        let k = id as usize;
        let (Some(&a), Some(&b)) = (self.first.get(k), self.first.get(k + 1)) else {
            return &[];
        };
        let group = &self.lines[a as usize..b as usize];
        &group[group.partition_point(|&l| (l as usize) < from)..]
    }
}

impl LineIds {
    fn new(lines: &[String]) -> LineIds {
        let mut numbers = std::collections::HashMap::new();
        let per_pass: Vec<(Pass, Vec<u32>)> = verdict::patch_passes()
            .iter()
            .map(|&pass| {
                let ids = lines
                    .iter()
                    .map(|l| {
                        let next = numbers.len() as u32;
                        *numbers
                            .entry(pass.normalize(l).into_owned())
                            .or_insert(next)
                    })
                    .collect();
                (pass, ids)
            })
            .collect();
        let blank = lines.iter().map(|l| l.trim().is_empty()).collect();
        let count = numbers.len();
        let at = per_pass
            .iter()
            .map(|(_, ids)| Positions::new(ids, count))
            .collect();
        LineIds {
            numbers,
            per_pass,
            blank,
            at,
        }
    }

    /// The file lines at or after `from` that equal `text` under `pass`, ascending.
    fn starts(&self, pass: Pass, text: &str, from: usize) -> &[u32] {
        let want = self.of(pass, text);
        self.per_pass
            .iter()
            .position(|(p, _)| *p == pass)
            .and_then(|k| self.at.get(k))
            .map_or(&[], |at| at.of(want, from))
    }

    /// The number of `text` under `pass`; `u32::MAX` (no file line's) when no file line has it.
    fn of(&self, pass: Pass, text: &str) -> u32 {
        self.numbers
            .get(pass.normalize(text).as_ref())
            .copied()
            .unwrap_or(u32::MAX)
    }

    /// The numbers of the file's lines under `pass`.
    fn file(&self, pass: Pass) -> &[u32] {
        self.per_pass
            .iter()
            .find(|(p, _)| *p == pass)
            .map_or(&[], |(_, ids)| ids.as_slice())
    }
}

impl PatchPreview {
    /// A preview of an operation of `format` (`apply-patch` or
    /// `unified-diff`) on `path`, whose file holds `content` (`None`: no such file).
    pub fn new(path: &str, format: Format, content: Option<&str>) -> PatchPreview {
        let (binary, lines) = super::file_lines(content);
        PatchPreview {
            path: path.to_string(),
            format,
            content: content.map(String::from),
            lines,
            binary,
            operation: None,
            told: false,
            states_old: false,
            placed: Vec::new(),
            cursor: 0,
            offset: 0,
            open: None,
            sections: 0,
            failure: None,
            verdict: None,
            located_sent: false,
            unmatched_sent: false,
            events: Vec::new(),
            received: 0,
            streamed: None,
            drawn: None,
            ids: None,
            theme: Theme::Auto,
        }
    }

    /// A preview of a path that was refused (it leaves the root): unmatched at once.
    pub fn refused(path: &str, format: Format, reason: String) -> PatchPreview {
        let mut p = PatchPreview::new(path, format, None);
        p.fail(Failure::path_escape(reason));
        p
    }

    pub fn file_path(&self) -> &str {
        &self.path
    }

    /// The operation, when the caller knows it from the header.
    pub fn set_operation(&mut self, op: Operation) {
        self.operation = Some(op);
        self.told = true;
        if op == Operation::Add && self.content.is_some() {
            let name = verdict::operation_name(self.format, op, &self.path);
            let reason = verdict::add_exists_reason(&name, &self.path);
            self.fail(Failure::of("file-exists", reason));
        }
    }

    /// The 1-based number of the open (or last) section; 0 before the first.
    pub fn section(&self) -> u32 {
        self.sections
    }

    pub fn take_events(&mut self) -> Vec<PreviewEvent> {
        std::mem::take(&mut self.events)
    }

    fn fail(&mut self, f: Failure) {
        if self.failure.is_some() {
            return;
        }
        if !self.unmatched_sent {
            self.unmatched_sent = true;
            self.events.push(f.event(&self.path));
        }
        self.failure = Some(f);
    }

    fn which(&self) -> String {
        let unit = if self.format == Format::UnifiedDiff {
            "hunk"
        } else {
            "section"
        };
        format!(
            "The patch of {}, {unit} {}",
            self.path,
            self.sections.max(1)
        )
    }

    /// Body lines of the operation (a `block-update` of section `patch`).
    pub fn push<S: AsRef<str>>(&mut self, lines: &[S]) {
        for line in lines {
            self.received += 1;
            if self.failure.is_some() || self.verdict.is_some() {
                continue;
            }
            self.line(line.as_ref());
        }
    }

    fn line(&mut self, line: &str) {
        if self.operation.is_none() {
            self.infer(line);
        }
        match self.operation {
            Some(Operation::Add) => {
                if self.content.is_some() {
                    self.set_operation(Operation::Add);
                    return;
                }
                if self.format == Format::UnifiedDiff && line.starts_with("@@") {
                    self.sections += 1;
                    self.states_old =
                        verdict::hunk_numbers(line).is_some_and(|(_, old_count, ..)| old_count > 0);
                    return;
                }
                if self.format == Format::UnifiedDiff
                    && !self.told
                    && self.states_old
                    && !line.starts_with('+')
                {
                    // A diff updating a missing file: an old line it states
                    // can be found nowhere. (Under `-0,0` or `@@ ... @@` an
                    // old line may be a new file's blank line that lost its
                    // `+`, kept by a `--- /dev/null` diff: the header, which
                    // the preview does not see, decides.)
                    let name = verdict::operation_name(self.format, Operation::Update, &self.path);
                    let reason = verdict::missing_reason(&name, &self.path, Operation::Update);
                    self.fail(Failure::of("file-not-found", reason));
                    return;
                }
                let o = self.open.get_or_insert_with(Open::default);
                o.body.push(line.to_string());
                return;
            }
            Some(Operation::Delete) | Some(Operation::Update) | None => {}
        }
        if self.content.is_none() || self.binary {
            let (kind, reason) = if self.binary {
                ("binary", verdict::binary_reason(&self.path))
            } else {
                let op = self.operation.unwrap_or(Operation::Update);
                let name = verdict::operation_name(self.format, op, &self.path);
                let reason = verdict::missing_reason(&name, &self.path, op);
                ("file-not-found", reason)
            };
            self.fail(Failure::of(kind, reason));
            return;
        }
        if let Some(rest) = line.strip_prefix("@@") {
            let numbers = verdict::hunk_numbers(line);
            let starts_new = match self.open.as_ref() {
                None => true,
                Some(o) => {
                    self.format == Format::UnifiedDiff || !o.body.is_empty() || o.end_of_file
                }
            };
            if starts_new {
                self.close_section();
                if self.failure.is_some() {
                    return;
                }
                self.sections += 1;
                self.open = Some(Open {
                    from: self.cursor,
                    numbers,
                    ..Open::default()
                });
            }
            if self.format == Format::ApplyPatch {
                let a = rest.strip_prefix(' ').unwrap_or(rest);
                if !a.trim().is_empty() {
                    self.anchor(a);
                }
            }
            return;
        }
        if line.trim() == "*** End of File" && self.format == Format::ApplyPatch {
            if let Some(o) = self.open.as_mut() {
                o.end_of_file = true;
            }
            return;
        }
        if self.open.is_none() {
            // Body lines with no `@@` before them: one section.
            self.sections += 1;
            self.open = Some(Open {
                from: self.cursor,
                ..Open::default()
            });
        }
        let Some(o) = self.open.as_mut() else { return };
        o.body.push(line.to_string());
        if !line.starts_with('+') {
            o.old_count += 1;
            let text = line.get(1..).unwrap_or("");
            self.narrow(text, !line.starts_with('-'));
        } else if !o.past_end.is_empty() {
            // Only blank context lines may follow the end of the file.
            o.past_end.clear();
            if o.cands.iter().all(|(_, c)| c.is_empty()) {
                let since = o.old_count;
                let reason = format!(
                    "{}: its old lines end at the end of {} before its `+` line `{}`. Copy the context and `-` lines from the file as it is now.",
                    self.which(),
                    self.path,
                    line.chars().skip(1).take(80).collect::<String>()
                );
                self.fail(Failure::since(since, "old-mismatch", reason));
            }
        }
    }

    /// Reads the operation from the first body line, when the caller did not say.
    fn infer(&mut self, line: &str) {
        let op = match self.format {
            Format::UnifiedDiff => match (verdict::hunk_numbers(line), self.content.is_some()) {
                (Some((0, 0, _, _)), false) => Operation::Add,
                (Some((_, _, 0, 0)), _) => Operation::Delete,
                // A missing file: the applier creates it when its hunks only
                // add lines (`@@ ... @@`, `-1,0`), so it is read as a new file
                // until an old line says otherwise.
                (_, false) => Operation::Add,
                _ => Operation::Update,
            },
            _ if line.starts_with('+') && self.content.is_none() && self.received == 1 => {
                Operation::Add
            }
            _ => Operation::Update,
        };
        self.operation = Some(op);
    }

    /// An `@@ context` line of an `apply-patch` section narrows where it may start.
    fn anchor(&mut self, anchor: &str) {
        let Some(from) = self.open.as_ref().map(|o| o.from) else {
            return;
        };
        // The first pass with any place decides, and its first place is where
        // the section may start (one place or several), as the applier reads it.
        let ids = self.ids.get_or_insert_with(|| LineIds::new(&self.lines));
        let first = verdict::patch_passes()
            .iter()
            .find_map(|&pass| ids.starts(pass, anchor, from).first().copied());
        match first {
            Some(start) => {
                if let Some(o) = self.open.as_mut() {
                    o.from = start as usize + 1;
                    o.anchors += 1;
                }
            }
            None => {
                let f =
                    verdict::anchor_not_found(&self.which(), &self.path, &self.lines, anchor, from);
                self.fail(Failure::of(f.kind.as_str(), f.reason));
            }
        }
    }

    /// The next old line of the open section narrows its candidates.
    /// `context`: the line is a context line (not `-`).
    fn narrow(&mut self, text: &str, context: bool) {
        let gaps = self.format == Format::ApplyPatch;
        let lines = &self.lines;
        let Some(o) = self.open.as_mut() else { return };
        // A blank context line past the end of the file keeps the places that
        // reached it; anything else ends them.
        // (`apply-patch`, and a unified hunk without numbers, as the applier allows.)
        let uncounted = self.format == Format::UnifiedDiff && o.numbers.is_none();
        let blank_tail = (gaps || uncounted) && context && text.trim().is_empty();
        if !blank_tail {
            o.past_end.clear();
        }
        let ids = self.ids.get_or_insert_with(|| LineIds::new(lines));
        if o.old_count == 1 {
            o.cands = verdict::patch_passes()
                .iter()
                .map(|&pass| {
                    let c = ids
                        .starts(pass, text, o.from)
                        .iter()
                        .map(|&s| Cand {
                            start: s as usize,
                            next: s as usize + 1,
                        })
                        .collect();
                    (pass, c)
                })
                .collect();
        } else {
            let past_end = &mut o.past_end;
            for (pass, cands) in &mut o.cands {
                let pass = *pass;
                let file = ids.file(pass);
                let want = ids.of(pass, text);
                cands.retain_mut(|c| {
                    let mut at = c.next;
                    if gaps {
                        // Blank file lines the stream may have dropped.
                        while at < file.len() && ids.blank[at] && file[at] != want {
                            at += 1;
                        }
                    }
                    if file.get(at) == Some(&want) {
                        c.next = at + 1;
                        true
                    } else {
                        if blank_tail
                            && at >= lines.len()
                            && past_end.iter().all(|(p, _)| *p != pass)
                        {
                            past_end.push((pass, *c));
                        }
                        false
                    }
                });
            }
        }
        let since = o.old_count;
        let from = o.from;
        let outcome: Option<Option<usize>> = o.decisive().map(|(_, c)| match c {
            [one] => Some(one.start),
            _ => None,
        });
        match outcome {
            None => {
                let reason = format!(
                    "{}: its old lines do not occur in {}{} from its old line {since} on (`{}`). Copy the context and `-` lines from the file as it is now.",
                    self.which(),
                    self.path,
                    if from > 0 { format!(" after line {from}") } else { String::new() },
                    text.chars().take(80).collect::<String>()
                );
                self.fail(Failure::since(since, "old-mismatch", reason));
            }
            Some(Some(start)) if !self.located_sent => {
                self.located_sent = true;
                self.events.push(PreviewEvent::BlockLocated {
                    file_path: self.path.clone(),
                    line: (start + 1) as u32,
                });
            }
            _ => {}
        }
    }

    /// The open section ended: pick its place as the applier would.
    fn close_section(&mut self) {
        let Some(o) = self.open.take() else { return };
        if self.failure.is_some() {
            return;
        }
        let which = self.which();
        let len = self.lines.len();
        let old_start = o.numbers.map(|(os, ..)| os);
        if o.old_count == 0 {
            let at = match verdict::place_without_context(
                &which,
                &self.path,
                self.format,
                (o.anchors > 0).then_some(o.from),
                old_start,
                (self.offset, self.cursor, len),
            ) {
                Ok(at) => at,
                Err((kind, reason)) => {
                    self.fail(Failure::of(kind.as_str(), reason));
                    return;
                }
            };
            if let (Format::UnifiedDiff, Some(os)) = (self.format, old_start) {
                self.offset = verdict::hunk_offset(at, os, false);
            }
            self.cursor = at;
            self.placed.push(Placed {
                start: at,
                pass: Pass::Exact,
                body: o.body,
            });
            return;
        }
        let Some((pass, cands)) = o.decisive() else {
            return;
        };
        let pass = &pass;
        let chosen = match cands {
            [one] => Some(*one),
            many => {
                let prefer = verdict::section_prefer(
                    &self.lines,
                    o.end_of_file,
                    o.anchors > 0,
                    o.from,
                    old_start,
                    self.offset,
                );
                let pick: Vec<Cand> = many
                    .iter()
                    .copied()
                    .filter(|c| prefer.accepts(c.start, c.next, len))
                    .collect();
                match pick.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                }
            }
        };
        let Some(c) = chosen else {
            let starts: Vec<usize> = cands.iter().map(|c| c.start).collect();
            let f = verdict::ambiguous_section(&which, &self.path, &starts, *pass, self.format);
            self.fail(Failure {
                lines: starts.iter().map(|s| (s + 1) as u32).collect(),
                ..Failure::of(f.kind.as_str(), f.reason)
            });
            return;
        };
        if !self.located_sent {
            self.located_sent = true;
            self.events.push(PreviewEvent::BlockLocated {
                file_path: self.path.clone(),
                line: (c.start + 1) as u32,
            });
        }
        if let Some((os, ..)) = o.numbers {
            self.offset = verdict::hunk_offset(c.start, os, true);
        }
        // The next hunk may start in this one's trailing context, as the applier allows.
        let back = verdict::handed_back(self.format, o.body.iter().rev().map(String::as_str));
        self.cursor = c.next.saturating_sub(back).max(c.start).min(len);
        self.placed.push(Placed {
            start: c.start,
            pass: *pass,
            body: o.body,
        });
    }

    /// The operation is complete (`block` as the parser completed it): its
    /// final state is the applier's verdict.
    pub fn complete(&mut self, block: &EditBlock) {
        let judged =
            self.verdict.is_some() || self.failure.as_ref().is_some_and(Failure::is_path_escape);
        if !judged {
            // Before the header's operation replaces the one read from the body.
            self.streamed = Some((self.state(), self.content_after()));
        }
        if let Some(op) = block.patch.as_ref().map(|p| p.operation) {
            self.operation = Some(op);
        }
        if judged {
            return;
        }
        // The last section ends here: its place (or ambiguity) as streamed.
        if self.operation != Some(Operation::Add) && self.content.is_some() {
            self.close_section();
        }
        let v = verdict::patch_block(block, &self.path, self.content.as_deref());
        if v.applied && self.content.is_none() && self.operation == Some(Operation::Update) {
            // A diff of a missing file that only adds lines: the applier created it.
            self.operation = Some(Operation::Add);
        }
        if v.applied {
            self.failure = None;
            if !self.located_sent && self.operation == Some(Operation::Update) && v.line.is_some() {
                self.located_sent = true;
                self.events.push(PreviewEvent::BlockLocated {
                    file_path: self.path.clone(),
                    line: v.line.unwrap_or(1),
                });
            }
        } else {
            let since = self.failure.as_ref().map_or(0, |f| f.since);
            let lines = self
                .failure
                .as_ref()
                .map(|f| f.lines.clone())
                .unwrap_or_default();
            self.failure = None;
            self.fail(Failure {
                lines,
                ..Failure::since(since, &v.kind, v.reason.clone())
            });
            if let Some(f) = self.failure.as_mut() {
                f.kind = v.kind.clone();
                f.reason = v.reason.clone();
            }
        }
        self.verdict = Some(v);
    }

    /// The state and the file as the streamed lines left them, just before
    /// the operation completed (what a UI showed last).
    pub fn streamed(&self) -> Option<&(PreviewState, Option<String>)> {
        self.streamed.as_ref()
    }

    /// The file after the complete operation (`None`: deleted or refused);
    /// meaningful after [`PatchPreview::complete`].
    pub fn verdict_after(&self) -> Option<(bool, Option<String>)> {
        self.verdict.as_ref().map(|v| (v.applied, v.after.clone()))
    }

    /// Where the open section stands (or the operation, once complete).
    pub fn state(&self) -> PreviewState {
        if let Some(f) = &self.failure {
            return f.state();
        }
        match self.operation {
            Some(Operation::Add) => return PreviewState::Create,
            Some(Operation::Delete) if self.verdict.is_some() || self.received == 0 => {
                return if self.verdict.is_some() {
                    PreviewState::Delete
                } else {
                    PreviewState::Waiting
                }
            }
            None => return PreviewState::Waiting,
            _ => {}
        }
        if let Some(v) = &self.verdict {
            if self.operation == Some(Operation::Delete) {
                return PreviewState::Delete;
            }
            return PreviewState::Located {
                line: v.line.unwrap_or(1),
            };
        }
        let Some(o) = &self.open else {
            return match self.placed.last() {
                Some(p) => PreviewState::Located {
                    line: (p.start + 1) as u32,
                },
                None => PreviewState::Waiting,
            };
        };
        if o.old_count == 0 {
            return PreviewState::Waiting;
        }
        let c = o.decisive().map(|(_, c)| c).unwrap_or(&[]);
        match c {
            [one] => PreviewState::Located {
                line: (one.start + 1) as u32,
            },
            many => PreviewState::Searching {
                count: many.len() as u32,
                lines: many.iter().take(10).map(|c| (c.start + 1) as u32).collect(),
            },
        }
    }

    /// The file as it would look with the sections so far applied and the
    /// new lines of the open one written so far; `None` while the open
    /// section is not located at one place, or when the operation fails
    /// or deletes the file. Costs one pass over the file.
    pub fn content_after(&self) -> Option<String> {
        if let Some(v) = &self.verdict {
            return v.after.clone();
        }
        if self.failure.is_some() {
            return None;
        }
        match self.operation {
            Some(Operation::Add) => {
                let body = self.open.as_ref().map(|o| o.body.as_slice()).unwrap_or(&[]);
                let mut out = String::new();
                // The new side, as the applier writes a new file.
                for l in body.iter().filter(|l| !l.starts_with('-')) {
                    out.push_str(l.get(1..).unwrap_or(""));
                    out.push('\n');
                }
                return Some(out);
            }
            Some(Operation::Delete) => return None,
            _ => {}
        }
        let content = self.content.as_deref()?;
        let mut placed: Vec<Placed> = self.placed.clone();
        if let Some(o) = &self.open {
            if o.old_count > 0 {
                let c = o.decisive()?;
                let [one] = c.1 else {
                    return None;
                };
                placed.push(Placed {
                    start: one.start,
                    pass: c.0,
                    body: o.body.clone(),
                });
            }
        }
        let lines = &self.lines;
        let gaps = self.format == Format::ApplyPatch;
        let mut out: Vec<&str> = Vec::with_capacity(lines.len());
        let mut copied = 0usize;
        // A unified hunk located ignoring indentation: its new lines moved as the applier moves them.
        let moved: Vec<Option<Vec<String>>> = placed
            .iter()
            .map(|p| {
                if !verdict::needs_reindent(self.format, p.pass) {
                    return None;
                }
                let old: Vec<&str> = p
                    .body
                    .iter()
                    .filter(|l| !l.starts_with('+'))
                    .map(|l| l.get(1..).unwrap_or(""))
                    .collect();
                let new: Vec<&str> = p
                    .body
                    .iter()
                    .filter(|l| !l.starts_with('-'))
                    .map(|l| l.get(1..).unwrap_or(""))
                    .collect();
                verdict::reindented_new_side(
                    self.format,
                    p.pass,
                    &old,
                    &new,
                    &lines[p.start.min(lines.len())..],
                )
            })
            .collect();
        for (k, p) in placed.iter().enumerate() {
            let start = p.start.max(copied).min(lines.len());
            out.extend(lines[copied.min(start)..start].iter().map(String::as_str));
            let reindented = moved[k].as_ref();
            let mut new_at = 0usize;
            let mut past_end = 0usize;
            let mut at = start;
            for l in &p.body {
                let text = l.get(1..).unwrap_or("");
                if !l.starts_with('-') {
                    new_at += 1;
                }
                if l.starts_with('+') {
                    match reindented.and_then(|r| r.get(new_at - 1)) {
                        Some(moved) => out.push(moved),
                        None => out.push(text),
                    }
                    continue;
                }
                if gaps {
                    while lines
                        .get(at)
                        .is_some_and(|f| f.trim().is_empty() && !verdict::same(p.pass, f, text))
                    {
                        out.push(&lines[at]);
                        at += 1;
                    }
                }
                if at >= lines.len() && !l.starts_with('-') && text.trim().is_empty() {
                    // Blank context lines past the end: the final newline, as the applier reads them.
                    past_end += 1;
                    continue;
                }
                if !l.starts_with('-') {
                    out.push(lines.get(at).map_or(text, String::as_str));
                }
                at += 1;
            }
            // Trailing context the next hunk may start in is the next hunk's to copy.
            let back = verdict::handed_back(self.format, p.body.iter().rev().map(String::as_str))
                .saturating_sub(past_end);
            out.truncate(out.len().saturating_sub(back));
            at = at.saturating_sub(back);
            copied = at.min(lines.len());
        }
        out.extend(lines[copied.min(lines.len())..].iter().map(String::as_str));
        let text = TextFile::from_text(content);
        let final_newline = !out.is_empty() && text.has_final_newline();
        Some(text.encode_lines(&out, final_newline))
    }
}

/// Lines of context shown above and below the open section.
const CONTEXT: usize = 3;

/// The 1-based new-side number of 0-based file line `at`, `shift` lines away.
fn new_number(at: usize, shift: isize) -> usize {
    (at as isize + shift + 1).max(1) as usize
}

/// What the last incremental render showed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Drawn {
    layout: (u32, Option<usize>, Pass, Theme),
    header: String,
    rows: usize,
    at: Option<usize>,
    /// New-side line minus old-side line at `at`.
    shift: isize,
    partial: String,
    below: String,
}

impl PatchPreview {
    /// The open section's body, where it starts in the file (once located
    /// at one place) and the pass that located it.
    fn open_view(&self) -> (&[String], Option<usize>, Pass) {
        match &self.open {
            Some(o) => {
                let decisive = o.decisive();
                let start = match decisive {
                    Some((_, [one])) if self.failure.is_none() => Some(one.start),
                    _ => None,
                };
                (&o.body, start, decisive.map_or(Pass::Exact, |(p, _)| p))
            }
            None => (&[], None, Pass::Exact),
        }
    }

    fn header_part(&self) -> String {
        super::render::header_html(&self.path, &self.state(), Some(self.sections))
    }

    /// File lines `from..to` as context, their new-side numbers `shift` lines away.
    fn context_rows(&self, from: usize, to: usize, shift: isize) -> String {
        let mut html = String::new();
        let to = to.min(self.lines.len());
        for (i, l) in self.lines.iter().enumerate().take(to).skip(from) {
            let new = Some(new_number(i, shift));
            super::render::row(&mut html, None, "context", Some(i + 1), new, None, l);
        }
        html
    }

    /// How far the sections placed before the open one move the file's
    /// lines: their added lines minus their removed ones.
    fn placed_shift(&self) -> isize {
        self.placed
            .iter()
            .flat_map(|p| p.body.iter())
            .map(|l| match l.as_bytes().first() {
                Some(b'+') => 1,
                Some(b'-') => -1,
                _ => 0,
            })
            .sum()
    }

    /// Rows of the body from line `k` on, the file position being `at` and
    /// the new side `shift` lines from it; returns them, the file position
    /// after them and the shift there.
    fn body_rows(
        &self,
        k: usize,
        at: Option<usize>,
        shift: isize,
    ) -> (String, Option<usize>, isize) {
        let (body, _, pass) = self.open_view();
        let lines = &self.lines;
        let gaps = self.format == Format::ApplyPatch;
        let mut html = String::new();
        let mut at = at;
        let mut shift = shift;
        for (k, l) in body.iter().enumerate().skip(k) {
            let id = k.to_string();
            let text = l.get(1..).unwrap_or("");
            if l.starts_with('+') {
                // A file being added numbers its lines from 1.
                let new = at
                    .map(|a| new_number(a, shift))
                    .or_else(|| (self.operation == Some(Operation::Add)).then_some(k + 1));
                super::render::row(&mut html, Some(&id), "added", None, new, None, text);
                shift += 1;
                continue;
            }
            if let (true, Some(a)) = (gaps, at.as_mut()) {
                // Blank file lines the stream left out, shown as context.
                while lines
                    .get(*a)
                    .is_some_and(|f| f.trim().is_empty() && !verdict::same(pass, f, text))
                {
                    let new = Some(new_number(*a, shift));
                    super::render::row(&mut html, None, "context", Some(*a + 1), new, None, "");
                    *a += 1;
                }
            }
            let removed = l.starts_with('-');
            let kind = if removed { "removed" } else { "context" };
            // A blank context line past the end (the final newline) has no file line.
            let old = at.filter(|a| *a < lines.len());
            let new = old.filter(|_| !removed).map(|a| new_number(a, shift));
            super::render::row(
                &mut html,
                Some(&id),
                kind,
                old.map(|a| a + 1),
                new,
                None,
                text,
            );
            if removed {
                shift -= 1;
            }
            if let Some(a) = at.as_mut() {
                *a += 1;
            }
        }
        (html, at, shift)
    }

    /// The line being typed, drawn as the row it will be (added, removed
    /// or context by its first character) without numbers yet; a line that
    /// may still become a marker or header (`*** Add File`, `@@`, `---`)
    /// is left out until it is complete.
    fn partial_part(&self, partial: Option<&str>) -> String {
        let Some(t) = partial.filter(|t| !t.is_empty()) else {
            return String::new();
        };
        let header =
            self.format == Format::UnifiedDiff && (t.starts_with("---") || t.starts_with("+++"));
        let (kind, text) = match t.as_bytes().first() {
            _ if header => return String::new(),
            Some(b'*' | b'@' | b'\\') => return String::new(),
            Some(b'+') => ("added", t.get(1..).unwrap_or("")),
            Some(b'-') => ("removed", t.get(1..).unwrap_or("")),
            Some(b' ') => ("context", t.get(1..).unwrap_or("")),
            // A line without a sign is read as context, as written.
            _ => ("context", t),
        };
        super::render::typing_row(kind, text)
    }

    fn below_part(&self, at: Option<usize>, shift: isize) -> String {
        at.map_or(String::new(), |a| self.context_rows(a, a + CONTEXT, shift))
    }

    /// The theme of the next renders (a new one redraws the whole preview).
    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    /// The open section drawn in place as HTML, with the layout of a text
    /// block's preview (`.eb-preview`, `.eb-preview-header` with
    /// `data-preview-state` and `data-section`, `.eb-preview-rows` …): real
    /// file line numbers once located, three lines of context above and
    /// below. Its cost is the open section's lines, not the operation's.
    pub fn render_full(&self, partial: Option<&str>) -> String {
        self.draw(partial).0
    }

    fn draw(&self, partial: Option<&str>) -> (String, Drawn) {
        let (body, start, pass) = self.open_view();
        let rows_len = body.len();
        let header = self.header_part();
        let placed = self.placed_shift();
        let above = start.map_or(String::new(), |s| {
            self.context_rows(s.saturating_sub(CONTEXT), s, placed)
        });
        let (rows, at, shift) = self.body_rows(0, start, placed);
        let partial = self.partial_part(partial);
        let below = self.below_part(at, shift);
        let html = super::render::frame(&super::render::Frame {
            path: &self.path,
            class: "eb-preview-patch",
            header: &header,
            above: &above,
            rows: &rows,
            partial: &partial,
            below: &below,
            theme: self.theme,
        });
        let drawn = Drawn {
            layout: (self.sections, start, pass, self.theme),
            header,
            rows: rows_len,
            at,
            shift,
            partial,
            below,
        };
        (html, drawn)
    }

    /// What changed since the last call (see [`super::PreviewHtml`]): the
    /// new header, the rows of the lines added, the line being typed, the
    /// context below; the whole preview (`reset`) only when the layout
    /// changes (a new section, located, a new place). So a call costs the
    /// new lines, not the section or the operation.
    pub fn render_delta(&mut self, partial: Option<&str>) -> super::PreviewHtml {
        let (_, start, pass) = self.open_view();
        let layout = (self.sections, start, pass, self.theme);
        let Some(last) = self.drawn.as_ref().filter(|d| d.layout == layout) else {
            let (html, drawn) = self.draw(partial);
            self.drawn = Some(drawn);
            return super::PreviewHtml {
                reset: Some(html),
                ..super::PreviewHtml::default()
            };
        };
        let mut out = super::PreviewHtml::default();
        let header = self.header_part();
        let (rows, at, shift) = self.body_rows(last.rows, last.at, last.shift);
        let partial = self.partial_part(partial);
        let below = self.below_part(at, shift);
        let rows_len = self.open_view().0.len();
        if header != last.header {
            out.header = Some(header.clone());
        }
        out.append = rows;
        if partial != last.partial {
            out.partial = Some(partial.clone());
        }
        if below != last.below {
            out.below = Some(below.clone());
        }
        self.drawn = Some(Drawn {
            layout,
            header,
            rows: rows_len,
            at,
            shift,
            partial,
            below,
        });
        out
    }
}
