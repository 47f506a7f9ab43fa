//! Reading and writing file text without losing a byte: matching sees LF
//! text with no BOM; writing restores the file's own BOM and line endings.

/// How many leading bytes are checked for NUL to call a file binary.
pub const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// Why file bytes cannot be edited as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// A NUL byte in the first 8 KiB.
    Binary,
    /// Not valid UTF-8.
    NotUtf8,
}

/// How to treat the final newline when writing; crosses the boundary as
/// `'preserve' | 'ensure'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrailingNewline {
    /// Keep the file's own choice (a file without a final newline keeps none).
    #[default]
    Preserve,
    /// Always end a non-empty file with a newline (seed 001's rule).
    Ensure,
}

/// A text file split into what matching sees and how to write it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    /// The text with BOM removed and every CRLF read as LF (a lone `\r` not
    /// followed by `\n` is content and stays).
    pub body: String,
    pub bom: bool,
    /// New lines are written with CRLF: every line ending in the file is
    /// CRLF, or (in a file with mixed endings) more of them are CRLF than LF.
    pub crlf: bool,
    /// For a file with mixed endings only: the lines as read and their
    /// endings, so that lines an edit keeps are written back with their own.
    mixed: Option<Box<MixedEndings>>,
}

/// The original lines of a mixed-ending file and whether each ended in CRLF.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MixedEndings {
    lines: Vec<String>,
    /// `crlf[i]` for every line that had an ending (an unterminated last line has none).
    crlf: Vec<bool>,
}

/// The lines of an LF body: `"a\nb\n"` and `"a\nb"` are two lines, `""` is
/// none, `"\n"` is one empty line.
pub fn body_lines(body: &str) -> Vec<&str> {
    if body.is_empty() {
        return Vec::new();
    }
    let trimmed = body.strip_suffix('\n').unwrap_or(body);
    trimmed.split('\n').collect()
}

/// True when `bytes` has a NUL in its first 8 KiB.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_LEN)].contains(&0)
}

impl TextFile {
    /// Splits file bytes into a body for matching plus the conventions to
    /// restore when writing.
    pub fn decode(bytes: &[u8]) -> Result<TextFile, DecodeError> {
        if is_binary(bytes) {
            return Err(DecodeError::Binary);
        }
        let text = std::str::from_utf8(bytes).map_err(|_| DecodeError::NotUtf8)?;
        Ok(TextFile::from_text(text))
    }

    /// As [`TextFile::decode`], for text that is already a string.
    pub fn from_text(text: &str) -> TextFile {
        let (bom, text) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let newlines = text.matches('\n').count();
        let crlfs = text.matches("\r\n").count();
        if crlfs == 0 {
            // All LF (or no newline at all): the fast path, nothing to remember.
            return TextFile { body: text.to_string(), bom, crlf: false, mixed: None };
        }
        if crlfs == newlines {
            return TextFile { body: text.replace("\r\n", "\n"), bom, crlf: true, mixed: None };
        }
        // Mixed: read every CRLF as LF and remember each line's own ending.
        let mut body = String::with_capacity(text.len());
        let mut lines = Vec::with_capacity(newlines + 1);
        let mut endings = Vec::with_capacity(newlines);
        for piece in text.split_inclusive('\n') {
            let (line, ending) = match piece.strip_suffix("\r\n") {
                Some(line) => (line, Some(true)),
                None => match piece.strip_suffix('\n') {
                    Some(line) => (line, Some(false)),
                    None => (piece, None),
                },
            };
            body.push_str(line);
            lines.push(line.to_string());
            if let Some(crlf) = ending {
                body.push('\n');
                endings.push(crlf);
            }
        }
        // Ties go to LF, the convention of a new file.
        let crlf = crlfs > newlines - crlfs;
        TextFile { body, bom, crlf, mixed: Some(Box::new(MixedEndings { lines, crlf: endings })) }
    }

    /// A new file: no BOM, LF endings.
    pub fn new_file() -> TextFile {
        TextFile { body: String::new(), bom: false, crlf: false, mixed: None }
    }

