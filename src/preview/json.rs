//! A tolerant, incremental reader of one JSON value (a tool call's
//! arguments as they stream): fed chunks of any size, it reports the
//! decoded text of string values as it arrives, with where in the value
//! each string sits (`edits[1].old_string`).
//!
//! Every byte is looked at once: the state between chunks is a few small
//! fields (the open containers, the key being read, a half-read escape),
//! never the text so far. Escapes split across chunks (`\`, then `u00`,
//! then `e9`) and surrogate pairs split across chunks or escapes
//! (`\ud83d` … `\ude00`) decode as if the argument had come whole. Input
//! that is not JSON stops the reader (`broken`) without a panic; what was
//! read before stays reported.

use std::fmt::Write as _;

/// One step of a path into the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// What a chunk brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonEvent {
    /// Decoded text of the string at `path` (more may follow).
    Text { path: Vec<Seg>, text: String },
    /// The string at `path` ended.
    StringEnd { path: Vec<Seg> },
    /// A number, `true`, `false` or `null` at `path` (as written, at most 64 bytes kept).
    Scalar { path: Vec<Seg>, text: String },
    /// An object or array opened at `path`.
    Open { path: Vec<Seg>, array: bool },
    /// The object or array at `path` closed.
    Close { path: Vec<Seg> },
}

/// Paths deeper than this are read but not reported.
const MAX_DEPTH: usize = 64;
/// Bytes of a key kept (longer keys never name an argument we read).
const MAX_KEY: usize = 256;
const MAX_SCALAR: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// A value (at the top, after `:` or in an array).
    Value,
    /// A key or `}` (just after `{`).
    KeyOrEnd,
    /// A key (after `,` in an object).
    Key,
    Colon,
    /// `,` or the container's end.
    CommaOrEnd,
    /// A value or `]` (just after `[`).
    ValueOrEnd,
    /// The top value ended: only whitespace may follow.
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    None,
    /// After `\`.
    Backslash,
    /// Inside `\uXXXX`: digits read so far and their value.
    Unicode(u8, u32),
}

#[derive(Debug)]
enum Frame {
    Object,
    Array(usize),
}

/// The reader. Feed it with [`JsonReader::feed`].
#[derive(Debug)]
pub struct JsonReader {
    frames: Vec<Frame>,
    /// The path to the value being read (keys and indexes of the open
    /// containers; the last key once read).
    path: Vec<Seg>,
    /// How many containers are open beyond [`MAX_DEPTH`].
    deep: usize,
    want: Want,
    /// Inside a string: `Some(is_key)`.
    string: Option<bool>,
    esc: Esc,
    /// A high surrogate waiting for its low half.
    high: Option<u32>,
    key: String,
    scalar: Option<String>,
    broken: Option<String>,
    /// Characters read (for the position in an error).
    at: u64,
}

impl Default for JsonReader {
    fn default() -> Self {
        JsonReader::new()
    }
}

impl JsonReader {
    pub fn new() -> JsonReader {
        JsonReader {
            frames: Vec::new(),
            path: Vec::new(),
            deep: 0,
            want: Want::Value,
            string: None,
            esc: Esc::None,
            high: None,
            key: String::new(),
            scalar: None,
            broken: None,
            at: 0,
        }
    }

    /// Why the input stopped being JSON, if it did.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Whether the top value is complete.
    pub fn done(&self) -> bool {
        self.want == Want::Done && self.broken.is_none()
    }

    fn reported(&self) -> bool {
        self.deep == 0
    }

    fn stop(&mut self, why: String) {
        if self.broken.is_none() {
            self.broken = Some(why);
        }
    }

