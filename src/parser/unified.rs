//! The unified-diff grammar, one line at a time.
//!
//! A file starts at `diff --git a/x b/y` or at a `--- x` line directly
//! followed by `+++ y`; git's extended header lines (`new file mode`,
//! `rename from`, `index …`) may come between. Hunks start at `@@ -l,n +l,n @@`
//! or a bare `@@ … @@`; their lines start with ` `, `-`, `+`, or `\` (`\ No
//! newline at end of file`). The diff ends at the first line that fits none
//! of this; that line is read as usual. Lines other tools write between
//! files (svn's `Index:` and `====`, `diff -ru a/x b/x`, `Only in`) keep
//! the diff, one patch, going. A numbered hunk after a `--- x` line with no
//! `+++`, or with no header at all, is reported as discarded, never dropped
//! silently.
//!
//! Hunk counts decide where a hunk ends while the body agrees with them:
//! inside the counts an empty line is an empty context line and `--- x` is a
//! removed line; once the counts are used up, `--- x` may start the next
//! file. When the body goes on past the counts, or stops short of them, the
//! body decides.

use super::patch_parts::{
    clean_path, make_block, push_update, Fed, PatchEvent, PendingLines, Sides,
};
use crate::block::patch_op::{Hunk, Operation, PatchOp};
use crate::block::Format;

const FORMAT: Format = Format::UnifiedDiff;

#[derive(Default)]
struct File {
    line_number: u32,
    git: Option<(String, String)>,
    old: Option<String>,
    new: Option<String>,
    rename_from: Option<String>,
    rename_to: Option<String>,
    /// git's `copy from` / `copy to`: the source stays, so this is no move.
    copied: bool,
    new_mode: bool,
    deleted_mode: bool,
    /// `old mode` / `new mode`: the permissions change (not applied).
    mode_change: bool,
    /// `Binary files … differ` or `GIT binary patch`: no text to apply.
    binary: bool,
    /// After `GIT binary patch`: its `literal` / `delta` blocks of base85 lines follow.
    base85: bool,
    /// A hunk header `@@@ … @@@`: a combined diff of a merge (`diff --cc`),
    /// whose lines carry one prefix column per parent.
    combined: bool,
    /// Header lines read; hunks may follow.
    headers_done: bool,
    hunks: Vec<Hunk>,
    hunk: Option<Hunk>,
    /// Lines of the current hunk still expected by its counts.
    old_left: u32,
    new_left: u32,
    counted: bool,
    /// Blank lines not yet known to be content.
    blanks: u32,
    /// The counts were used up and a blank line followed: the hunk is closed.
    gap: bool,
    /// The line (number, text) that ended the diff while the last hunk's
    /// counts still expected lines.
    cut_short: Option<(u32, String)>,
    raw: String,
    /// Every body line's old and new side, for the block.
    sides: Sides,
    /// Body lines so far only in `raw`.
    run: PendingLines,
}

impl File {
    /// Puts the lines of `run` in the hunk being read.
    fn flush_run(&mut self) {
        self.run.flush(&self.raw, self.hunk.as_mut());
    }
}

pub(crate) struct Reader {
    file: Option<File>,
    /// The number of a `--- x` line that starts a file if `+++ y` follows;
    /// its text is `held_line`, a buffer each such line reuses.
    held: Option<u32>,
    held_line: String,
    /// The last file's text length and its last hunk's body length: the
    /// files of one diff are mostly alike, so the next ones get that much
    /// room at once instead of growing to it.
    last_raw: usize,
    last_body: usize,
    /// The last file's [`Sides::lens`], likewise.
    last_sides: (usize, usize),
    /// The blocks are only applied (see [`super::patch_parts::make_block`]): a file's
    /// text is read only while the file is, and its buffer serves the next
    /// one (`spare`).
    to_apply: bool,
    spare: String,
    /// A file ended at a line that separates the files of one diff
    /// ([`is_file_separator`]): the diff goes on when the next file's
    /// headers follow (more separators may come first).
    between_files: bool,
    /// The line of a numbered hunk header (`@@ -1,2 +1,2 @@`) read with no
    /// file open: a hunk missing its headers if body lines follow.
    bare_hunk: Option<u32>,
    /// A hunk without its `+++` header was reported as discarded: the
    /// reader ends at the next line.
    spent: bool,
}

/// A line written between the files of one diff by other tools: svn's
/// `Index: x` and its `====` rule, GNU `diff -r`'s command line (`diff -ru
/// a/x b/x`) and its `Only in` / `Common subdirectories` notes. A diff that
/// goes on after one is still one patch, as with `diff --git` lines.
fn is_file_separator(line: &str) -> bool {
    let rule = line.len() >= 20 && line.bytes().all(|b| b == b'=');
    rule || line.starts_with("Index: ")
        || (line.starts_with("diff -") && line.len() > "diff -".len())
        || line.starts_with("Only in ")
        || line.starts_with("Common subdirectories: ")
}

