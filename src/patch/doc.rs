//! A file as a patch transaction holds it while a reply's operations apply.
//!
//! Its lines are ranges of a few texts the document keeps: the body as
//! read (the transaction's own, shared, not copied), then one text per
//! applied operation holding the lines that operation wrote. Keeping,
//! copying and dropping lines therefore moves plain numbers: no allocation
//! and no reference count per line, and a document with a thousand kept
//! lines is freed in two steps.

use std::ops::Range;
use std::rc::Rc;

use crate::text::{body_lines_spans, TextFile, TrailingNewline};

/// [`LineRef::text`] of a line of the body as read ([`Doc::read`]): in a
/// file with mixed endings its lines keep their own endings when written
/// back. Text `i > 0` is `Doc::texts[i - 1]`.
const BODY: usize = 0;

/// [`LineRef::replaced_end`] of a line that replaced none.
const NOT_REPLACED: usize = usize::MAX;

/// One line of a [`Doc`]: bytes `start..end` of its text `text` ([`BODY`]
/// or a written one), without its ending.
#[derive(Clone, Copy, Debug)]
struct LineRef {
    text: usize,
    start: usize,
    end: usize,
    /// For a line an edit wrote in place of a line of the body as read:
    /// where that line ends in the body, so that in a file with mixed
    /// endings it takes that line's ending (as Codex's apply_patch does).
    replaced_end: usize,
}

/// A file's lines as the transaction holds them, with how to write it back.
#[derive(Clone, Debug)]
pub(crate) struct Doc {
    /// BOM and line endings to write back (its body is not used).
    pub file: TextFile,
    /// The file as the transaction read it, whose body is the text
    /// [`BODY`] (`None`: no line is of a body as read). Shared with the
    /// transaction and the documents edited from this one.
    read: Option<Rc<TextFile>>,
    /// The written texts the other lines are ranges of, in the order they
    /// were written. Shared with the documents this one was edited from.
    /// (`Rc<String>`, not `Rc<str>`: a written text is kept as built,
    /// without a copy.)
    texts: Vec<Rc<String>>,
    lines: Vec<LineRef>,
    pub final_newline: bool,
}

impl Doc {
    /// The file as read: every line a range of a copy of its body (for
    /// tests; the transaction's documents share its body: [`Doc::from_read`]).
    #[cfg(test)]
    pub fn from_text(file: &TextFile) -> Doc {
        Doc::from_read(&Rc::new(file.clone()))
    }

    /// The file as the transaction read it: every line a range of its
    /// body, which the document shares.
    pub fn from_read(file: &Rc<TextFile>) -> Doc {
        let body = file.body.as_bytes();
        let mut lines = Vec::with_capacity(body.len() / 32 + 1);
        body_lines_spans(body, |start, end| {
            lines.push(LineRef {
                text: BODY,
                start,
                end,
                replaced_end: NOT_REPLACED,
            })
        });
        Doc {
            file: file.without_body(),
            read: Some(file.clone()),
            texts: Vec::new(),
            lines,
            final_newline: file.has_final_newline(),
        }
    }

