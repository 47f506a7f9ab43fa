//! The `apply_patch` (V4A) grammar, one line at a time.
//!
//! ```text
//! *** Begin Patch
//! *** Add File: path        every line `+`
//! *** Delete File: path
//! *** Update File: path
//! *** Move to: path         optional, right after Update
//! @@ context line           zero or more `@@` lines open a section
//!  context / -removed / +added
//! *** End of File           optional: the section ends the file
//! *** End Patch
//! ```
//!
//! Operations are reported complete only at `*** End Patch`: a patch the
//! reply cuts short is discarded whole, with its reason. A line the grammar
//! has no place for discards the whole patch too (naming the line), so a
//! patch is applied entirely or not at all.

use super::patch_parts::{
    clean_path, make_block, push_update, shown, Fed, PatchEvent, PendingLines, Sides,
};
use crate::block::patch_op::{Hunk, Operation, PatchOp};
use crate::block::Format;
use crate::text::trim_line as trim;

const FORMAT: Format = Format::ApplyPatch;

struct Op {
    operation: Operation,
    path: String,
    move_to: Option<String>,
    line_number: u32,
    hunks: Vec<Hunk>,
    /// The section being read (pushed to `hunks` when the next begins).
    hunk: Hunk,
    /// Blank lines not yet known to be content.
    blanks: u32,
    raw: String,
    /// The body length of the section read last (in this operation or the
    /// one before).
    last_body: usize,
    /// Every body line's old and new side, for the block.
    sides: Sides,
    /// Body lines read the short way, so far only in `raw`.
    run: PendingLines,
}

impl Op {
    /// Puts the lines of `run` in the section.
    fn flush_run(&mut self) {
        self.run.flush(&self.raw, Some(&mut self.hunk));
    }

    fn close_hunk(&mut self) {
        self.flush_run();
        let h = std::mem::take(&mut self.hunk);
        self.last_body = h.body().len();
        // `*** End of File` under an `@@` with no line is still an empty
        // section: kept, it would apply as a change of nothing.
        if !h.is_empty() || !h.anchors.is_empty() {
            self.hunks.push(h);
        }
    }

    /// Appends a body line to the section being read; its first line gets
    /// room for a body a quarter longer than the one before (the sections
    /// of one operation are mostly alike), not a growth per doubling.
    fn push_line(&mut self, line: &str) {
        if self.hunk.is_empty() && self.last_body > 0 {
            self.hunk
                .reserve((self.last_body + self.last_body / 4).min(1 << 16));
        }
        self.hunk.push_line(line);
        self.sides.push(line);
    }
}

pub(crate) struct Reader {
    begin_line: u32,
    done: Vec<Op>,
    op: Option<Op>,
    /// Set when the patch cannot be read: the rest is skipped to `*** End Patch`.
    failed: Option<String>,
    /// The folder of a `cd <dir> && apply_patch <<'EOF'` line before the
    /// patch: its paths are read from there, as Codex runs it.
    dir: Option<String>,
    /// The last operation's text length, last section's body length and
    /// sides' lengths: the operations of one patch are mostly alike, so the
    /// next one gets that much room at once instead of growing to it.
    last: (usize, usize, (usize, usize)),
    /// The blocks are only applied (see [`super::patch_parts::make_block`]): an
    /// operation's text is read only while the operation is, and its
    /// buffer serves the next one (`spare`).
    to_apply: bool,
    spare: String,
}

/// `*** Add File: x` and friends: the header kind and the path.
fn header(t: &str) -> Option<(Operation, &str)> {
    let rest = t.strip_prefix("*** ")?;
    for (name, op) in [
        ("Add File:", Operation::Add),
        ("Delete File:", Operation::Delete),
        ("Update File:", Operation::Update),
    ] {
        if let Some(p) = rest.strip_prefix(name) {
            return Some((op, p));
        }
    }
    None
}