/// What a file's text is first given room for (it grows from there).
const RAW_CAPACITY: usize = 1024;
/// The least and most room given ahead to a file's text or a hunk's body.
const ROOM: (usize, usize) = (256, 1 << 16);

/// Room for a text as long as the last one and a quarter more, at least `least`.
fn room(last: usize, least: usize) -> usize {
    (last + last / 4).clamp(least, ROOM.1)
}

fn is_hunk_header(t: &str) -> bool {
    t.starts_with("@@")
}

/// `@@ -3,4 +3,5 @@ tail` as (old start, old count, new start, new count).
pub(crate) fn hunk_numbers(t: &str) -> Option<(u32, u32, u32, u32)> {
    // Most headers are written exactly so: read those byte by byte (the
    // general reading below splits and parses, several times the cost).
    if let Some(numbers) = plain_hunk_numbers(t.as_bytes()) {
        return Some(numbers);
    }
    any_hunk_numbers(t)
}

/// [`hunk_numbers`] of a header in any form: spaces of any kind and count.
fn any_hunk_numbers(t: &str) -> Option<(u32, u32, u32, u32)> {
    let [os, oc, ns, nc] = hunk_number_texts(t)?;
    Some((
        os.parse().ok()?,
        oc.parse().ok()?,
        ns.parse().ok()?,
        nc.parse().ok()?,
    ))
}

/// The four numbers of a `@@ -3,4 +3,5 @@` header as written (digits
/// only; a missing count is `1`), whether or not they fit a line number:
/// `@@ -99999999999999999999,1 +1 @@` still has the shape of a header.
pub(crate) fn hunk_number_texts(t: &str) -> Option<[&str; 4]> {
    let rest = t.strip_prefix("@@")?.trim_start();
    // The first `@@` (a byte search: `str::find` with a two-byte pattern
    // sets up a general searcher for each header).
    let end = rest.as_bytes().windows(2).position(|w| w == b"@@")?;
    let mut parts = rest[..end].split_whitespace();
    let old = parts.next()?.strip_prefix('-')?;
    let new = parts.next()?.strip_prefix('+')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let range = |s| match s {
        Some((a, b)) if digits(a) && digits(b) => Some((a, b)),
        _ => None,
    };
    let (os, oc) = range(old.split_once(',').or(Some((old, "1"))))?;
    let (ns, nc) = range(new.split_once(',').or(Some((new, "1"))))?;
    Some([os, oc, ns, nc])
}

/// [`hunk_numbers`] of a header in the plain form `@@ -l[,n] +l[,n] @@…`
/// (single spaces, up to nine digits a number); `None` for any other form,
/// which the general reading then reads (it gives the same numbers for this
/// form).
fn plain_hunk_numbers(t: &[u8]) -> Option<(u32, u32, u32, u32)> {
    // Up to nine digits, at least one: no overflow of u32.
    fn number(t: &[u8], at: &mut usize) -> Option<u32> {
        let start = *at;
        let mut value = 0u32;
        while let Some(d) = t.get(*at).filter(|d| d.is_ascii_digit()) {
            if *at - start == 9 {
                return None;
            }
            value = value * 10 + u32::from(d - b'0');
            *at += 1;
        }
        (*at > start).then_some(value)
    }
    fn range(t: &[u8], at: &mut usize, sign: u8) -> Option<(u32, u32)> {
        if t.get(*at) != Some(&sign) {
            return None;
        }
        *at += 1;
        let start = number(t, at)?;
        if t.get(*at) != Some(&b',') {
            return Some((start, 1));
        }
        *at += 1;
        Some((start, number(t, at)?))
    }
    let mut at = 3;
    if t.get(..3) != Some(b"@@ ") {
        return None;
    }
    let (os, oc) = range(t, &mut at, b'-')?;
    if t.get(at) != Some(&b' ') {
        return None;
    }
    at += 1;
    let (ns, nc) = range(t, &mut at, b'+')?;
    if t.get(at..at + 3) != Some(b" @@") {
        return None;
    }
    Some((os, oc, ns, nc))
}

/// The path of a `---` / `+++` header: timestamps after a tab dropped.
fn header_path(rest: &str) -> String {
    let p = match crate::text::find_byte(rest.as_bytes(), b'\t') {
        Some(tab) => &rest[..tab],
        None => rest,
    };
    clean_path(p.trim_end())
}

