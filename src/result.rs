//! Results of validating and applying edits, shared by every edit path.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The most characters of one line that a reason or a diagnostic quotes.
/// A file line of megabytes (minified code, data) would otherwise be copied
/// into every message that names it.
pub const MAX_QUOTED_CHARS: usize = 200;

/// `text` as a message quotes it: whole when it has at most `max`
/// characters, else its first `max` characters, then `…` and its length
/// (`… (5,242,880 characters)`). The one place every edit path cuts quotes.
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!(
            "{}… ({} characters)",
            &text[..cut],
            thousands(text.chars().count())
        )),
    }
}

/// `5242880` as `5,242,880`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What happened to one edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Written (or, for an atomic reply, part of what was written).
    Applied,
    /// A dry run found it would apply.
    Validated,
    /// It could not be located or checked; nothing was written for it.
    Failed,
    /// Not attempted: a refused path, or an earlier edit to the file failed.
    Skipped,
    /// The file was not in the model's context; not attempted (seed 000).
    NotInContext,
}

/// Why an edit did not apply. Serialised as kebab-case strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    AnchorNotFound,
    Ambiguous,
    OldMismatch,
    TrailingMismatch,
    FileNotFound,
    FileExists,
    Binary,
    PathEscape,
    PreviousFailed,
    NoOp,
    /// The reply or call was malformed (bad JSON, missing field, bad reference).
    Malformed,
    /// A hashline anchor no longer matches the file.
    StaleAnchor,
    /// Two changes to one file cover the same lines.
    Overlap,
    /// A line number beyond the end of the file.
    LineOutOfRange,
    /// Another edit in the same atomic reply failed, so nothing was written.
    AtomicAborted,
    /// The host failed to read or write.
    HostError,
    /// The file is not valid UTF-8 text.
    Encoding,
    /// The file changed since it was last read or written (by another writer).
    FileChanged,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::AnchorNotFound => "anchor-not-found",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::OldMismatch => "old-mismatch",
            ErrorKind::TrailingMismatch => "trailing-mismatch",
            ErrorKind::FileNotFound => "file-not-found",
            ErrorKind::FileExists => "file-exists",
            ErrorKind::Binary => "binary",
            ErrorKind::PathEscape => "path-escape",
            ErrorKind::PreviousFailed => "previous-failed",
            ErrorKind::NoOp => "no-op",
            ErrorKind::Malformed => "malformed",
            ErrorKind::StaleAnchor => "stale-anchor",
            ErrorKind::Overlap => "overlap",
            ErrorKind::LineOutOfRange => "line-out-of-range",
            ErrorKind::AtomicAborted => "atomic-aborted",
            ErrorKind::HostError => "host-error",
            ErrorKind::Encoding => "encoding",
            ErrorKind::FileChanged => "file-changed",
        }
    }
}

/// A file line near where an edit was aimed, with how alike it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NearLine {
    /// 1-based line number in the file.
    pub line: u32,
    pub text: String,
    /// 0.0 (nothing alike) to 1.0 (identical).
    #[serde(serialize_with = "similarity_two_places")]
    pub similarity: f32,
}

/// Writes a similarity as a short decimal (0.87, not 0.8700000047683716).
fn similarity_two_places<S: serde::Serializer>(
    value: &f32,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64((f64::from(*value) * 100.0).round() / 100.0)
}

/// Details that help a person or a model fix a failed edit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostics {
    /// Which part failed to match: `"anchor"`, `"old"` or `"trailing"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_part: Option<String>,
    /// A whitespace-only difference, named (tabs vs spaces, trailing
    /// whitespace, indentation depth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whitespace: Option<String>,
    /// The first line the model wrote that did not match, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_line: Option<String>,
    /// The closest lines in the file.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub nearest: Vec<NearLine>,
    /// How many places matched (for ambiguity) and where (1-based lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_count: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub match_lines: Vec<u32>,
}