impl Reader {
    /// A reader when `line` is `*** Begin Patch`, or an operation header
    /// without one (read so that it can be refused with its reason).
    /// `shell`: the last non-blank line before it that runs `apply_patch`, if any.
    /// `updates`: the stream reports events (the start event's path is copied
    /// only then).
    pub(crate) fn start(
        line: &str,
        line_number: u32,
        shell: Option<&str>,
        out: &mut Vec<PatchEvent>,
        updates: bool,
        to_apply: bool,
    ) -> Option<Reader> {
        let t = trim(line);
        let new = |line_number| Reader {
            begin_line: line_number,
            done: Vec::new(),
            op: None,
            failed: None,
            dir: None,
            last: (0, 0, (0, 0)),
            to_apply,
            spare: String::new(),
        };
        if t == "*** Begin Patch" {
            let mut r = new(line_number);
            match shell.map(changed_folder) {
                Some(Some(Ok(dir))) => r.dir = Some(dir),
                Some(Some(Err(why))) => r.failed = Some(format!(
                    "the patch at line {line_number} is run after `{}`: {why}; write its paths from the project root and leave out the `cd`",
                    shown(shell.unwrap_or("").trim())
                )),
                _ => {}
            }
            return Some(r);
        }
        if header(t).is_some() {
            let mut r = new(line_number);
            r.failed = Some(format!("`*** Begin Patch` is missing before `{}` at line {line_number}; start the patch with a line `*** Begin Patch`", shown(t)));
            r.begin(t, line_number, out, updates);
            return Some(r);
        }
        None
    }

    fn begin(&mut self, t: &str, line_number: u32, out: &mut Vec<PatchEvent>, updates: bool) {
        let Some((operation, p)) = header(t) else {
            return;
        };
        let path = self.rooted(clean_path(p));
        if path.is_empty() {
            self.fail(format!(
                "line {line_number} `{}` has no path; write the file's path after the colon",
                shown(t)
            ));
        }
        let (last_raw, last_body, last_sides) = self.last;
        // Room for a typical operation's text, or the last one's and a
        // quarter more (it grows from there); the last one's buffer when
        // it is not kept.
        let mut raw = std::mem::take(&mut self.spare);
        raw.reserve((last_raw + last_raw / 4).clamp(1024, 1 << 16));
        raw.push_str(t);
        raw.push('\n');
        out.push(PatchEvent::Start {
            // Read only by a stream that reports events.
            path: if updates { path.clone() } else { String::new() },
            format: FORMAT,
            line_number,
        });
        self.op = Some(Op {
            operation,
            path,
            move_to: None,
            line_number,
            hunks: Vec::new(),
            hunk: Hunk::default(),
            blanks: 0,
            raw,
            last_body,
            sides: if super::patch_parts::TO_APPLY_BUILT && self.to_apply {
                Sides::firsts()
            } else {
                Sides::like(last_sides)
            },
            run: PendingLines::default(),
        });
    }

    /// A path of the patch, read from the `cd` folder when there is one.
    fn rooted(&self, path: String) -> String {
        match &self.dir {
            // An absolute path stays absolute (and is refused), never moved under `dir`.
            Some(dir) if !path.is_empty() && !crate::path::is_absolute(&path) => {
                format!("{dir}/{path}")
            }
            _ => path,
        }
    }

    fn fail(&mut self, reason: String) {
        if self.failed.is_none() {
            self.failed = Some(reason);
        }
    }

    fn close_op(&mut self) {
        if let Some(mut op) = self.op.take() {
            op.close_hunk();
            self.last = (op.raw.len(), op.last_body, op.sides.lens());
            // An `@@ anchor` line with no line under it changes nothing: a
            // section of anchors alone is empty too.
            let empty = op.hunks.iter().all(|h| h.is_empty());
            if op.operation == Operation::Update && empty && op.move_to.is_none() {
                let (path, at) = (op.path.clone(), op.line_number);
                // A bare `@@` with nothing after it is a section left empty, not a missing one.
                let empty_section = op.raw.lines().skip(1).any(|l| l.trim().starts_with("@@"));
                self.fail(if empty_section {
                    format!("`*** Update File: {path}` at line {at} has only empty `@@` sections (no context, `-` or `+` line after them); add the lines to change under the `@@` line")
                } else {
                    format!("`*** Update File: {path}` at line {at} has no `@@` section and no `*** Move to:`; add the lines to change")
                });
            }
            if super::patch_parts::TO_APPLY_BUILT && self.to_apply {
                // Applying reads no raw text: the buffer serves the next
                // operation.
                let mut buffer = std::mem::take(&mut op.raw);
                buffer.clear();
                self.spare = buffer;
            }
            self.done.push(op);
        }
    }