/// `diff --git a/x b/y`: the two names, when they can be told apart.
fn git_names(rest: &str) -> Option<(String, String)> {
    let rest = rest.trim();
    if let (Some(a), true) = (rest.strip_prefix("a/"), rest.contains(" b/")) {
        // Same name twice is the common case; split there when possible.
        let half = (rest.len() - 1) / 2;
        if rest.len() % 2 == 1 && rest.get(half..half + 1) == Some(" ") {
            let (x, y) = (&rest[..half], &rest[half + 1..]);
            if x.get(2..) == y.get(2..) {
                return Some((x.to_string(), y.to_string()));
            }
        }
        let i = a.find(" b/")?;
        return Some((format!("a/{}", &a[..i]), a[i + 1..].to_string()));
    }
    // Quoted names (git quotes a name with a tab, a quote, a backslash or
    // a non-ASCII character): each ends at its closing quote.
    if let Some((old, used)) = super::patch_parts::unquote_c(rest) {
        let second = rest[used..].trim_start();
        let new = match super::patch_parts::unquote_c(second) {
            Some((new, _)) => new,
            None => clean_path(second),
        };
        return Some((old, new));
    }
    if let Some(q) = rest.find(" \"") {
        if let Some((new, _)) = super::patch_parts::unquote_c(&rest[q + 1..]) {
            return Some((clean_path(&rest[..q]), new));
        }
    }
    let mut it = rest.splitn(2, ' ');
    Some((clean_path(it.next()?), clean_path(it.next()?)))
}

impl Reader {
    /// A reader when `line` starts a diff: `diff --git` (certain) or `--- x`
    /// (tentative: the second value says so).
    /// `to_apply`: the blocks are only applied (see [`super::patch_parts::make_block`]).
    pub(crate) fn start(line: &str, n: u32, to_apply: bool) -> Option<(Reader, bool)> {
        let new = |held: Option<(&str, u32)>| Reader {
            file: None,
            held: held.map(|(_, n)| n),
            held_line: held.map_or_else(String::new, |(line, _)| line.to_string()),
            last_raw: 0,
            last_body: 0,
            last_sides: (0, 0),
            to_apply,
            spare: String::new(),
            between_files: false,
            bare_hunk: None,
            spent: false,
        };
        if let Some(rest) = line.strip_prefix("diff --git ") {
            let mut r = new(None);
            r.open_git(line, rest, n);
            return Some((r, false));
        }
        if let Some(rest) = line.strip_prefix("--- ") {
            if !rest.trim().is_empty() {
                return Some((new(Some((line, n))), true));
            }
        }
        if line.starts_with("@@ -") && hunk_numbers(line.trim_end()).is_some() {
            let mut r = new(None);
            r.bare_hunk = Some(n);
            return Some((r, true));
        }
        None
    }

    /// A new file's text buffer: the last file's when it is not kept.
    fn raw_room(&mut self) -> String {
        let mut raw = std::mem::take(&mut self.spare);
        raw.reserve(room(self.last_raw, RAW_CAPACITY));
        raw
    }

    /// A new file's sides.
    fn sides_room(&self) -> Sides {
        if super::patch_parts::TO_APPLY_BUILT && self.to_apply {
            Sides::firsts()
        } else {
            Sides::like(self.last_sides)
        }
    }

    fn open_git(&mut self, line: &str, rest: &str, n: u32) {
        let mut f = File {
            line_number: n,
            git: git_names(rest),
            raw: self.raw_room(),
            sides: self.sides_room(),
            ..File::default()
        };
        f.raw.push_str(line);
        f.raw.push('\n');
        self.file = Some(f);
    }

    /// Whether a started file has shown its path yet (block-start is sent
    /// once it has). `updates`: the stream reports events (the start
    /// event's path is copied only then).
    fn announce(f: &File, out: &mut Vec<PatchEvent>, updates: bool) {
        if let Some(path) = file_path_of(f) {
            out.push(PatchEvent::Start {
                path: if updates {
                    path.to_string()
                } else {
                    String::new()
                },
                format: FORMAT,
                line_number: f.line_number,
            });
        }
    }