/// The result of one edit block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EditResult {
    pub block_index: usize,
    /// The file's path, normalised (as written when it was refused). Named
    /// `path` in every result of every style (it was `filePath` here).
    #[serde(alias = "filePath")]
    pub path: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// A sentence a model can act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// 1-based line where the edit was aimed or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_line: Option<u32>,
    pub anchor_preview: String,
    pub old_preview: String,
    pub new_preview: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Diagnostics>,
    /// Which matching pass located the edit (`exact`, `trailing-whitespace`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_by: Option<String>,
    /// What was assumed to read or place this edit, so a UI can show it:
    /// the block's own [`crate::EditBlock::assumed`] (parse), then the
    /// engine's (`line-hint-tie-break`: equal candidates, the one nearest
    /// the block's line hint taken). Empty when nothing was assumed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

impl EditResult {
    /// The result of block `index` of a reply, before anything is known
    /// about it beyond `status`: its path and the previews of its sections
    /// (each cut to 50 characters), with the block's own assumptions. The
    /// one constructor of a block's result.
    pub(crate) fn for_block(
        index: usize,
        path: &str,
        block: &crate::block::EditBlock,
        status: Status,
    ) -> EditResult {
        use crate::block::preview;
        EditResult {
            block_index: index,
            path: path.to_string(),
            status,
            error_kind: None,
            reason: None,
            estimated_line: None,
            anchor_preview: preview(&block.anchor, 50),
            old_preview: preview(&block.old_lines, 50),
            new_preview: preview(&block.new_lines, 50),
            diagnostics: None,
            matched_by: None,
            assumed: block.assumed.clone(),
        }
    }
}

/// The keys of an [`EditResult`] as it serializes with every field set, in
/// order: the JS driver (`js/host-driver.js` `resultsOf`) builds each
/// result from [`result_words`] with its keys in this order. A test holds
/// this list to the struct.
#[cfg(test)]
pub(crate) const RESULT_KEYS: [&str; 12] = [
    "blockIndex",
    "path",
    "status",
    "errorKind",
    "reason",
    "estimatedLine",
    "anchorPreview",
    "oldPreview",
    "newPreview",
    "diagnostics",
    "matchedBy",
    "assumed",
];

/// Each [`Status`] by the number a result's words give it (its place in the
/// enum); the JS driver reads the names from [`result_layout_json`].
#[cfg_attr(not(all(target_arch = "wasm32", feature = "full")), allow(dead_code))]
pub(crate) const STATUSES: [Status; 5] = [
    Status::Applied,
    Status::Validated,
    Status::Failed,
    Status::Skipped,
    Status::NotInContext,
];

/// Each [`ErrorKind`] by its number less one in a result's words (its place
/// in the enum); the JS driver reads the names from [`result_layout_json`].
#[cfg_attr(not(all(target_arch = "wasm32", feature = "full")), allow(dead_code))]
pub(crate) const ERROR_KINDS: [ErrorKind; 18] = [
    ErrorKind::AnchorNotFound,
    ErrorKind::Ambiguous,
    ErrorKind::OldMismatch,
    ErrorKind::TrailingMismatch,
    ErrorKind::FileNotFound,
    ErrorKind::FileExists,
    ErrorKind::Binary,
    ErrorKind::PathEscape,
    ErrorKind::PreviousFailed,
    ErrorKind::NoOp,
    ErrorKind::Malformed,
    ErrorKind::StaleAnchor,
    ErrorKind::Overlap,
    ErrorKind::LineOutOfRange,
    ErrorKind::AtomicAborted,
    ErrorKind::HostError,
    ErrorKind::Encoding,
    ErrorKind::FileChanged,
];

// The bits of a result's third word ([`result_words`]) above its status
// (bits 0-2) and its error kind's number (bits 3-7, `0`: none): which of
// the fields an object may leave out it has.
const _: () = assert!(STATUSES.len() <= 8 && ERROR_KINDS.len() < 32);
pub(crate) const HAS_REASON: u32 = 1 << 8;
pub(crate) const HAS_ESTIMATED_LINE: u32 = 1 << 9;
pub(crate) const HAS_DIAGNOSTICS: u32 = 1 << 10;
pub(crate) const HAS_MATCHED_BY: u32 = 1 << 11;
pub(crate) const HAS_ASSUMED: u32 = 1 << 12;