    pub(crate) fn line(
        &mut self,
        line: &str,
        n: u32,
        out: &mut Vec<PatchEvent>,
        updates: bool,
    ) -> Fed {
        if self.plain_body_line(line) {
            if updates {
                out.push(PatchEvent::Current { format: FORMAT });
            }
            return Fed::Taken;
        }
        if let Some(op) = self.op.as_mut() {
            op.flush_run();
        }
        let t = trim(line);
        if t == "*** End Patch" {
            self.close_op();
            self.emit(out, None);
            return Fed::Done;
        }
        if t == "*** Begin Patch" {
            // A new patch while this one is open: this one lost its end.
            self.close_op();
            let at = self.begin_line;
            self.emit(out, Some(format!("the patch begun at line {at} has no `*** End Patch` before the next `*** Begin Patch` at line {n}; end each patch with `*** End Patch`")));
            self.begin_line = n;
            self.failed = None;
            return Fed::Taken;
        }
        if header(t).is_some() {
            self.close_op();
            self.begin(t, n, out, updates);
            return Fed::Taken;
        }
        let failed = self.failed.is_some();
        let Some(op) = self.op.as_mut() else {
            if !t.is_empty() && !failed {
                self.fail(format!("line {n} `{}` is not an operation (`*** Add File:`, `*** Delete File:`, `*** Update File:`) or `*** End Patch`", shown(t)));
            }
            return Fed::Taken;
        };
        op.raw.push_str(line);
        op.raw.push('\n');
        if failed {
            return Fed::Taken;
        }
        let mut problem = None;
        let mut shown_line = None;
        match op.operation {
            Operation::Add => {
                if let Some(text) = line.strip_prefix('+') {
                    // Blank lines held back in case they came right before
                    // `*** End Patch` were content: reported as they are read.
                    for _ in 0..std::mem::take(&mut op.blanks) {
                        op.push_line("+");
                        if updates {
                            push_update(out, FORMAT, "+");
                        }
                    }
                    op.push_line(line);
                    let _ = text;
                    shown_line = Some(line);
                } else if t.is_empty() {
                    op.blanks += 1;
                } else {
                    problem = Some(format!("line {n} `{}` in `*** Add File: {}` does not start with `+`; every line of an added file starts with `+`", shown(line), op.path));
                }
            }
            Operation::Delete => {
                if !t.is_empty() {
                    problem = Some(format!(
                        "line {n} `{}` follows `*** Delete File: {}`, which takes no lines",
                        shown(line),
                        op.path
                    ));
                }
            }
            Operation::Update => {
                if let Some(p) = t.strip_prefix("*** Move to:") {
                    if op.hunks.is_empty()
                        && op.hunk.is_empty()
                        && op.hunk.anchors.is_empty()
                        && op.move_to.is_none()
                    {
                        op.move_to = Some(match &self.dir {
                            Some(dir) if !clean_path(p).is_empty() => {
                                format!("{dir}/{}", clean_path(p))
                            }
                            _ => clean_path(p),
                        });
                    } else {
                        problem = Some(format!(
                            "line {n} `*** Move to:` must come right after `*** Update File: {}`",
                            op.path
                        ));
                    }
                } else if let Some(anchor) = line.strip_prefix("@@") {
                    op.blanks = 0;
                    if !op.hunk.is_empty() || op.hunk.end_of_file {
                        op.close_hunk();
                    }
                    let a = anchor.strip_prefix(' ').unwrap_or(anchor);
                    // `@@ -3,4 +3,5 @@` (a unified-diff hunk header, as models
                    // sometimes write here) names no line: read as a bare `@@`.
                    let numbers = super::unified::hunk_number_texts(line.trim_end()).is_some();
                    if !a.trim().is_empty() && !numbers {
                        op.hunk.anchors.push(a.to_string());
                    }
                    shown_line = Some(line);
                } else if t == "*** End of File" {
                    op.blanks = 0;
                    op.hunk.end_of_file = true;
                    shown_line = Some(line);
                } else if matches!(line.as_bytes().first(), Some(b' ' | b'-' | b'+')) {
                    if op.hunk.end_of_file {
                        problem = Some(format!("line {n} follows `*** End of File` in {}; start a new section with `@@`", op.path));
                    } else {
                        for _ in 0..std::mem::take(&mut op.blanks) {
                            op.push_line(" ");
                            if updates {
                                push_update(out, FORMAT, " ");
                            }
                        }
                        op.push_line(line);
                        shown_line = Some(line);
                    }
                } else if t.is_empty() {
                    op.blanks += 1;
                } else {
                    problem = Some(format!(
                        "line {n} `{}` in `*** Update File: {}` does not start with ` `, `-`, `+` or `@@`; prefix context lines with a space",
                        shown(line),
                        op.path
                    ));
                }
            }
        }
        if let Some(p) = problem {
            self.fail(p);
        } else if let (true, Some(_)) = (updates, shown_line) {
            // Always the line just fed.
            out.push(PatchEvent::Current { format: FORMAT });
        }
        Fed::Taken
    }