    /// A document of `lines` only (an added file), written in `file`'s
    /// conventions.
    pub fn of_lines<'a>(
        file: TextFile,
        lines: impl IntoIterator<Item = &'a str>,
        final_newline: bool,
    ) -> Doc {
        let empty = Doc {
            file,
            read: None,
            texts: Vec::new(),
            lines: Vec::new(),
            final_newline,
        };
        let mut edit = DocEdit::new(&empty, 0);
        for line in lines {
            edit.write(line, None);
        }
        edit.finish(final_newline)
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Text `i`: [`BODY`] or a written one (`""` when there is none).
    fn text(&self, i: usize) -> &str {
        let text = match i.checked_sub(1) {
            None => self.read.as_deref().map(|f| f.body.as_str()),
            Some(written) => self.texts.get(written).map(|t| t.as_str()),
        };
        text.unwrap_or("")
    }

    /// The body as read (`""` when no line is of one).
    fn body(&self) -> &[u8] {
        self.text(BODY).as_bytes()
    }

    fn text_of(&self, line: &LineRef) -> &str {
        self.text(line.text).get(line.start..line.end).unwrap_or("")
    }

    /// Line `i` (0-based); `""` past the end.
    pub fn line(&self, i: usize) -> &str {
        self.lines.get(i).map_or("", |l| self.text_of(l))
    }

    /// Every line as a string slice, for the searches.
    pub fn view(&self) -> Vec<&str> {
        self.lines.iter().map(|l| self.text_of(l)).collect()
    }

    /// True when both documents hold the same lines and final newline.
    pub fn same_content(&self, other: &Doc) -> bool {
        self.final_newline == other.final_newline
            && self.lines.len() == other.lines.len()
            && self.lines.iter().zip(&other.lines).all(|(a, b)| {
                // A line kept from a shared text needs no comparison.
                let (x, y) = (self.text_of(a), other.text_of(b));
                let shared = std::ptr::eq(x, y);
                shared || x == y
            })
    }

    /// The file's bytes (as text) with its BOM and line endings.
    pub fn encode(&self) -> String {
        self.encode_with(TrailingNewline::Preserve)
    }

    /// [`Doc::encode`] under `policy`: with [`TrailingNewline::Ensure`] a
    /// document with lines ends with a newline even when the file (or the
    /// patch's `\ No newline` marker) had none.
    pub fn encode_with(&self, policy: TrailingNewline) -> String {
        let wanted = self.final_newline || policy == TrailingNewline::Ensure;
        let final_newline = !self.lines.is_empty() && wanted;
        let file = &self.file;
        if file.mixed_endings() {
            // A line still in the body as read keeps its own ending (an
            // edit of a mixed file rewrites only the lines it touches), and
            // a line written in place of one takes that one's.
            let body = self.body();
            let origin = |l: &LineRef| {
                let in_body = l.text == BODY && body.get(l.end) == Some(&b'\n');
                file.body_newline_index(if in_body { l.end } else { l.replaced_end })
            };
            let kept = self.lines.iter().map(|l| (self.text_of(l), origin(l)));
            return file.encode_kept_lines(kept, final_newline);
        }
        if file.crlf {
            return file.encode_lines(&self.view(), final_newline);
        }
        let size: usize = self.lines.iter().map(|l| l.end - l.start + 1).sum();
        let mut out = String::with_capacity(size + 4);
        if file.bom {
            out.push('\u{feff}');
        }
        let mut i = 0;
        while let Some(first) = self.lines.get(i) {
            // Lines still consecutive in one text are copied as one piece.
            let text = self.text(first.text);
            let mut end = first.end;
            let mut j = i + 1;
            while let Some(next) = self.lines.get(j) {
                if next.text == first.text
                    && next.start == end + 1
                    && text.as_bytes().get(end) == Some(&b'\n')
                {
                    end = next.end;
                    j += 1;
                } else {
                    break;
                }
            }
            out.push_str(text.get(first.start..end).unwrap_or(""));
            if j < self.lines.len() || final_newline {
                out.push('\n');
            }
            i = j;
        }
        file.push_tail(&mut out, self.lines.is_empty());
        out
    }
}

/// A new document built from a base one: lines kept from it, and lines
/// written, which all go into one new text.
pub(crate) struct DocEdit<'d> {
    base: &'d Doc,
    lines: Vec<LineRef>,
    /// The written lines, each followed by `\n` (so runs of them encode
    /// as one piece): the new document's last text.
    written: String,
}