/// The tables a reader of [`result_words`] needs, as JSON: the status and
/// error-kind names by number, and the `HAS_*` bits by field name. The
/// binding gives it to JS once, so no table is copied there by hand.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "full")), allow(dead_code))]
pub(crate) fn result_layout_json() -> String {
    let names = |values: Vec<serde_json::Value>| -> Vec<String> {
        values
            .into_iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect()
    };
    let statuses = names(STATUSES.iter().map(|s| serde_json::json!(s)).collect());
    let error_kinds = names(ERROR_KINDS.iter().map(|k| serde_json::json!(k)).collect());
    serde_json::json!({
        "statuses": statuses,
        "errorKinds": error_kinds,
        "has": {
            "reason": HAS_REASON,
            "estimatedLine": HAS_ESTIMATED_LINE,
            "diagnostics": HAS_DIAGNOSTICS,
            "matchedBy": HAS_MATCHED_BY,
            "assumed": HAS_ASSUMED,
        },
    })
    .to_string()
}

/// Results as numbers and strings ([`result_words`]).
#[cfg_attr(not(all(target_arch = "wasm32", feature = "full")), allow(dead_code))]
pub(crate) struct ResultWords<'a> {
    /// For each result: `blockIndex`, its path's number, the flags word
    /// (status, error kind, `HAS_*`), then, each only when its bit is set
    /// (the previews always): `reason`, `estimatedLine`, `anchorPreview`,
    /// `oldPreview`, `newPreview`, `matchedBy`, and `assumed` as its length
    /// then its strings. A string is its index in `strings`.
    pub(crate) words: Vec<u32>,
    /// The strings the words name, in order: their UTF-8 bytes one after
    /// the other decode to the text JavaScript slices each from.
    pub(crate) strings: Vec<&'a str>,
    /// Where each string ends in that text, in UTF-16 units (JavaScript's).
    pub(crate) string_ends: Vec<u32>,
    /// The diagnostics of the results that have them, in order (nested and
    /// rare, only on failures: they cross as JSON).
    pub(crate) diagnostics: Vec<&'a Diagnostics>,
}

/// How many strings [`ResultWords`] shares by value: the names a pass or an
/// assumption gives (`exact`, `path-resolved`) repeat in every result, and
/// a list this short is searched faster than hashed. A string past it is
/// written again each time (right, only longer).
const SHARED_STRINGS: usize = 32;

impl<'a> ResultWords<'a> {
    fn string(&mut self, text: &'a str) -> u32 {
        let units = if text.is_ascii() {
            text.len()
        } else {
            text.encode_utf16().count()
        };
        let end = self.string_ends.last().copied().unwrap_or(0) as usize + units;
        // Below the module's 4 GiB of memory, as every string it holds.
        self.string_ends.push(end as u32);
        self.strings.push(text);
        (self.strings.len() - 1) as u32
    }