    /// True when the file mixes CRLF and LF line endings.
    pub fn mixed_endings(&self) -> bool {
        self.mixed.is_some()
    }

    /// True when the body ends with a newline (or is empty).
    pub fn has_final_newline(&self) -> bool {
        self.body.is_empty() || self.body.ends_with('\n')
    }

    /// Turns an edited LF body back into the file's own conventions.
    ///
    /// `original_final_newline` is whether the file ended with a newline
    /// before editing; with [`TrailingNewline::Preserve`] the result keeps
    /// that choice, with [`TrailingNewline::Ensure`] a non-empty result always
    /// ends with one.
    pub fn encode(&self, new_body: &str, original_final_newline: bool, policy: TrailingNewline) -> String {
        let want_newline = match policy {
            TrailingNewline::Ensure => true,
            TrailingNewline::Preserve => original_final_newline,
        };
        let mut body = new_body.to_string();
        if !body.is_empty() {
            if want_newline && !body.ends_with('\n') {
                body.push('\n');
            } else if !want_newline && body.ends_with('\n') {
                body.pop();
            }
        }
        let mut out = String::with_capacity(body.len() + 4);
        if self.bom {
            out.push('\u{feff}');
        }
        if self.mixed.is_some() {
            let lines = body_lines(&body);
            self.push_lines(&mut out, &lines, body.ends_with('\n'));
        } else if self.crlf {
            out.push_str(&body.replace('\n', "\r\n"));
        } else {
            out.push_str(&body);
        }
        out
    }

    /// Writes `lines` (no terminators) back in the file's conventions, each
    /// line ended except the last, which is ended when `final_newline` is set.
    ///
    /// Unlike [`TextFile::encode`] this never drops a line: a blank last line
    /// in a file without a final newline is written as an empty, unterminated
    /// line (so `["a", ""]` without a final newline is `"a\n"`).
    pub fn encode_lines<S: AsRef<str>>(&self, lines: &[S], final_newline: bool) -> String {
        let refs: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
        let mut out = String::with_capacity(refs.iter().map(|l| l.len() + 2).sum::<usize>() + 3);
        if self.bom {
            out.push('\u{feff}');
        }
        self.push_lines(&mut out, &refs, final_newline);
        out
    }