impl<'d> DocEdit<'d> {
    /// `room`: how many lines the new document will about have.
    pub fn new(base: &'d Doc, room: usize) -> DocEdit<'d> {
        DocEdit::with_room(base, room, 0)
    }

    /// As [`DocEdit::new`], with room for about `written_bytes` of
    /// written lines (so the written text is not grown line by line).
    pub fn with_room(base: &'d Doc, room: usize, written_bytes: usize) -> DocEdit<'d> {
        DocEdit {
            base,
            lines: Vec::with_capacity(room),
            written: String::with_capacity(written_bytes),
        }
    }

    /// How many lines the new document has so far.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Keeps the base's lines in `range` (what of it lies in the base).
    pub fn keep(&mut self, range: Range<usize>) {
        let end = range.end.min(self.base.lines.len());
        if let Some(kept) = self.base.lines.get(range.start.min(end)..end) {
            self.lines.extend_from_slice(kept);
        }
    }

    /// Keeps the base's line `at`, or writes an empty line past its end.
    pub fn keep_line(&mut self, at: usize) {
        match self.base.lines.get(at) {
            Some(&line) => self.lines.push(line),
            None => self.write("", None),
        }
    }

    /// Writes `text` as the next line; `replacing`: the base line it is
    /// written in place of, whose ending it takes in a mixed file.
    pub fn write(&mut self, text: &str, replacing: Option<usize>) {
        let replaced_end = match replacing.and_then(|i| self.base.lines.get(i)) {
            Some(old) if old.replaced_end != NOT_REPLACED => old.replaced_end,
            Some(old) if old.text == BODY && self.base.body().get(old.end) == Some(&b'\n') => {
                old.end
            }
            _ => NOT_REPLACED,
        };
        let start = self.written.len();
        self.written.push_str(text);
        self.lines.push(LineRef {
            // The text pushed by `finish`, after the base's.
            text: self.base.texts.len() + 1,
            start,
            end: self.written.len(),
            replaced_end,
        });
        self.written.push('\n');
    }

    /// Drops the lines past the first `len`.
    pub fn truncate(&mut self, len: usize) {
        self.lines.truncate(len);
    }

    pub fn finish(self, final_newline: bool) -> Doc {
        let base = &self.base.texts;
        let mut texts = Vec::with_capacity(base.len() + 1);
        texts.extend(base.iter().cloned());
        if !self.written.is_empty() {
            texts.push(Rc::new(self.written));
        }
        Doc {
            file: self.base.file.clone(),
            read: self.base.read.clone(),
            texts,
            lines: self.lines,
            final_newline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_encode_as_encode_lines() {
        for text in [
            "",
            "a\n",
            "a\nb",
            "\u{feff}a\n\nb\n",
            "a\rb\nc\n\r",
            "x\ny\nz\n",
            "a\r\nb\r\n",
        ] {
            let file = TextFile::from_text(text);
            let doc = Doc::from_text(&file);
            let n = doc.len();
            // Kept, dropped, reordered and written lines.
            let mut edits: Vec<Doc> = vec![doc.clone()];
            if n > 1 {
                let mut e = DocEdit::new(&doc, n);
                e.keep(1..n);
                edits.push(e.finish(doc.final_newline));
                let mut e = DocEdit::new(&doc, 2);
                e.keep_line(1);
                e.keep_line(0);
                edits.push(e.finish(doc.final_newline));
                let mut e = DocEdit::new(&doc, n + 2);
                e.keep(0..1);
                e.write("new", Some(0));
                e.write("", None);
                e.keep(1..n);
                edits.push(e.finish(doc.final_newline));
            }
            edits.push(Doc::of_lines(file.without_body(), ["only"], true));
            edits.push(DocEdit::new(&doc, 0).finish(true));
            for edited in &mut edits {
                for final_newline in [true, false] {
                    edited.final_newline = final_newline;
                    // The document's own conventions: CRs that ended the
                    // file stay even when an edit removed every line (a
                    // patch changes only its lines, as the peers' do).
                    let lines = edited.view();
                    let want = edited
                        .file
                        .encode_lines(&lines, !lines.is_empty() && final_newline);
                    assert_eq!(edited.encode(), want, "{text:?} {lines:?} {final_newline}");
                }
            }
        }
    }

    #[test]
    fn an_edit_of_an_edit_keeps_both_texts() {
        let doc = Doc::from_text(&TextFile::from_text("a\nb\nc\n"));
        let mut e = DocEdit::new(&doc, 4);
        e.keep(0..1);
        e.write("B", Some(1));
        e.keep(2..3);
        let once = e.finish(true);
        let mut e = DocEdit::new(&once, 4);
        e.keep(0..2);
        e.write("C", Some(2));
        e.keep(5..9); // past the end: nothing
        let twice = e.finish(true);
        assert_eq!(twice.view(), ["a", "B", "C"]);
        assert_eq!(twice.encode(), "a\nB\nC\n");
        assert!(!twice.same_content(&doc));
        assert!(once.same_content(&once.clone()));
        let mut e = DocEdit::new(&doc, 3);
        e.keep(0..1);
        e.write("b", Some(1));
        e.keep(2..3);
        assert!(
            e.finish(true).same_content(&doc),
            "equal text, other source"
        );
    }

    #[test]
    fn a_document_shares_the_body_as_read_with_its_edits() {
        let read = Rc::new(TextFile::from_text("a\r\nb\r\nc\r\n"));
        let doc = Doc::from_read(&read);
        let mut e = DocEdit::new(&doc, 3);
        e.keep(0..1);
        e.write("B", Some(1));
        e.keep(2..3);
        let edited = e.finish(true);
        // The body is not copied: the transaction's file, the document and
        // its edit hold one text.
        assert_eq!(Rc::strong_count(&read), 3);
        assert_eq!(doc.view(), ["a", "b", "c"]);
        assert_eq!(edited.encode(), "a\r\nB\r\nc\r\n");
        assert!(doc.same_content(&Doc::from_read(&read)));
        drop((doc, edited));
        assert_eq!(Rc::strong_count(&read), 1);
        // A document of written lines only has no body as read.
        let added = Doc::of_lines(read.without_body(), ["x", "y"], false);
        assert_eq!(added.encode(), "x\r\ny");
    }

    #[test]
    fn a_written_line_of_a_mixed_file_takes_the_replaced_line_ending() {
        let file = TextFile::from_text("one\r\ntwo\nthree\r\n");
        let doc = Doc::from_text(&file);
        let mut e = DocEdit::new(&doc, 4);
        e.keep(0..1);
        e.write("TWO", Some(1));
        e.write("added", None);
        e.keep(2..3);
        let edited = e.finish(true);
        // `two` ended in LF: `TWO` keeps it; the added line takes the
        // majority's ending (CRLF), the kept lines their own.
        assert_eq!(edited.encode(), "one\r\nTWO\nadded\r\nthree\r\n");
        // Replacing a line that itself replaced one: the first ending stays.
        let mut e = DocEdit::new(&edited, 4);
        e.keep(0..1);
        e.write("2", Some(1));
        e.keep(2..4);
        assert_eq!(e.finish(true).encode(), "one\r\n2\nadded\r\nthree\r\n");
    }
}