    /// The line after a held `--- x` line (`minus`, line `at`): `+++ y`
    /// makes them a file's header; otherwise `minus` was a removed line of
    /// the open hunk, or ended the diff. `None`: `line` is still to be read.
    fn after_held(
        &mut self,
        minus: &str,
        at: u32,
        line: &str,
        out: &mut Vec<PatchEvent>,
        updates: bool,
    ) -> Option<Fed> {
        if let Some(plus) = line.strip_prefix("+++ ") {
            // A new file's header: finish the one before, unless this
            // header belongs to a `diff --git` file still in its headers.
            let continuing = self.file.as_ref().is_some_and(|f| {
                f.git.is_some() && !f.headers_done && f.hunks.is_empty() && f.hunk.is_none()
            });
            if !continuing {
                self.complete(out);
                self.file = Some(File {
                    line_number: at,
                    raw: self.raw_room(),
                    sides: self.sides_room(),
                    ..File::default()
                });
            }
            if let Some(f) = self.file.as_mut() {
                f.flush_run();
                f.old = Some(header_path(&minus["--- ".len()..]));
                f.new = Some(header_path(plus));
                f.headers_done = true;
                f.raw.push_str(minus);
                f.raw.push('\n');
                f.raw.push_str(line);
                f.raw.push('\n');
                Self::announce(f, out, updates);
            }
            return Some(Fed::Taken);
        }
        let in_hunk = self
            .file
            .as_ref()
            .is_some_and(|f| f.hunk.is_some() && !f.gap);
        if !in_hunk && hunk_numbers(line.trim_end()).is_some() {
            // `--- x` right before a hunk header: a diff that lost its `+++` line.
            self.complete(out);
            let name = header_path(&minus["--- ".len()..]);
            let next = at.saturating_add(1);
            out.push(PatchEvent::Discarded {
                path: Some(name.clone()),
                line_number: at,
                reason: format!("the diff of {name} at line {at} has a `---` line but no `+++` line before its hunk at line {next}, so it was not applied; write `+++ {name}` on the line after `--- {name}`"),
            });
            self.spent = true;
            return Some(Fed::Taken);
        }
        // Not a header after all: inside an open hunk it was a removed line.
        if self
            .file
            .as_ref()
            .is_some_and(|f| f.hunk.is_some() && !f.gap)
        {
            self.body(minus, out, updates, false);
            None
        } else if self.file.is_none() {
            Some(Fed::Ended)
        } else {
            self.complete(out);
            Some(Fed::Ended)
        }
    }

