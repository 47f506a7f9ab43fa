//! Apply results as numbers and strings: what `js/host-driver.js` reads
//! without a JSON parse ([`result_words`]), and the tables it reads them
//! with ([`result_layout_json`]), given to JS once at load.

#[cfg(test)]
use editblocks::NearLine;
use editblocks::{Diagnostics, EditResult, ErrorKind, Status};

/// The keys of an [`EditResult`] as it serializes with every field set, in
/// order: the JS driver (`js/host-driver.js` `resultsOf`) builds each
/// result from [`result_words`] with its keys in this order. A test holds
/// this list to the struct.
#[cfg(test)]
pub const RESULT_KEYS: [&str; 12] = [
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
pub const STATUSES: [Status; 5] = [
    Status::Applied,
    Status::Validated,
    Status::Failed,
    Status::Skipped,
    Status::NotInContext,
];

/// Each [`ErrorKind`] by its number less one in a result's words (its place
/// in the enum); the JS driver reads the names from [`result_layout_json`].
pub const ERROR_KINDS: [ErrorKind; 18] = [
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
pub const HAS_REASON: u32 = 1 << 8;
pub const HAS_ESTIMATED_LINE: u32 = 1 << 9;
pub const HAS_DIAGNOSTICS: u32 = 1 << 10;
pub const HAS_MATCHED_BY: u32 = 1 << 11;
pub const HAS_ASSUMED: u32 = 1 << 12;

/// How the driver undoes each write and delete should a later host call
/// fail, as the core decided it ([`editblocks::Undo`]), by the number it
/// crosses as (its place here) and the name [`result_layout_json`] gives it.
pub const UNDOS: [(editblocks::Undo, &str); 3] = [
    (editblocks::Undo::Delete, "delete"),
    (editblocks::Undo::WriteBackText, "write-back-text"),
    (editblocks::Undo::WriteBackBytes, "write-back-bytes"),
];

/// `undo`'s number: its place in [`UNDOS`].
pub fn undo_code(undo: editblocks::Undo) -> u32 {
    UNDOS.iter().position(|(u, _)| *u == undo).unwrap_or(0) as u32
}

/// The tables a reader of [`result_words`] needs, as JSON: the status and
/// error-kind names by number, and the `HAS_*` bits by field name. The
/// binding gives it to JS once, so no table is copied there by hand.
pub fn result_layout_json() -> String {
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
        "undos": UNDOS.map(|(_, name)| name),
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

/// The options each applying function takes, and what each takes, as
/// `js/options.js` checks them (`'boolean'`, `'string'`, `'count'`: a whole
/// number from 0, `'integer'`, `'string[]'`, `'folder[]'`: folders named
/// exactly, `'enum:NAME'`: one of [`option_names_json`]'s `NAME`, and
/// `'session'`: an `EditSession`, which the JavaScript layer turns into the
/// history and listings of [`editblocks::tools::ToolOptions`]). Each list is
/// the fields of the Rust options type the binding reads (a test holds them
/// equal), so a misspelt option is refused by name in JavaScript instead of
/// being read as absent.
pub const OPTION_SCHEMAS: [(&str, &[(&str, &str)]); 3] = [
    (
        "applyEdits",
        &[
            ("dryRun", "boolean"),
            ("stage", "boolean"),
            ("mode", "enum:mode"),
            ("matching", "enum:matching"),
            ("inContext", "string[]"),
            ("trailingNewline", "enum:trailingNewline"),
            ("overwrite", "boolean"),
            ("formats", "string[]"),
            ("knownFiles", "string[]"),
            ("allowFolders", "folder[]"),
        ],
    ),
    (
        "applyToolCalls",
        &[
            ("dryRun", "boolean"),
            ("stage", "boolean"),
            ("matching", "enum:matching"),
            ("trailingNewline", "enum:trailingNewline"),
            ("allowFolders", "folder[]"),
            ("overwrite", "boolean"),
            ("maxCharacters", "count"),
            ("projectDir", "string"),
            ("session", "session"),
        ],
    ),
    (
        "applyHashlineEdit",
        &[
            ("width", "integer"),
            ("allowReplaceText", "boolean"),
            ("dryRun", "boolean"),
            ("overwrite", "boolean"),
            ("stage", "boolean"),
            ("allowFolders", "folder[]"),
        ],
    ),
];

/// [`OPTION_SCHEMAS`] as JSON: `{ "applyEdits": { "dryRun": "boolean", … }, … }`,
/// each function's options in their order.
pub fn option_schemas_json() -> String {
    /// Pairs written as a JSON object in their order (a refusal lists the
    /// known options in it).
    struct InOrder<'a, V>(&'a [(&'a str, V)]);
    impl<V: serde::Serialize> serde::Serialize for InOrder<'_, V> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    let schemas: Vec<(&str, InOrder<&str>)> = OPTION_SCHEMAS
        .iter()
        .map(|&(function, options)| (function, InOrder(options)))
        .collect();
    serde_json::to_string(&InOrder(&schemas)).unwrap_or_default()
}

/// The names each enumerated option takes, as JSON (`{ "mode": ["sequential",
/// "atomic"], … }`): the core's lists, in the order refusals list them.
/// `js/options.js` checks options against them (`'enum:mode'` in a spec),
/// so no list of names is copied into JavaScript by hand.
pub fn option_names_json() -> String {
    use editblocks::engine::Mode;
    use editblocks::render::{Layout, Theme};
    use editblocks::text::TrailingNewline;
    use editblocks::tools::{DiffMode, Matching, SchemaApi};
    serde_json::json!({
        "diffMode": DiffMode::DIFF_MODE_NAMES,
        "providerTool": DiffMode::PROVIDER_TOOL_NAMES,
        "mode": Mode::NAMES,
        "matching": Matching::NAMES,
        "trailingNewline": TrailingNewline::NAMES,
        "theme": Theme::NAMES,
        "layout": Layout::NAMES,
        "api": SchemaApi::NAMES,
    })
    .to_string()
}

/// Results as numbers and strings ([`result_words`]).
pub struct ResultWords<'a> {
    /// For each result: `blockIndex`, its path's number, the flags word
    /// (status, error kind, `HAS_*`), then, each only when its bit is set
    /// (the previews always): `reason`, `estimatedLine`, `anchorPreview`,
    /// `oldPreview`, `newPreview`, `matchedBy`, and `assumed` as its length
    /// then its strings. A string is its index in `strings`.
    pub words: Vec<u32>,
    /// The strings the words name, in order: their UTF-8 bytes one after
    /// the other decode to the text JavaScript slices each from.
    pub strings: Vec<&'a str>,
    /// Where each string ends in that text, in UTF-16 units (JavaScript's).
    pub string_ends: Vec<u32>,
    /// The diagnostics of the results that have them, in order (nested and
    /// rare, only on failures: they cross as JSON).
    pub diagnostics: Vec<&'a Diagnostics>,
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
pub fn result_words<'a>(
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // A block's result as the core makes it: its path and previews.
        let of_block = |index: usize, path: &str, status: Status| EditResult {
            block_index: index,
            path: path.to_string(),
            status,
            error_kind: None,
            reason: None,
            estimated_line: None,
            anchor_preview: String::new(),
            old_preview: "old".into(),
            new_preview: "new".into(),
            diagnostics: None,
            matched_by: None,
            assumed: Vec::new(),
        };
        let bare = of_block(3, "a.txt", Status::Applied);
        let mut full = of_block(4, "b \"c\".txt", Status::Failed);
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
        // Each undo crosses as its place, named there in the layout.
        for (i, (undo, name)) in UNDOS.iter().enumerate() {
            assert_eq!(undo_code(*undo) as usize, i);
            assert_eq!(layout["undos"][i], *name);
        }
    }
}
