//! What a patch block says of its file: the operation, its sections
//! (hunks), where it moves the file, and the other file a unified diff's
//! `---` line named. The parser writes it; the appliers and the preview
//! read it, and nothing reads the block's raw text again.

use serde::{Deserialize, Serialize};

/// What a file operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// Create the file (`*** Add File:`, or `--- /dev/null`).
    Add,
    /// Remove the file (`*** Delete File:`, or `+++ /dev/null`).
    Delete,
    /// Change the file, and move it when `move_to` is set.
    Update,
}

/// One hunk (`@@` section) of an update.
///
/// The body is kept as one string (one allocation per hunk, not per line);
/// across the boundary it is `lines: string[]`.
#[derive(Debug, Clone, Default, Eq, Deserialize)]
#[serde(rename_all = "camelCase", from = "HunkRepr")]
pub struct Hunk {
    /// `apply-patch`: the text of each `@@ …` line before the section,
    /// outermost first; each narrows the search to what follows it.
    pub anchors: Vec<String>,
    /// `unified-diff`: the `@@ -l,n +l,n @@` numbers, when written.
    pub old_start: Option<u32>,
    pub old_count: Option<u32>,
    pub new_start: Option<u32>,
    pub new_count: Option<u32>,
    /// The body lines joined by `'\n'`: every line starts with `' '`
    /// (context), `'-'` (removed) or `'+'` (added). See [`Hunk::lines`].
    body: String,
    /// `*** End of File`: the section's lines end the file.
    pub end_of_file: bool,
    /// `\ No newline at end of file` after an old-side line.
    pub no_newline_old: bool,
    /// `\ No newline at end of file` after a new-side line.
    pub no_newline_new: bool,
    /// Lines pushed, and how many of them start with `+`: room to reserve
    /// for what the applier builds (a pushed line holding `'\n'` counts
    /// once, so these size things only).
    pushed: (u32, u32),
}

/// Equal hunks say the same (the size hints are left out).
impl PartialEq for Hunk {
    fn eq(&self, other: &Hunk) -> bool {
        self.anchors == other.anchors
            && self.old_start == other.old_start
            && self.old_count == other.old_count
            && self.new_start == other.new_start
            && self.new_count == other.new_count
            && self.body == other.body
            && self.end_of_file == other.end_of_file
            && self.no_newline_old == other.no_newline_old
            && self.no_newline_new == other.no_newline_new
    }
}

/// [`Hunk`] as it crosses the boundary.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct HunkRepr {
    anchors: Vec<String>,
    old_start: Option<u32>,
    old_count: Option<u32>,
    new_start: Option<u32>,
    new_count: Option<u32>,
    lines: Vec<String>,
    end_of_file: bool,
    no_newline_old: bool,
    no_newline_new: bool,
}

impl From<HunkRepr> for Hunk {
    fn from(r: HunkRepr) -> Hunk {
        let mut h = Hunk {
            anchors: r.anchors,
            old_start: r.old_start,
            old_count: r.old_count,
            new_start: r.new_start,
            new_count: r.new_count,
            end_of_file: r.end_of_file,
            no_newline_old: r.no_newline_old,
            no_newline_new: r.no_newline_new,
            body: String::new(),
            pushed: (0, 0),
        };
        for l in &r.lines {
            // A line without its prefix would be read as context.
            if l.is_empty() {
                h.push_line(" ");
            } else {
                h.push_line(l);
            }
        }
        h
    }
}

/// Serialised as `HunkRepr`, the lines written straight from the body
/// (no copy of each line).
impl Serialize for Hunk {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Lines<'a>(&'a Hunk);
        impl Serialize for Lines<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.lines())
            }
        }
        let mut st = serializer.serialize_struct("Hunk", 9)?;
        if !self.anchors.is_empty() {
            st.serialize_field("anchors", &self.anchors)?;
        }
        for (name, value) in [
            ("oldStart", self.old_start),
            ("oldCount", self.old_count),
            ("newStart", self.new_start),
            ("newCount", self.new_count),
        ] {
            if let Some(v) = value {
                st.serialize_field(name, &v)?;
            }
        }
        st.serialize_field("lines", &Lines(self))?;
        for (name, value) in [
            ("endOfFile", self.end_of_file),
            ("noNewlineOld", self.no_newline_old),
            ("noNewlineNew", self.no_newline_new),
        ] {
            if value {
                st.serialize_field(name, &true)?;
            }
        }
        st.end()
    }
}