    pub(crate) fn line(
        &mut self,
        line: &str,
        n: u32,
        out: &mut Vec<PatchEvent>,
        updates: bool,
    ) -> Fed {
        if std::mem::take(&mut self.spent) {
            return Fed::Ended;
        }
        if let Some(at) = self.bare_hunk.take() {
            // Only a header followed by hunk lines is a diff; the lines
            // are read as usual either way (they may be prose).
            if matches!(line.as_bytes().first(), Some(b' ' | b'-' | b'+')) {
                out.push(PatchEvent::Discarded {
                    path: None,
                    line_number: at,
                    reason: format!("the diff hunk at line {at} has no `--- a/path` and `+++ b/path` lines before it, so it names no file and was not applied; write those two lines (the file's path) before its `@@` line"),
                });
            }
            return Fed::Ended;
        }
        if let Some(at) = self.held.take() {
            // The buffer is put back for the next `--- x` line.
            let minus = std::mem::take(&mut self.held_line);
            let fed = self.after_held(&minus, at, line, out, updates);
            self.held_line = minus;
            if let Some(fed) = fed {
                return fed;
            }
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            self.between_files = false;
            self.complete(out);
            self.open_git(line, rest, n);
            return Fed::Taken;
        }
        if self.file.is_none() && std::mem::take(&mut self.between_files) {
            if is_file_separator(line) {
                self.between_files = true;
                return Fed::Taken;
            }
            if line.starts_with("--- ") {
                self.held_line.clear();
                self.held_line.push_str(line);
                self.held = Some(n);
                return Fed::Taken;
            }
        }
        let Some(f) = self.file.as_mut() else {
            return Fed::Ended;
        };
        let in_counts = f.hunk.is_some() && f.counted && (f.old_left > 0 || f.new_left > 0);
        if in_counts {
            let body_line = if line.is_empty() { " " } else { line };
            if matches!(
                body_line.as_bytes().first(),
                Some(b' ' | b'-' | b'+' | b'\\')
            ) {
                self.body(body_line, out, updates, !line.is_empty());
                return Fed::Taken;
            }
        }
        // A `--- x` line may start the next file's headers, or (in a `diff
        // --git` file still in its extended headers) this file's: only the
        // next line (`+++ y`) tells.
        if line.starts_with("--- ") {
            self.held_line.clear();
            self.held_line.push_str(line);
            self.held = Some(n);
            return Fed::Taken;
        }
        if f.base85 && is_binary_data(line) {
            // `literal 5` / `delta 12` and their base85 lines.
            f.flush_run();
            f.raw.push_str(line);
            f.raw.push('\n');
            return Fed::Taken;
        }
        if f.git.is_some() && !f.headers_done && f.hunk.is_none() {
            // git's extended header lines.
            let known = [
                "old mode ",
                "new mode ",
                "deleted file mode ",
                "new file mode ",
                "similarity index ",
                "dissimilarity index ",
                "index ",
                "copy from ",
                "copy to ",
                "rename from ",
                "rename to ",
                "Binary files ",
                "GIT binary patch",
            ];
            if known.iter().any(|k| line.starts_with(k)) {
                if let Some(p) = line.strip_prefix("rename from ") {
                    f.rename_from = Some(clean_path(p));
                }
                if let Some(p) = line.strip_prefix("rename to ") {
                    f.rename_to = Some(clean_path(p));
                }
                f.copied |= line.starts_with("copy from ") || line.starts_with("copy to ");
                f.new_mode |= line.starts_with("new file mode ");
                f.deleted_mode |= line.starts_with("deleted file mode ");
                f.mode_change |= line.starts_with("old mode ") || line.starts_with("new mode ");
                f.binary |=
                    line.starts_with("Binary files ") || line.starts_with("GIT binary patch");
                f.base85 |= line.starts_with("GIT binary patch");
                f.flush_run();
                f.raw.push_str(line);
                f.raw.push('\n');
                return Fed::Taken;
            }
        }
        if is_hunk_header(line) && (f.headers_done || f.git.is_some()) {
            if f.git.is_some() && !f.headers_done && f.hunks.is_empty() && f.hunk.is_none() {
                Self::announce(f, out, updates);
            }
            f.headers_done = true;
            f.combined |= line.starts_with("@@@");
            f.flush_run();
            if let Some(h) = f.hunk.take() {
                // The hunks of one file are mostly alike too.
                self.last_body = h.body().len();
                f.hunks.push(h);
            }
            let mut h = Hunk::with_capacity(room(self.last_body, ROOM.0));
            f.counted = false;
            f.gap = false;
            f.blanks = 0;
            if let Some((os, oc, ns, nc)) = hunk_numbers(line) {
                h.old_start = Some(os);
                h.old_count = Some(oc);
                h.new_start = Some(ns);
                h.new_count = Some(nc);
                f.old_left = oc;
                f.new_left = nc;
                f.counted = true;
            }
            f.hunk = Some(h);
            f.raw.push_str(line);
            f.raw.push('\n');
            if updates {
                out.push(PatchEvent::Current { format: FORMAT });
            }
            return Fed::Taken;
        }
        let past_headers = f.headers_done || !f.hunks.is_empty() || f.hunk.is_some();
        if past_headers && !in_counts && is_file_separator(line) {
            f.flush_run();
            if f.hunk.as_ref().is_some_and(|h| !h.is_empty() && !f.counted) {
                f.cut_short = Some((n, line.to_string()));
            }
            self.complete(out);
            self.between_files = true;
            return Fed::Taken;
        }
        if f.counted && f.hunk.is_some() && line == "-- " {
            // Past a hunk's counts, `-- ` is the signature separator `git
            // format-patch` writes after the last hunk (git am stops there),
            // not a removed line `- `.
            self.complete(out);
            return Fed::Ended;
        }
        if f.headers_done && !f.gap {
            if f.hunk.is_none() && matches!(line.as_bytes().first(), Some(b' ' | b'-' | b'+')) {
                // Lines right after the header, with no `@@`: one hunk.
                f.hunk = Some(Hunk::default());
                f.counted = false;
            }
            if f.hunk.is_some() {
                match line.as_bytes().first() {
                    Some(b' ' | b'-' | b'+' | b'\\') => {
                        let blanks = std::mem::take(&mut f.blanks);
                        for _ in 0..blanks {
                            self.body(" ", out, updates, false);
                        }
                        self.body(line, out, updates, true);
                        return Fed::Taken;
                    }
                    None => {
                        if f.counted {
                            f.gap = true;
                        } else {
                            f.blanks += 1;
                        }
                        return Fed::Taken;
                    }
                    _ => {}
                }
            }
        }
        if let Some(f) = self.file.as_mut() {
            f.flush_run();
            // Ended inside a hunk's counts, or inside a hunk without counts
            // that has lines: if it has no change yet, it lost one.
            let open = f.hunk.as_ref().is_some_and(|h| !h.is_empty() && !f.counted);
            if in_counts || open {
                f.cut_short = Some((n, line.to_string()));
            }
        }
        self.complete(out);
        Fed::Ended
    }

    /// One body line of the current hunk.
    /// `current`: `line` is the line just fed, as written.
    fn body(&mut self, line: &str, out: &mut Vec<PatchEvent>, updates: bool, current: bool) {
        let Some(f) = self.file.as_mut() else { return };
        if f.hunk.is_none() {
            return;
        }
        let first = line.as_bytes().first();
        match first {
            Some(b'\\') => {
                // It reads the hunk's last line, and is not a body line.
                f.flush_run();
                f.raw.push_str(line);
                f.raw.push('\n');
                let Some(h) = f.hunk.as_mut() else { return };
                match h.last_line().and_then(|l| l.as_bytes().first()) {
                    Some(b'-') => h.no_newline_old = true,
                    Some(b'+') => h.no_newline_new = true,
                    Some(_) => {
                        h.no_newline_old = true;
                        h.no_newline_new = true;
                    }
                    None => {}
                }
                return;
            }
            Some(b'-') => f.old_left = f.old_left.saturating_sub(1),
            Some(b'+') => f.new_left = f.new_left.saturating_sub(1),
            _ => {
                f.old_left = f.old_left.saturating_sub(1);
                f.new_left = f.new_left.saturating_sub(1);
            }
        }
        // Put in the hunk with the lines after it (see `File::flush_run`).
        f.run.push(&mut f.raw, line);
        f.sides.push(line);
        if updates && current {
            out.push(PatchEvent::Current { format: FORMAT });
        } else if updates {
            push_update(out, FORMAT, line);
        }
    }