    /// Reads `line` and returns true when it is a body line of the section
    /// being read that needs none of the tests below (most lines of a
    /// patch): a `+` or `-` line, or a ` ` line whose first other character
    /// is not `*`, so that trimmed it is neither blank nor a `***` line; no
    /// blank lines held, the section not ended by `*** End of File`, the
    /// patch not failed. What [`Reader::line`] would do with it, without
    /// trimming it and testing it for every marker first.
    fn plain_body_line(&mut self, line: &str) -> bool {
        let plain = match line.as_bytes() {
            [b'+' | b'-', ..] => true,
            [b' ', rest @ ..] => rest
                .iter()
                .find(|&&b| b != b' ' && !(0x09..=0x0D).contains(&b))
                // A non-ASCII character may be whitespace `trim` removes.
                .is_some_and(|&b| b != b'*' && b < 0x80),
            _ => false,
        };
        let Some(op) = self.op.as_mut() else {
            return false;
        };
        let fits = match op.operation {
            Operation::Update => !op.hunk.end_of_file,
            Operation::Add => line.starts_with('+'),
            Operation::Delete => false,
        };
        if !plain || !fits || op.blanks > 0 || self.failed.is_some() {
            return false;
        }
        op.run.push(&mut op.raw, line);
        op.sides.push(line);
        true
    }

    /// Completes (or, with `why`, discards) every operation read so far.
    fn emit(&mut self, out: &mut Vec<PatchEvent>, why: Option<String>) {
        let why = why.or_else(|| self.failed.take());
        let ops = std::mem::take(&mut self.done);
        if ops.is_empty() {
            let reason = why.unwrap_or_else(|| "it has no file operations between `*** Begin Patch` and `*** End Patch`, so nothing was changed; put `*** Add File:`, `*** Delete File:` or `*** Update File:` sections in it".to_string());
            out.push(PatchEvent::Discarded {
                path: None,
                line_number: self.begin_line,
                reason: format!(
                    "the patch at line {} was dropped: {reason}",
                    self.begin_line
                ),
            });
            return;
        }
        for op in ops {
            match &why {
                Some(reason) => out.push(PatchEvent::Discarded {
                    path: Some(op.path.clone()),
                    line_number: op.line_number,
                    reason: format!("the patch at line {} was dropped, with this operation on {} (line {}): {reason}", self.begin_line, op.path, op.line_number),
                }),
                None => {
                    let mut raw = op.raw;
                    if raw.ends_with('\n') {
                        raw.pop();
                    }
                    let patch = PatchOp { operation: op.operation, move_to: op.move_to, old_path: None, hunks: op.hunks, patch: 0 };
                    out.push(PatchEvent::Complete(make_block(FORMAT, op.path, op.line_number, raw, patch, op.sides)));
                }
            }
        }
    }