impl Hunk {
    /// The body lines, each with its prefix.
    pub fn lines(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        // `split('\n')`, with the LF found eight bytes at a time.
        let mut rest = (!self.body.is_empty()).then_some(self.body.as_str());
        std::iter::from_fn(move || {
            let text = rest?;
            match crate::text::find_byte(text.as_bytes(), b'\n') {
                Some(i) => {
                    rest = text.get(i + 1..);
                    text.get(..i)
                }
                None => {
                    rest = None;
                    Some(text)
                }
            }
        })
    }

    /// The body lines joined by `'\n'` (no final newline).
    pub fn body(&self) -> &str {
        &self.body
    }

    /// A hunk with room for a body of `bytes` bytes.
    pub(crate) fn with_capacity(bytes: usize) -> Hunk {
        Hunk {
            body: String::with_capacity(bytes),
            ..Hunk::default()
        }
    }

    /// Room for `bytes` more bytes of body.
    pub(crate) fn reserve(&mut self, bytes: usize) {
        self.body.reserve(bytes);
    }

    /// Appends a body line (with its prefix).
    pub fn push_line(&mut self, line: &str) {
        if self.body.capacity() == 0 {
            // Room for a typical section at once, not eight doublings.
            self.body.reserve(256);
        }
        if !self.body.is_empty() {
            self.body.push('\n');
        }
        self.body.push_str(line);
        self.pushed.0 += 1;
        self.pushed.1 += u32::from(line.starts_with('+'));
    }

    /// Appends `lines` body lines already joined by `'\n'`, `added` of them
    /// starting with `+`: what a [`Hunk::push_line`] for each would do, in
    /// one copy.
    pub(crate) fn push_lines(&mut self, text: &str, lines: u32, added: u32) {
        self.body.reserve(text.len() + 1);
        if !self.body.is_empty() {
            self.body.push('\n');
        }
        self.body.push_str(text);
        self.pushed.0 += lines;
        self.pushed.1 += added;
    }

    /// About how many body lines start with `+` (for sizes).
    pub(crate) fn added_hint(&self) -> usize {
        self.pushed.1 as usize
    }

    /// The body's length in bytes: at least what its added lines take.
    pub(crate) fn body_len(&self) -> usize {
        self.body.len()
    }

    /// About how many lines [`Hunk::old_side`] has (for sizes).
    pub(crate) fn old_hint(&self) -> usize {
        self.pushed.0.saturating_sub(self.pushed.1) as usize
    }

    /// No body lines.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The last body line.
    pub fn last_line(&self) -> Option<&str> {
        if self.body.is_empty() {
            None
        } else {
            self.body.rsplit('\n').next()
        }
    }

    /// Context and removed lines, in order (what must be found).
    pub fn old_side(&self) -> Vec<&str> {
        let mut side = Vec::with_capacity(self.old_hint());
        side.extend(self.old_lines());
        side
    }

    /// [`Hunk::old_side`], one line at a time.
    pub(crate) fn old_lines(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        self.lines()
            .filter(|l| !l.starts_with('+'))
            .map(|l| l.get(1..).unwrap_or(""))
    }

    /// Context and added lines, in order (what replaces it).
    pub fn new_side(&self) -> Vec<&str> {
        self.lines()
            .filter(|l| !l.starts_with('-'))
            .map(|l| l.get(1..).unwrap_or(""))
            .collect()
    }
}

/// The operation of one patch block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchOp {
    pub operation: Operation,
    /// The new path of a moved or renamed file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_to: Option<String>,
    /// A unified diff whose `---` line names another file than its `+++`
    /// line, with no rename lines (`--- util.py` / `+++ helpers.py`): the
    /// `---` name (`a/` dropped). The diff edits the `+++` file; when that
    /// file does not exist, the refusal names this one and says how to
    /// edit or rename it. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// `update`: the hunks, in file order. `add`: one hunk of `+` lines.
    /// `delete`: a unified diff's `-` lines, if any.
    #[serde(default)]
    pub hunks: Vec<Hunk>,
    /// Which patch of the reply (0-based: an `*** Begin Patch` envelope, or
    /// one unified diff) the operation belongs to: a patch applies whole or
    /// not at all.
    #[serde(default)]
    pub patch: u32,
}