    /// Reads a chunk; returns what it brought, in order.
    pub fn feed(&mut self, chunk: &str) -> Vec<JsonEvent> {
        let mut out = Vec::new();
        if self.broken.is_some() {
            return out;
        }
        let mut text = String::new(); // decoded string text of this chunk, not yet reported
        for c in chunk.chars() {
            self.at += 1;
            if self.broken.is_some() {
                break;
            }
            if let Some(is_key) = self.string {
                self.string_char(c, is_key, &mut text, &mut out);
                continue;
            }
            if let Some(s) = self.scalar.as_mut() {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.') {
                    if s.len() < MAX_SCALAR {
                        s.push(c);
                    }
                    continue;
                }
                let s = self.scalar.take().unwrap_or_default();
                self.end_scalar(s, &mut out);
                if self.broken.is_some() {
                    break;
                }
            }
            self.structural(c, &mut out);
        }
        if !text.is_empty() && self.reported() {
            out.push(JsonEvent::Text {
                path: self.path.clone(),
                text,
            });
        }
        out
    }

    fn string_char(&mut self, c: char, is_key: bool, text: &mut String, out: &mut Vec<JsonEvent>) {
        match self.esc {
            Esc::Backslash => {
                self.esc = Esc::None;
                let d = match c {
                    '"' => '"',
                    '\\' => '\\',
                    '/' => '/',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'u' => {
                        self.esc = Esc::Unicode(0, 0);
                        return;
                    }
                    // Tolerated: an escape JSON does not define (`\$`, `\d`) is
                    // kept as written, backslash included: the writer meant the
                    // backslash (a regex, a shell `\$`), not the bare character.
                    other => {
                        self.push_char('\\', is_key, text);
                        other
                    }
                };
                self.push_char(d, is_key, text);
            }
            Esc::Unicode(n, v) => {
                let Some(d) = c.to_digit(16) else {
                    // Tolerated: a short `\u` escape is dropped; the character is read as text.
                    self.esc = Esc::None;
                    self.flush_high(is_key, text);
                    if c == '"' {
                        self.end_string(is_key, text, out);
                    } else if c == '\\' {
                        self.esc = Esc::Backslash;
                    } else {
                        self.push_char(c, is_key, text);
                    }
                    return;
                };
                let v = v * 16 + d;
                if n < 3 {
                    self.esc = Esc::Unicode(n + 1, v);
                    return;
                }
                self.esc = Esc::None;
                self.unit(v, is_key, text);
            }
            Esc::None => match c {
                '"' => {
                    self.flush_high(is_key, text);
                    self.end_string(is_key, text, out);
                }
                '\\' => self.esc = Esc::Backslash,
                c => {
                    self.flush_high(is_key, text);
                    self.push_char(c, is_key, text);
                }
            },
        }
    }

    /// One UTF-16 code unit from a `\u` escape.
    fn unit(&mut self, v: u32, is_key: bool, text: &mut String) {
        if (0xDC00..0xE000).contains(&v) {
            if let Some(h) = self.high.take() {
                let cp = 0x10000 + ((h - 0xD800) << 10) + (v - 0xDC00);
                let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                self.push_char(ch, is_key, text);
            } else {
                self.push_char('\u{FFFD}', is_key, text);
            }
            return;
        }
        self.flush_high(is_key, text);
        if (0xD800..0xDC00).contains(&v) {
            self.high = Some(v);
        } else {
            let ch = char::from_u32(v).unwrap_or('\u{FFFD}');
            self.push_char(ch, is_key, text);
        }
    }

    /// A high surrogate not followed by its low half stands for U+FFFD.
    fn flush_high(&mut self, is_key: bool, text: &mut String) {
        if self.high.take().is_some() {
            self.push_char('\u{FFFD}', is_key, text);
        }
    }

    fn push_char(&mut self, c: char, is_key: bool, text: &mut String) {
        if is_key {
            if self.key.len() < MAX_KEY {
                self.key.push(c);
            }
        } else if self.reported() {
            text.push(c);
        }
    }

    fn end_string(&mut self, is_key: bool, text: &mut String, out: &mut Vec<JsonEvent>) {
        self.string = None;
        if is_key {
            if self.reported() {
                let key = std::mem::take(&mut self.key);
                if let Some(last) = self.path.last_mut() {
                    *last = Seg::Key(key);
                }
            }
            self.key.clear();
            self.want = Want::Colon;
            return;
        }
        if self.reported() {
            if !text.is_empty() {
                out.push(JsonEvent::Text {
                    path: self.path.clone(),
                    text: std::mem::take(text),
                });
            }
            out.push(JsonEvent::StringEnd {
                path: self.path.clone(),
            });
        }
        self.after_value();
    }

    fn end_scalar(&mut self, s: String, out: &mut Vec<JsonEvent>) {
        let ok = matches!(s.as_str(), "true" | "false" | "null")
            || s.parse::<f64>().is_ok_and(|f| f.is_finite());
        if !ok {
            let shown: String = s.chars().take(20).collect();
            self.stop(format!(
                "`{shown}` at character {} is not a JSON value",
                self.at
            ));
            return;
        }
        if self.reported() {
            out.push(JsonEvent::Scalar {
                path: self.path.clone(),
                text: s,
            });
        }
        self.after_value();
    }

    /// A value ended: what may follow depends on the container.
    fn after_value(&mut self) {
        self.want = if self.frames.is_empty() {
            Want::Done
        } else {
            Want::CommaOrEnd
        };
    }

    fn open(&mut self, array: bool, out: &mut Vec<JsonEvent>) {
        if self.reported() && self.frames.len() < MAX_DEPTH {
            out.push(JsonEvent::Open {
                path: self.path.clone(),
                array,
            });
            self.path.push(if array {
                Seg::Index(0)
            } else {
                Seg::Key(String::new())
            });
        } else {
            self.deep += 1;
        }
        self.frames.push(if array {
            Frame::Array(0)
        } else {
            Frame::Object
        });
        self.want = if array {
            Want::ValueOrEnd
        } else {
            Want::KeyOrEnd
        };
    }

    fn close(&mut self, array: bool, out: &mut Vec<JsonEvent>) {
        let ok = matches!(
            (self.frames.last(), array),
            (Some(Frame::Array(_)), true) | (Some(Frame::Object), false)
        );
        if !ok {
            let c = if array { ']' } else { '}' };
            self.stop(format!(
                "`{c}` at character {} closes nothing open",
                self.at
            ));
            return;
        }
        self.frames.pop();
        if self.deep > 0 {
            self.deep -= 1;
        } else {
            self.path.pop();
            out.push(JsonEvent::Close {
                path: self.path.clone(),
            });
        }
        self.after_value();
    }

    fn structural(&mut self, c: char, out: &mut Vec<JsonEvent>) {
        if matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{FEFF}') {
            return;
        }
        let value_ok = matches!(self.want, Want::Value | Want::ValueOrEnd);
        match c {
            '{' if value_ok => self.open(false, out),
            '[' if value_ok => self.open(true, out),
            '}' if matches!(self.want, Want::KeyOrEnd | Want::CommaOrEnd) => self.close(false, out),
            ']' if matches!(self.want, Want::ValueOrEnd | Want::CommaOrEnd) => {
                self.close(true, out)
            }
            '"' if value_ok => {
                self.string = Some(false);
            }
            '"' if matches!(self.want, Want::Key | Want::KeyOrEnd) => {
                self.key.clear();
                self.string = Some(true);
            }
            ':' if self.want == Want::Colon => self.want = Want::Value,
            ',' if self.want == Want::CommaOrEnd => match self.frames.last_mut() {
                Some(Frame::Array(i)) => {
                    *i += 1;
                    let i = *i;
                    if self.deep == 0 {
                        if let Some(last) = self.path.last_mut() {
                            *last = Seg::Index(i);
                        }
                    }
                    self.want = Want::Value;
                }
                Some(Frame::Object) => self.want = Want::Key,
                None => self.want = Want::Done,
            },
            c if value_ok && (c.is_ascii_alphanumeric() || c == '-') => {
                self.scalar = Some(c.to_string());
            }
            c => {
                let mut why = String::new();
                let _ = write!(
                    why,
                    "`{}` at character {} is not valid here in JSON",
                    c.escape_debug(),
                    self.at
                );
                self.stop(why);
            }
        }
    }

    /// The input ended: a number at the very end is complete.
    pub fn finish(&mut self) -> Vec<JsonEvent> {
        let mut out = Vec::new();
        if self.broken.is_none() {
            if let Some(s) = self.scalar.take() {
                self.end_scalar(s, &mut out);
            }
        }
        out
    }
}