    /// The operation being read: path, header line, body lines as written.
    pub(crate) fn pending(&self) -> Option<(String, u32, Vec<String>)> {
        let op = self.op.as_ref()?;
        let lines = op.raw.lines().skip(1).map(String::from).collect();
        Some((op.path.clone(), op.line_number, lines))
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<PatchEvent>) {
        self.close_op();
        let reason = self.failed.take().unwrap_or_else(|| "the reply ended before `*** End Patch`; the patch is incomplete, send it again whole".to_string());
        self.emit(out, Some(reason));
    }
}

/// The folder a shell line `cd <dir> && apply_patch <<'EOF'` runs the patch
/// in (Codex reads the patch's paths from there): `None` when the line does
/// not chain a command into `apply_patch` or has no `cd`, `Ok(dir)` for one
/// relative folder, `Err(why)` for a `cd` that cannot be followed (an
/// absolute or variable folder, other commands around it) rather than
/// reading the paths from the wrong folder.
fn changed_folder(shell: &str) -> Option<Result<String, &'static str>> {
    let at = shell
        .find("apply_patch")
        .or_else(|| shell.find("applypatch"))?;
    let before = shell[..at].trim_end();
    // Prose that merely names the command is no command line.
    let before = before
        .strip_suffix("&&")
        .or_else(|| before.strip_suffix(';'))?;
    // The words with where each starts.
    let mut words: Vec<(usize, &str)> = Vec::new();
    for w in before.split_whitespace() {
        let from = words.last().map_or(0, |(at, last)| at + last.len());
        let at = before[from..].find(w).map_or(from, |i| from + i);
        words.push((at, w));
    }
    // `cd` as a word, possibly right after the quote of `bash -lc "` or a `(`.
    let is_cd = |w: &str| w.trim_start_matches(['"', '\'', '(']) == "cd";
    let cd = words.iter().rposition(|(_, w)| is_cd(w))?;
    let wrapper = |w: &str| matches!(w, "$" | ">" | "bash" | "sh" | "zsh" | "-c" | "-lc" | "-l");
    let cannot = "a command that changes folders in a way the patch cannot follow";
    if !words[..cd].iter().all(|(_, w)| wrapper(w)) {
        return Some(Err(cannot));
    }
    let (at, w) = words[cd];
    let raw = before[at + w.len()..].trim();
    // One folder: a word, or a quoted name that may hold spaces.
    let dir = match raw.chars().next() {
        Some(q @ ('\'' | '"')) => match raw[1..].strip_suffix(q) {
            Some(d) if !d.contains(q) => d,
            _ => return Some(Err(cannot)),
        },
        Some(_) if !raw.contains(char::is_whitespace) => raw,
        _ => return Some(Err(cannot)),
    };
    if dir.starts_with(['/', '~', '\\'])
        || dir.contains('$')
        || dir.get(1..2) == Some(":")
        || dir == "-"
    {
        return Some(Err("a folder that may not be the project root"));
    }
    let dir = dir.trim_end_matches('/');
    let dir = dir.strip_prefix("./").unwrap_or(dir);
    if dir.is_empty() || dir == "." {
        return None;
    }
    Some(Ok(dir.to_string()))
}

#[cfg(test)]
mod tests {
    use super::changed_folder;
    use crate::parser::{EditStream, ParseOptions, StreamEvent};

    /// The paths `block-start` names, with events on (the readers copy the
    /// path for the start event only then).
    fn started(reply: &str) -> Vec<String> {
        let mut stream = EditStream::new(&ParseOptions::default());
        let mut events = stream.feed(reply);
        events.extend(stream.finish());
        events
            .into_iter()
            .filter_map(|e| match e {
                StreamEvent::BlockStart { file_path, .. } => Some(file_path),
                _ => None,
            })
            .collect()
    }