    /// As [`TextFile::encode_lines`], for lines that say which line of the
    /// file as read they are (`None` for a line an edit wrote): in a file
    /// with mixed endings each kept line is written with its own ending, new
    /// lines with the majority's. Linear, and exact by construction.
    pub fn encode_kept_lines<'a>(&self, lines: impl Iterator<Item = (&'a str, Option<usize>)>, final_newline: bool) -> String {
        let majority = if self.crlf { "\r\n" } else { "\n" };
        let mut out = String::new();
        if self.bom {
            out.push('\u{feff}');
        }
        let mut lines = lines.peekable();
        while let Some((line, origin)) = lines.next() {
            out.push_str(line);
            if lines.peek().is_some() || final_newline {
                let own = match (&self.mixed, origin) {
                    (Some(mixed), Some(o)) => mixed.crlf.get(o).copied(),
                    _ => None,
                };
                out.push_str(match own {
                    Some(true) => "\r\n",
                    Some(false) => "\n",
                    None => majority,
                });
            }
        }
        out
    }

    fn push_lines(&self, out: &mut String, lines: &[&str], final_newline: bool) {
        let majority = if self.crlf { "\r\n" } else { "\n" };
        // Each new line's ending: a line that survived the edit (aligned by a
        // line diff against the file as read) keeps its own; others take the
        // majority. Only mixed files pay for the diff.
        let mut own: Vec<Option<bool>> = Vec::new();
        if let Some(mixed) = &self.mixed {
            own = vec![None; lines.len()];
            let old: Vec<&str> = mixed.lines.iter().map(String::as_str).collect();
            for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, lines) {
                if let similar::DiffOp::Equal { old_index, new_index, len } = op {
                    for d in 0..len {
                        if let (Some(slot), Some(&crlf)) = (own.get_mut(new_index + d), mixed.crlf.get(old_index + d)) {
                            *slot = Some(crlf);
                        }
                    }
                }
            }
        }
        let last = lines.len().saturating_sub(1);
        for (i, line) in lines.iter().enumerate() {
            out.push_str(line);
            if i < last || final_newline {
                out.push_str(match own.get(i).copied().flatten() {
                    Some(true) => "\r\n",
                    Some(false) => "\n",
                    None => majority,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_bom_round_trip() {
        let file = TextFile::decode("\u{feff}a\r\nb\r\n".as_bytes()).unwrap();
        assert!(file.bom && file.crlf);
        assert_eq!(file.body, "a\nb\n");
        assert_eq!(file.encode("a\nc\n", true, TrailingNewline::Preserve), "\u{feff}a\r\nc\r\n");
    }

    #[test]
    fn mixed_endings_read_as_lf_and_kept_per_line() {
        let file = TextFile::from_text("a\r\nb\nc\r\n");
        assert!(file.crlf && file.mixed_endings(), "two CRLF against one LF: new lines get CRLF");
        assert_eq!(file.body, "a\nb\nc\n");
        assert_eq!(file.encode("a\nb\nc\n", true, TrailingNewline::Preserve), "a\r\nb\nc\r\n", "unchanged round trip");
        assert_eq!(file.encode("a\nB\nc\n", true, TrailingNewline::Preserve), "a\r\nB\r\nc\r\n");
        assert_eq!(file.encode("a\nb\nx\nc\n", true, TrailingNewline::Preserve), "a\r\nb\nx\r\nc\r\n");
        assert_eq!(file.encode("b\nc\n", true, TrailingNewline::Preserve), "b\nc\r\n");
        // A lone CR is content; a tie goes to LF.
        let file = TextFile::from_text("x\ry\r\nz\n");
        assert!(!file.crlf && file.mixed_endings());
        assert_eq!(file.body, "x\ry\nz\n");
        assert_eq!(file.encode("x\ry\nz\nw", false, TrailingNewline::Ensure), "x\ry\r\nz\nw\n");
        // Uniform files do not remember lines.
        assert!(!TextFile::from_text("a\rb\n").mixed_endings());
        assert_eq!(TextFile::from_text("a\rb\n").body, "a\rb\n");
        assert!(!TextFile::from_text("a\r\nb").mixed_endings());
    }

    #[test]
    fn encode_lines_keeps_a_blank_last_line() {
        let file = TextFile::from_text("a\n\nb");
        assert_eq!(file.encode_lines(&["a", ""], false), "a\n");
        assert_eq!(file.encode_lines(&["a", ""], true), "a\n\n");
        assert_eq!(file.encode_lines::<&str>(&[], false), "");
        let crlf = TextFile::from_text("\u{feff}a\r\nb\r\n");
        assert_eq!(crlf.encode_lines(&["a", "c"], true), "\u{feff}a\r\nc\r\n");
    }

    #[test]
    fn final_newline_policy() {
        let file = TextFile::from_text("a");
        assert_eq!(file.encode("a\nb\n", false, TrailingNewline::Preserve), "a\nb");
        assert_eq!(file.encode("a\nb", false, TrailingNewline::Ensure), "a\nb\n");
        assert_eq!(file.encode("a\nb", true, TrailingNewline::Preserve), "a\nb\n");
    }

    #[test]
    fn binary_and_invalid_utf8_are_refused() {
        assert_eq!(TextFile::decode(b"ab\0c"), Err(DecodeError::Binary));
        assert_eq!(TextFile::decode(&[0xff, 0xfe, 0x41]), Err(DecodeError::NotUtf8));
        let mut late_nul = vec![b'a'; BINARY_SNIFF_LEN];
        late_nul.push(0);
        assert!(TextFile::decode(&late_nul).is_ok(), "a NUL past 8 KiB is not sniffed");
    }
}