/// The key a path ends in, or `""`.
pub fn last_key(path: &[Seg]) -> &str {
    match path.last() {
        Some(Seg::Key(k)) => k,
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings of a value, concatenated per path, and the scalars.
    fn strings(chunks: &[&str]) -> Vec<(String, String)> {
        let mut r = JsonReader::new();
        let mut out: Vec<(String, String)> = Vec::new();
        let mut events = Vec::new();
        for c in chunks {
            events.extend(r.feed(c));
        }
        events.extend(r.finish());
        let mut open: Option<(String, String)> = None;
        for e in events {
            match e {
                JsonEvent::Text { path, text } => {
                    let p = format!("{path:?}");
                    match open.as_mut() {
                        Some((q, t)) if *q == p => t.push_str(&text),
                        _ => open = Some((p, text)),
                    }
                }
                JsonEvent::StringEnd { path } => {
                    let p = format!("{path:?}");
                    let t = open.take().map(|(_, t)| t).unwrap_or_default();
                    out.push((p, t));
                }
                JsonEvent::Scalar { path, text } => out.push((format!("{path:?}"), text)),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn any_split_reads_the_same() {
        let json = r#"{"path":"a\/b.py","old_string":"x = \"\u00e9\" \ud83d\ude00\n\ty","n":-1.5e3,"edits":[{"k":true},null,"z"]}"#;
        let whole = strings(&[json]);
        assert_eq!(whole[0].1, "a/b.py");
        assert_eq!(whole[1].1, "x = \"é\" 😀\n\ty");
        assert_eq!(whole[2].1, "-1.5e3");
        assert_eq!(whole.len(), 6);
        let chars: Vec<char> = json.chars().collect();
        for i in 0..=chars.len() {
            for j in i..=chars.len() {
                let a: String = chars[..i].iter().collect();
                let b: String = chars[i..j].iter().collect();
                let c: String = chars[j..].iter().collect();
                assert_eq!(strings(&[&a, &b, &c]), whole, "split at {i}, {j}");
            }
        }
    }

    #[test]
    fn escapes_json_does_not_define_are_kept_as_written() {
        let json = r#"{"a":"echo \$HOME \d+ \\$x"}"#;
        let whole = strings(&[json]);
        assert_eq!(whole[0].1, r"echo \$HOME \d+ \$x");
        let chars: Vec<char> = json.chars().collect();
        for i in 0..=chars.len() {
            let a: String = chars[..i].iter().collect();
            let b: String = chars[i..].iter().collect();
            assert_eq!(strings(&[&a, &b]), whole, "split at {i}");
        }
    }

    #[test]
    fn lone_surrogates_and_hostile_input_do_not_panic() {
        assert_eq!(strings(&[r#"{"a":"\ud83d x"}"#])[0].1, "\u{FFFD} x");
        assert_eq!(strings(&[r#"{"a":"\ude00"}"#])[0].1, "\u{FFFD}");
        assert_eq!(strings(&[r#"{"a":"\ud83d"}"#])[0].1, "\u{FFFD}");
        assert_eq!(strings(&[r#"{"a":"\ud83d\u0041"}"#])[0].1, "\u{FFFD}A");
        for bad in [
            "}",
            "{]",
            "{\"a\" 1}",
            "[1,,]",
            "{\"a\":tru e}",
            "\"x\" y",
            "{\"a\":1e999}",
        ] {
            let mut r = JsonReader::new();
            r.feed(bad);
            r.finish();
            assert!(r.broken().is_some(), "{bad}");
        }
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let mut r = JsonReader::new();
        r.feed(&deep);
        assert!(r.done());
    }
}