    /// Lines read without the marker tests (`+`, `-`, ` ` then no `*`)
    /// and lines that need them: a marker indented by any whitespace
    /// `str::trim` removes still ends the patch; after a `+` it is text.
    #[test]
    fn body_lines_and_indented_markers() {
        use crate::parser::parse_edits;
        for indent in [" ", " \t", " \u{3000}", "\u{a0}"] {
            let reply = format!("*** Begin Patch\n*** Update File: a\n@@\n -  *x\n-y\n+*** End Patch\n+\n{indent}*** End Patch\nafter\n");
            let blocks = parse_edits(&reply, &ParseOptions::default());
            assert_eq!(blocks.len(), 1, "{indent:?}");
            assert_eq!(blocks[0].old_lines, "-  *x\ny", "{indent:?}");
            assert_eq!(blocks[0].new_lines, "-  *x\n*** End Patch\n", "{indent:?}");
        }
    }

    /// Sections whose lines come the short way (in one piece from the
    /// operation's text) and the long way (blank lines held, then context)
    /// in any order hold every line, each once, in order.
    #[test]
    fn sections_mixing_plain_and_held_lines() {
        use crate::parser::parse_edits;
        let reply = "*** Begin Patch\n*** Update File: a\n@@ f\n a\n-b\n\n\n+c\n@@\n\n d\n+e\n*** End of File\n*** Add File: n\n+x\n\n+y\n*** End Patch\n";
        let blocks = parse_edits(reply, &ParseOptions::default());
        let lines = |i: usize| -> Vec<Vec<String>> {
            let op = blocks[i].patch.as_ref().expect("a patch block");
            let hunk_lines =
                |h: &crate::block::patch_op::Hunk| h.lines().map(String::from).collect();
            op.hunks.iter().map(hunk_lines).collect()
        };
        assert_eq!(
            lines(0),
            [vec![" a", "-b", " ", " ", "+c"], vec![" ", " d", "+e"]]
        );
        assert_eq!(lines(1), [vec!["+x", "+", "+y"]]);
        assert_eq!(blocks[0].new_lines, "a\n\n\nc\n\nd\ne");
    }

    #[test]
    fn block_start_names_each_operation_path() {
        let ops = "*** Update File: a.txt\n@@\n-x\n+y\n*** Add File: b.txt\n+z\n*** End Patch\n";
        assert_eq!(
            started(&format!("*** Begin Patch\n{ops}")),
            ["a.txt", "b.txt"]
        );
        // A patch missing its `*** Begin Patch` is refused, but it is
        // still reported as it is read.
        assert_eq!(started(ops), ["a.txt", "b.txt"]);
    }

    #[test]
    fn reads_the_folder_a_shell_line_changes_to() {
        let ok = |s: &str| changed_folder(s).and_then(Result::ok);
        assert_eq!(ok("cd web && apply_patch <<'EOF'"), Some("web".into()));
        assert_eq!(ok("(cd web/ui; applypatch <<EOF"), Some("web/ui".into()));
        assert_eq!(ok("$ cd ./web && apply_patch"), Some("web".into()));
        assert_eq!(
            ok("sh -c \"cd 'a b' && apply_patch <<'EOF'"),
            Some("a b".into())
        );
        // No command chained into apply_patch, no cd, or the folder it is in.
        assert_eq!(changed_folder("apply_patch <<'EOF'"), None);
        assert_eq!(
            changed_folder("I will cd into web and run apply_patch:"),
            None
        );
        assert_eq!(changed_folder("echo hi && apply_patch <<'EOF'"), None);
        assert_eq!(changed_folder("cd . && apply_patch <<'EOF'"), None);
        // Folders and commands that cannot be followed.
        for s in [
            "cd /srv && apply_patch",
            "cd ~/x && apply_patch",
            "cd $DIR && apply_patch",
            "cd - && apply_patch",
            "cd C:\\x && apply_patch",
            "cd a b && apply_patch",
            "git stash && cd a && apply_patch",
            "cd a && cd b && apply_patch",
        ] {
            assert!(matches!(changed_folder(s), Some(Err(_))), "{s}");
        }
    }
}