    /// Finishes the current file, if any.
    fn complete(&mut self, out: &mut Vec<PatchEvent>) {
        let Some(mut f) = self.file.take() else {
            return;
        };
        f.flush_run();
        if let Some(h) = f.hunk.take() {
            f.hunks.push(h);
        }
        self.last_raw = f.raw.len();
        self.last_sides = f.sides.lens();
        if let Some(h) = f.hunks.last() {
            self.last_body = h.body().len();
        }
        let line_number = f.line_number;
        let discard = |out: &mut Vec<PatchEvent>, path: Option<String>, reason: String| {
            out.push(PatchEvent::Discarded {
                path,
                line_number,
                reason,
            })
        };
        let Some(path) = file_path(&f) else {
            let reason = format!("the diff at line {} names no file; start it with `--- a/path` and `+++ b/path` lines", f.line_number);
            discard(out, None, reason);
            return;
        };
        if f.git.is_some() && !f.headers_done && f.hunks.is_empty() {
            // Announced only now: a git diff with no `---`/`+++` (a rename, an empty file).
            out.push(PatchEvent::Start {
                path: path.clone(),
                format: FORMAT,
                line_number: f.line_number,
            });
        }
        if let (Some((at, text)), Some(last)) = (&f.cut_short, f.hunks.last()) {
            if !last
                .lines()
                .any(|l| matches!(l.as_bytes().first(), Some(b'+' | b'-')))
            {
                // No `-` or `+` line before the line that ended it: most likely a context
                // line written without its leading space (the change would be lost).
                let reason = format!(
                    "the diff of {path} at line {} was dropped: line {at} `{}` ends its last hunk before any `-` or `+` line. \
                     Start every context line of a hunk with a space (` {}`){}",
                    f.line_number,
                    super::patch_parts::shown(text),
                    super::patch_parts::shown(text),
                    if f.counted { ", or fix the `@@` counts" } else { "" }
                );
                discard(out, Some(path), reason);
                return;
            }
        }
        if f.binary {
            let reason = format!(
                "the diff of {path} at line {} is a binary diff (`Binary files … differ` or `GIT binary patch`), which cannot be applied as text; {path} was not changed. \
                 Change a binary file outside the patch, or send a text file's new lines as a diff",
                f.line_number
            );
            discard(out, Some(path), reason);
            return;
        }
        if f.combined {
            let reason = format!(
                "the diff of {path} at line {} is a combined diff of a merge (`@@@` hunks, one prefix column per parent), which cannot be applied to one file; {path} was not changed. \
                 Send the change as an ordinary diff against the current file (`@@ -l,n +l,n @@`, one ` `, `-` or `+` before each line)",
                f.line_number
            );
            discard(out, Some(path), reason);
            return;
        }
        if f.copied {
            // Read as a move it would delete the source; as an edit it would change the source.
            let reason = format!(
                "the diff at line {} copies a file (`copy from` / `copy to`), which is not applied: the source must stay as it is. \
                 Send the copy as a new file instead (`--- /dev/null`, then `+++ b/` and the new path, its lines as `+` lines)",
                f.line_number
            );
            discard(out, Some(path), reason);
            return;
        }
        let (old, new) = sides(&f);
        // A created file has no old lines: a `--- /dev/null` diff whose hunks
        // have `-` or non-blank context lines edits the `+++` file (as aider
        // reads it), rather than creating it without the lines it says it
        // removes. A blank context line is a new blank line that lost its `+`.
        let old_lines = || {
            f.hunks.iter().any(|h| {
                h.lines().any(|l| match l.as_bytes().first() {
                    Some(b'-') => true,
                    Some(b' ') => !l.trim().is_empty(),
                    _ => false,
                })
            })
        };
        let operation = if f.new_mode || (old == Some("/dev/null") && !old_lines()) {
            Operation::Add
        } else if f.deleted_mode || new == Some("/dev/null") {
            Operation::Delete
        } else {
            Operation::Update
        };
        let renamed = match (&f.rename_from, &f.rename_to) {
            // `rename to` names the path as is (no `b/`).
            (Some(_), Some(to)) => Some(to.clone()),
            _ => match (&f.git, old, new) {
                (Some(_), Some(o), Some(n)) if operation == Operation::Update && o != n => {
                    Some(n.to_string())
                }
                _ => None,
            },
        };
        let move_to = renamed.filter(|to| *to != path);
        // `--- x` / `+++ y` with no rename lines edits y (GNU patch would
        // edit x): x is kept for the refusal when y does not exist.
        let old_path = match (operation, &move_to, &f.old) {
            (Operation::Update, None, Some(minus)) => {
                let name = minus.strip_prefix("a/").unwrap_or(minus);
                (name != path && name != "/dev/null" && !name.is_empty()).then(|| name.to_string())
            }
            _ => None,
        };
        if operation == Operation::Update && f.hunks.is_empty() && move_to.is_none() {
            let reason = if f.mode_change {
                format!("the diff for {path} at line {} changes only the file's mode (`old mode` / `new mode`), which is not applied; its text stays as it is. To change the text, add `@@` hunks", f.line_number)
            } else {
                format!("the diff for {path} at line {} has no hunks; add `@@` hunks with the lines to change", f.line_number)
            };
            discard(out, Some(path), reason);
            return;
        }
        let raw = if super::patch_parts::TO_APPLY_BUILT && self.to_apply {
            // Applying reads no raw text: the buffer serves the next file.
            let mut buffer = f.raw;
            buffer.clear();
            self.spare = buffer;
            String::new()
        } else {
            let mut raw = f.raw;
            if raw.ends_with('\n') {
                raw.pop();
            }
            raw
        };
        let op = PatchOp {
            operation,
            move_to,
            old_path,
            hunks: f.hunks,
            patch: 0,
        };
        out.push(PatchEvent::Complete(make_block(
            FORMAT,
            path,
            f.line_number,
            raw,
            op,
            f.sides,
        )));
    }

