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
    /// The text with BOM removed and, for a CRLF file, CRLF read as LF.
    pub body: String,
    pub bom: bool,
    /// Every line ending in the file is CRLF (mixed files are left as they are).
    pub crlf: bool,
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
        let crlf = newlines > 0 && text.matches("\r\n").count() == newlines;
        let body = if crlf { text.replace("\r\n", "\n") } else { text.to_string() };
        TextFile { body, bom, crlf }
    }

    /// A new file: no BOM, LF endings.
    pub fn new_file() -> TextFile {
        TextFile { body: String::new(), bom: false, crlf: false }
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
        if self.crlf {
            out.push_str(&body.replace('\n', "\r\n"));
        } else {
            out.push_str(&body);
        }
        out
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
    fn mixed_endings_are_left_alone() {
        let file = TextFile::from_text("a\r\nb\n");
        assert!(!file.crlf);
        assert_eq!(file.body, "a\r\nb\n");
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