    fn shared(&mut self, shared: &mut Vec<(&'a str, u32)>, text: &'a str) -> u32 {
        if let Some(&(_, i)) = shared.iter().find(|(s, _)| *s == text) {
            return i;
        }
        let i = self.string(text);
        if shared.len() < SHARED_STRINGS {
            shared.push((text, i));
        }
        i
    }
}

/// `results` as numbers and strings that JavaScript reads without a JSON
/// parse ([`ResultWords`]), `path(result)` the number of each result's
/// path (the binding's numbering). A reply of thousands of files spent
/// more in serializing and parsing its results as JSON values (110 KB for
/// 1,000) than in any other part of the crossing; as numbers, a status or
/// an error kind is its place in a table both sides hold, and the strings
/// are one UTF-8 text decoded once. An empty preview and the names that
/// repeat are written once and named by each result.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "full")), allow(dead_code))]
pub(crate) fn result_words<'a>(
    results: &'a [EditResult],
    mut path: impl FnMut(&'a EditResult) -> u32,
) -> ResultWords<'a> {
    let mut out = ResultWords {
        words: Vec::with_capacity(results.len() * 7),
        strings: Vec::with_capacity(results.len() * 3),
        string_ends: Vec::with_capacity(results.len() * 3),
        diagnostics: Vec::new(),
    };
    let mut shared: Vec<(&str, u32)> = Vec::new();
    for r in results {
        let mut flags = r.status as u32 | (r.error_kind.map_or(0, |k| k as u32 + 1) << 3);
        for (has, bit) in [
            (r.reason.is_some(), HAS_REASON),
            (r.estimated_line.is_some(), HAS_ESTIMATED_LINE),
            (r.diagnostics.is_some(), HAS_DIAGNOSTICS),
            (r.matched_by.is_some(), HAS_MATCHED_BY),
            (!r.assumed.is_empty(), HAS_ASSUMED),
        ] {
            if has {
                flags |= bit;
            }
        }
        // Index and position in a list: below 4 GiB, as every list the
        // module holds.
        out.words.push(r.block_index as u32);
        out.words.push(path(r));
        out.words.push(flags);
        if let Some(reason) = &r.reason {
            let i = out.string(reason);
            out.words.push(i);
        }
        if let Some(line) = r.estimated_line {
            out.words.push(line);
        }
        for preview in [&r.anchor_preview, &r.old_preview, &r.new_preview] {
            let i = if preview.is_empty() {
                out.shared(&mut shared, preview)
            } else {
                out.string(preview)
            };
            out.words.push(i);
        }
        if let Some(diagnostics) = &r.diagnostics {
            out.diagnostics.push(diagnostics);
        }
        if let Some(matched_by) = &r.matched_by {
            let i = out.shared(&mut shared, matched_by);
            out.words.push(i);
        }
        if !r.assumed.is_empty() {
            out.words.push(r.assumed.len() as u32);
            for assumed in &r.assumed {
                let i = out.shared(&mut shared, assumed);
                out.words.push(i);
            }
        }
    }
    out
}

/// Everything that happened when a reply was applied.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyResult {
    pub results: Vec<EditResult>,
    pub files_modified: Vec<String>,
    pub files_created: Vec<String>,
    /// Files deleted (a patch's delete, or the old name of a moved file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_deleted: Vec<String>,
    /// Files the model edited without having them in context (seed 000).
    pub files_auto_added: Vec<String>,
    pub shell_suggestions: Vec<String>,
    /// Prepared when some edits failed as ambiguous; never sent by us.
    pub retry_prompt: Option<String>,
    /// Each file the call changed (or, in a dry run, would change): its
    /// content before and after, in first-changed order.
    #[serde(default)]
    pub file_changes: Vec<FileChange>,
    /// The blocks of a reply that were dropped while it was read (a block
    /// cut short, a path that names no file, a patch without its headers):
    /// nothing of them was applied, and each says why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discarded: Vec<DiscardedBlock>,
}

/// A block of a reply dropped while the reply was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscardedBlock {
    /// The 1-based line of the reply where the block starts.
    pub line_number: u32,
    /// The file the block was for, when its path was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The sentence saying what was wrong and what would fix it.
    pub reason: String,
}

#[cfg(test)]
mod clip_tests {
    use super::*;

    #[test]
    fn a_block_result_previews_the_first_line_of_each_part() {
        let block = crate::block::EditBlock::new(
            crate::block::Format::SearchReplace,
            "a.txt",
            "ééééé\nsecond",
            "x".repeat(60),
        );
        let r = EditResult::for_block(0, "a.txt", &block, Status::Applied);
        assert_eq!(r.old_preview, "ééééé");
        assert_eq!(r.new_preview, "x".repeat(50));
        assert_eq!(
            EditResult::for_block(
                0,
                "a.txt",
                &crate::block::EditBlock::new(
                    crate::block::Format::SearchReplace,
                    "a.txt",
                    "é".repeat(60),
                    ""
                ),
                Status::Applied
            )
            .old_preview,
            "é".repeat(50)
        );
    }