    /// The file being read: path, first line, hunk lines as written.
    pub(crate) fn pending(&self) -> Option<(String, u32, Vec<String>)> {
        let f = self.file.as_ref()?;
        let path = file_path(f)?;
        // Everything after the `+++` header line.
        let mut headers = true;
        let lines = f
            .raw
            .lines()
            .filter(|l| {
                let keep = !headers;
                headers &= !l.starts_with("+++ ");
                keep
            })
            .map(String::from)
            .collect();
        Some((path, f.line_number, lines))
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<PatchEvent>) {
        // A `--- x` line held at the end: a removed line of the open hunk.
        if self.held.take().is_some()
            && self
                .file
                .as_ref()
                .is_some_and(|f| f.hunk.is_some() && !f.gap)
        {
            let minus = std::mem::take(&mut self.held_line);
            self.body(&minus, out, false, false);
        }
        self.complete(out);
    }
}

/// A line of a `GIT binary patch` after its header: `literal 5`, `delta 12`,
/// a base85 data line, or the blank line that ends a block.
fn is_binary_data(line: &str) -> bool {
    line.starts_with("literal ")
        || line.starts_with("delta ")
        || line
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&()*+-;<=>?@^_`{|}~".contains(&b))
}

/// The old and new paths, `a/` and `b/` stripped when a `diff --git` line
/// is there or both headers carry them (`/dev/null` counts as carrying).
/// Each is part of a name the file holds (no copy: this runs for every file).
fn sides(f: &File) -> (Option<&str>, Option<&str>) {
    let null = |p: &str| p == "/dev/null";
    match (&f.old, &f.new, &f.git) {
        (Some(old), Some(new), _) => {
            let carries = (null(old) || old.starts_with("a/"))
                && (null(new) || new.starts_with("b/"))
                && !(null(old) && null(new));
            let strip_them = f.git.is_some() || carries;
            fn strip<'a>(p: &'a str, prefix: &str, yes: bool) -> Option<&'a str> {
                Some(if yes {
                    p.strip_prefix(prefix).unwrap_or(p)
                } else {
                    p
                })
            }
            (
                strip(old, "a/", strip_them && !null(old)),
                strip(new, "b/", strip_them && !null(new)),
            )
        }
        // `rename from` / `rename to` name the paths as they are (git adds no
        // `a/`, `b/` there); the names of the `diff --git` line carry them.
        (_, _, Some((a, b))) => (
            Some(
                f.rename_from
                    .as_deref()
                    .unwrap_or_else(|| a.strip_prefix("a/").unwrap_or(a)),
            ),
            Some(
                f.rename_to
                    .as_deref()
                    .unwrap_or_else(|| b.strip_prefix("b/").unwrap_or(b)),
            ),
        ),
        _ => (f.old.as_deref(), f.new.as_deref()),
    }
}

/// The file a diff operates on: the new path, or the old one for a
/// deletion or a rename.
fn file_path(f: &File) -> Option<String> {
    file_path_of(f).map(str::to_string)
}

/// [`file_path`], part of a name the file holds (no copy).
fn file_path_of(f: &File) -> Option<&str> {
    if let Some(from) = &f.rename_from {
        return Some(from);
    }
    let (old, new) = sides(f);
    fn real(p: Option<&str>) -> Option<&str> {
        p.filter(|p| *p != "/dev/null" && !p.is_empty())
    }
    if f.git.is_some() {
        // `diff --git a/x b/y` edits x (and moves it to y when they differ).
        real(old).or_else(|| real(new))
    } else {
        real(new).or_else(|| real(old))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hunk lines put in one piece from the file's text and lines that
    /// break the piece (`\\ No newline`, an empty line inside the counts, a
    /// held `--- x` that turns out a removed line, a new hunk) give every
    /// line once, in order, with the no-newline flags on the right side.
    #[test]
    fn hunks_mixing_runs_and_other_lines() {
        use crate::parser::{parse_edits, ParseOptions};
        let reply = "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n a\n-b\n\\ No newline at end of file\n+c\n\n--- x\n+d\n@@ -9,2 +9,2 @@\n e\n-f\n+g\n\\ No newline at end of file\n";
        let blocks = parse_edits(reply, &ParseOptions::default());
        let op = blocks[0].patch.as_ref().expect("a patch block");
        let lines: Vec<Vec<&str>> = op.hunks.iter().map(|h| h.lines().collect()).collect();
        assert_eq!(
            lines,
            [
                vec![" a", "-b", "+c", " ", "--- x", "+d"],
                vec![" e", "-f", "+g"]
            ]
        );
        let flags: Vec<_> = op
            .hunks
            .iter()
            .map(|h| (h.no_newline_old, h.no_newline_new))
            .collect();
        assert_eq!(flags, [(true, false), (false, true)]);
        assert_eq!(blocks[0].old_lines, "a\nb\n\n-- x\ne\nf");
    }

    #[test]
    fn reads_hunk_numbers() {
        assert_eq!(hunk_numbers("@@ -3,4 +3,5 @@ fn x()"), Some((3, 4, 3, 5)));
        assert_eq!(hunk_numbers("@@ -1 +1 @@"), Some((1, 1, 1, 1)));
        assert_eq!(hunk_numbers("@@ ... @@"), None);
        assert_eq!(hunk_numbers("@@ -99999999999999999999,1 +1 @@"), None);
        assert!(hunk_number_texts("@@ -99999999999999999999,1 +1 @@").is_some());
        assert!(hunk_number_texts("@@ -1,x +1 @@").is_none());
        // The plain form read byte by byte gives what the general reading
        // gives, and leaves every other form to it.
        for t in [
            "@@ -3,4 +3,5 @@ fn x()",
            "@@ -1 +1 @@",
            "@@ -0,0 +1 @@",
            "@@ -007,2 +10,0 @@@",
            "@@ -999999999,1 +1,999999999 @@",
            "@@ -4294967295,1 +1 @@",
            "@@ -4294967296,1 +1 @@",
            "@@ -1,2 +3,4 extra @@",
            "@@  -1,2  +3,4 @@",
            "@@\t-1,2 +3,4\t@@",
            "@@ -+1,2 +3,4 @@",
            "@@ -1, +3,4 @@",
            "@@ -1,2x +3,4 @@",
            "@@ -1,2 +3,4 @",
            "@@ -1,2 +3,4@@",
            "@@@ -1,2 -1,2 +1,3 @@@",
            "@@ - +3 @@",
        ] {
            let plain = plain_hunk_numbers(t.as_bytes());
            assert!(plain.is_none() || plain == any_hunk_numbers(t), "{t}");
            assert_eq!(hunk_numbers(t), any_hunk_numbers(t), "{t}");
        }
        assert_eq!(plain_hunk_numbers(b"@@ -3,4 +3,5 @@"), Some((3, 4, 3, 5)));
        assert_eq!(plain_hunk_numbers(b"@@ -3 +3 @@"), Some((3, 1, 3, 1)));
        assert_eq!(plain_hunk_numbers(b"@@  -3 +3 @@"), None);
        assert_eq!(
            git_names("a/x y.txt b/x y.txt"),
            Some(("a/x y.txt".into(), "b/x y.txt".into()))
        );
        assert_eq!(
            git_names("a/old.txt b/new.txt"),
            Some(("a/old.txt".into(), "b/new.txt".into()))
        );
    }

    #[test]
    fn reads_quoted_names() {
        // git's C-style quoting: octal escapes are UTF-8 bytes.
        assert_eq!(
            git_names(r#""a/caf\303\251.txt" "b/caf\303\251.txt""#),
            Some(("a/café.txt".into(), "b/café.txt".into()))
        );
        assert_eq!(
            git_names(r#"a/plain.txt "b/tab\there.txt""#),
            Some(("a/plain.txt".into(), "b/tab\there.txt".into()))
        );
        assert_eq!(
            header_path(concat!(r#""b/say \"hi\".txt""#, "\t2024-01-01")),
            r#"b/say "hi".txt"#
        );
        // Not C-quoted (an unknown escape): only the quotes go.
        assert_eq!(clean_path(r#""a\q.txt""#), r"a\q.txt");
    }
}