    /// The objects `words` stand for, as JSON text built the way
    /// `js/host-driver.js` `resultsOf` builds them: keys in the order it
    /// sets them, strings sliced in UTF-16 units from their one text, names
    /// from the shared tables, a path by its number in `paths`.
    fn objects_of_words(words: &ResultWords, paths: &[&str]) -> Vec<String> {
        let text: Vec<u16> = words.strings.concat().encode_utf16().collect();
        let string = |i: u32| {
            let i = i as usize;
            let start = if i == 0 { 0 } else { words.string_ends[i - 1] };
            let units = &text[start as usize..words.string_ends[i] as usize];
            serde_json::to_string(&String::from_utf16(units).unwrap()).unwrap()
        };
        let name = |v: &dyn erased::Named| v.name();
        let json = |s: &str| serde_json::to_string(s).unwrap();
        let w = &words.words;
        let mut at = 0;
        let mut diagnostics = words.diagnostics.iter();
        let mut objects = Vec::new();
        while at < w.len() {
            let mut fields: Vec<(&str, String)> = Vec::new();
            let flags = w[at + 2];
            fields.push(("blockIndex", w[at].to_string()));
            fields.push(("path", json(paths[w[at + 1] as usize])));
            fields.push(("status", json(&name(&STATUSES[(flags & 7) as usize]))));
            at += 3;
            if flags >> 3 & 31 != 0 {
                let kind = ERROR_KINDS[(flags >> 3 & 31) as usize - 1];
                fields.push(("errorKind", json(&name(&kind))));
            }
            if flags & HAS_REASON != 0 {
                fields.push(("reason", string(w[at])));
                at += 1;
            }
            if flags & HAS_ESTIMATED_LINE != 0 {
                fields.push(("estimatedLine", w[at].to_string()));
                at += 1;
            }
            for key in ["anchorPreview", "oldPreview", "newPreview"] {
                fields.push((key, string(w[at])));
                at += 1;
            }
            if flags & HAS_DIAGNOSTICS != 0 {
                let d = diagnostics.next().expect("one diagnostics per bit");
                fields.push(("diagnostics", serde_json::to_string(d).unwrap()));
            }
            if flags & HAS_MATCHED_BY != 0 {
                fields.push(("matchedBy", string(w[at])));
                at += 1;
            }
            if flags & HAS_ASSUMED != 0 {
                let n = w[at] as usize;
                let list: Vec<String> = (0..n).map(|k| string(w[at + 1 + k])).collect();
                fields.push(("assumed", format!("[{}]", list.join(","))));
                at += 1 + n;
            }
            let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
            let mut in_order = RESULT_KEYS.iter().filter(|k| keys.contains(k));
            assert!(
                keys.iter().all(|k| in_order.next() == Some(k)),
                "{keys:?} in RESULT_KEYS' order"
            );
            let body: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v))
                .collect();
            objects.push(format!("{{{}}}", body.join(",")));
        }
        assert!(diagnostics.next().is_none(), "no diagnostics left over");
        objects
    }

    /// A status or error kind by its serde name.
    mod erased {
        pub trait Named {
            fn name(&self) -> String;
        }
        impl<T: serde::Serialize> Named for T {
            fn name(&self) -> String {
                serde_json::to_value(self)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            }
        }
    }

    #[test]
    fn the_words_of_each_result_build_its_object_byte_for_byte() {
        let block = crate::block::EditBlock::new(
            crate::block::Format::SearchReplace,
            "a.txt",
            "old",
            "new",
        );
        let bare = EditResult::for_block(3, "a.txt", &block, Status::Applied);
        let mut full = EditResult::for_block(4, "b \"c\".txt", &block, Status::Failed);
        full.error_kind = Some(ErrorKind::Ambiguous);
        full.reason = Some("Two places.\nAdd context: “é” 😀.".into());
        full.estimated_line = Some(u32::MAX);
        full.anchor_preview = "fn é() {".into();
        full.new_preview = "\u{feff}😀 \"x\"\t\\".into();
        full.diagnostics = Some(Diagnostics {
            failed_part: Some("old".into()),
            nearest: vec![NearLine {
                line: 2,
                text: "x".into(),
                similarity: 0.5,
            }],
            match_count: Some(2),
            match_lines: vec![3, 9],
            ..Default::default()
        });
        full.matched_by = Some("exact".into());
        full.assumed = vec!["path-resolved".into(), "line-hint-tie-break".into()];
        // Every field set gives every key of RESULT_KEYS, and no other, in
        // that order.
        let text = serde_json::to_string(&full).unwrap();
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).unwrap();
        assert_eq!(
            object.len(),
            RESULT_KEYS.len(),
            "RESULT_KEYS lists every field"
        );
        let at: Vec<usize> = RESULT_KEYS
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).expect(k))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "in the struct's order");
        // Every status and error kind, each field alone and all together,
        // with names that repeat: each result's object comes back as the
        // whole-JSON conversion writes it.
        let mut results = vec![bare.clone(), full.clone(), full.clone()];
        for (i, status) in STATUSES.iter().enumerate() {
            let mut r = bare.clone();
            r.status = *status;
            r.old_preview = format!("line {i}");
            results.push(r);
        }
        for kind in ERROR_KINDS {
            let mut r = bare.clone();
            r.status = Status::Failed;
            r.error_kind = Some(kind);
            r.new_preview = String::new();
            results.push(r);
        }
        let alone: [fn(&mut EditResult, &EditResult); 6] = [
            |r, f| r.reason = f.reason.clone(),
            |r, f| r.estimated_line = f.estimated_line,
            |r, f| r.diagnostics = f.diagnostics.clone(),
            |r, f| r.matched_by = f.matched_by.clone(),
            |r, f| r.assumed = f.assumed.clone(),
            |r, _| r.estimated_line = Some(0),
        ];
        for set in alone {
            let mut r = bare.clone();
            set(&mut r, &full);
            results.push(r);
        }
        for (i, r) in results.iter_mut().enumerate() {
            r.block_index = i;
        }
        let paths: Vec<&str> = results.iter().map(|r| r.path.as_str()).collect();
        let words = result_words(&results, |r| r.block_index as u32);
        let objects = objects_of_words(&words, &paths);
        assert_eq!(objects.len(), results.len());
        for (r, object) in results.iter().zip(&objects) {
            assert_eq!(object, &serde_json::to_string(r).unwrap());
        }
        // A name that repeats is one string, named by each result.
        let exact = words.strings.iter().filter(|s| **s == "exact").count();
        assert_eq!(exact, 1);
    }

    /// The layout names each status and error kind by its number as serde
    /// names it, and every number is the variant's place in its enum.
    #[test]
    fn the_result_layout_names_statuses_and_error_kinds_as_the_core_numbers_them() {
        use erased::Named;
        let layout: serde_json::Value = serde_json::from_str(&result_layout_json()).unwrap();
        let statuses: Vec<String> = STATUSES.iter().map(|s| s.name()).collect();
        let kinds: Vec<String> = ERROR_KINDS.iter().map(|k| k.name()).collect();
        assert_eq!(layout["statuses"], serde_json::json!(statuses));
        assert_eq!(layout["errorKinds"], serde_json::json!(kinds));
        assert_eq!(layout["errorKinds"][15], "host-error");
        assert_eq!(layout["has"]["assumed"], HAS_ASSUMED);
        for (i, s) in STATUSES.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        for (i, k) in ERROR_KINDS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
    }

    #[test]
    fn long_lines_are_cut_with_their_length() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("ééé", 3), "ééé");
        assert_eq!(
            clip(&"x".repeat(5_242_880), 3),
            "xxx… (5,242,880 characters)"
        );
        assert_eq!(clip("éééé", 2), "éé… (4 characters)");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }
}

/// One file's content before and after a call: what a UI shows for
/// accept/reject, or hands to an editor's own edit and undo machinery.
///
/// `before: None` means the file is created, `after: None` that it is
/// deleted. Both are the full text as it is (or would be) on disk: line
/// endings, BOM and final newline included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileChange {
    pub path: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// The path the file was moved from (a rename); `before` is then that
    /// file's content, and the old path no longer exists afterwards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
}
