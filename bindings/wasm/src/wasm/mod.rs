//! The JavaScript binding: every `#[wasm_bindgen]` item lives under this
//! module, one file per feature, and converts types at the boundary. The
//! core never sees a `JsValue`.

#[cfg(feature = "preview")]
use serde::de::DeserializeOwned;
#[cfg(feature = "preview")]
use serde::Serialize;
use wasm_bindgen::prelude::*;

// Without the `full` feature (the `editblocks/lite` build) only parsing and
// rendering are bound; the rest of the core is then never linked in.
#[cfg(feature = "full")]
mod engine;
#[cfg(feature = "full")]
mod hashline;
mod parser;
#[cfg(feature = "preview")]
mod preview;
mod read;
mod render;
#[cfg(feature = "full")]
mod tools;

#[wasm_bindgen(start)]
fn start() {
    // The full module logs a panic's message to the console; `editblocks/lite`
    // leaves the hook (and the formatting it links) out: a panic still
    // throws, and js/guard.js still replaces the trapped instance.
    #[cfg(feature = "full")]
    console_error_panic_hook::set_once();
    #[cfg(not(feature = "full"))]
    editblocks::diff::set_grapheme_segmenter(render::host_grapheme_starts);
}

/// Converts a core value to a plain JS object (maps as objects, `None` as
/// `undefined` where the field is skipped).
#[cfg(feature = "preview")]
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| {
            JsError::new(&format!(
                "editblocks: could not convert a result to JavaScript: {e}"
            ))
        })
}

/// Converts a JS value to a core type; `what` names the argument in the error.
/// (`editblocks/lite` reads its arguments without serde: `read`.)
#[cfg(feature = "preview")]
pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("editblocks: invalid {what}: {e}")))
}

/// `undefined` and `null` become the default; anything else is converted.
#[cfg(feature = "full")]
pub(crate) fn from_js_or_default<T: DeserializeOwned + Default>(
    value: JsValue,
    what: &str,
) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        Ok(T::default())
    } else {
        from_js(value, what)
    }
}

/// Builds a [`editblocks::MemoryHost`] from the snapshot the JS driver read
/// (`js/host-driver.js`): packed as an array (see [`packed_snapshot`]), or an
/// object mapping each path to a string, a `Uint8Array`, `null` (no such
/// file) or `{ error, kind? }` (the read failed; `kind: 'path-escape'` when
/// the host refused a path leading outside the root).
#[cfg(feature = "full")]
pub(crate) fn snapshot_host(files: &JsValue) -> Result<editblocks::MemoryHost, JsError> {
    use js_sys::{Object, Uint8Array};
    let mut host = editblocks::MemoryHost::new();
    // The binding never looks at which paths were read: no copy of each.
    host.stop_read_log();
    if files.is_undefined() || files.is_null() {
        return Ok(host);
    }
    let object: &Object = files
        .dyn_ref()
        .ok_or_else(|| JsError::new("editblocks: the file snapshot must be an object"))?;
    if let Some(packed) = files.dyn_ref::<js_sys::Array>() {
        return packed_snapshot(packed, host);
    }
    let mut read = editblocks::apply::PathSet::default();
    for entry in Object::entries(object).iter() {
        let pair: js_sys::Array = entry.into();
        let path = pair.get(0).as_string().unwrap_or_default();
        read.insert(path.clone());
        let value = pair.get(1);
        if let Some(text) = value.as_string() {
            host.files.insert(path, text.into_bytes());
        } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
            host.files.insert(path, bytes.to_vec());
        } else if value.is_object() {
            read_failed(&mut host, path, &value);
        }
    }
    host.snapshot_of = Some(read);
    Ok(host)
}

/// A path whose read failed (`{ error, kind? }`): unreadable, and refused
/// as leading outside the root when `kind` is `'path-escape'`, or as changed
/// on disk under the run twice when it is `'file-changed'`.
#[cfg(feature = "full")]
fn read_failed(host: &mut editblocks::MemoryHost, path: String, value: &JsValue) {
    use js_sys::Reflect;
    let message = Reflect::get(value, &JsValue::from_str("error"))
        .ok()
        .and_then(|v| v.as_string());
    let kind = Reflect::get(value, &JsValue::from_str("kind"))
        .ok()
        .and_then(|v| v.as_string());
    match kind.as_deref() {
        Some("path-escape") => {
            host.escapes.insert(path.clone());
        }
        Some("file-changed") => {
            host.changed_on_disk.insert(path.clone());
        }
        _ => {}
    }
    host.unreadable.insert(
        path,
        message.unwrap_or_else(|| "the host could not read this file".into()),
    );
}

/// The packed snapshot `js/host-driver.js` (`forCore`) gives, as the array
/// `[used, ends, pathEnds, others, failing?]` (read by position: an object's fields
/// each cost a key string made and looked up): every file's bytes one after
/// the other, then every path's; `used` where the files' bytes end, `ends[i]` where path `i`'s file bytes end, `pathEnds[i]` where
/// path `i` ends (its UTF-8 after the files'), and `others[i]` for a path
/// with no bytes (`null`: no such file; `{ error, kind? }`: the read
/// failed). `failing`, after a host call failed while the changes were
/// written, names the calls that failed (that write, and each file that
/// could not be put back; or the staging) so that the run decides what the
/// failure leaves on disk and says it. The bytes are the room [`snapshot_room`] made (the driver
/// encoded the texts and paths straight into the module's memory). The host
/// lends each file from that one buffer: a file is copied once, when read.
#[cfg(feature = "full")]
fn packed_snapshot(
    packed: &js_sys::Array,
    mut host: editblocks::MemoryHost,
) -> Result<editblocks::MemoryHost, JsError> {
    use js_sys::Uint32Array;
    let bad = || JsError::new("editblocks: the packed file snapshot is malformed");
    if !(4..=5).contains(&packed.length()) {
        return Err(bad());
    }
    let ends = packed
        .get(1)
        .dyn_into::<Uint32Array>()
        .map_err(|_| bad())?
        .to_vec();
    let path_ends = packed
        .get(2)
        .dyn_into::<Uint32Array>()
        .map_err(|_| bad())?
        .to_vec();
    let used = packed.get(0).as_f64().ok_or_else(bad)?;
    let mut bytes = SNAPSHOT_ROOM.with(|room| std::mem::take(&mut *room.borrow_mut()));
    if ends.len() != path_ends.len() || used < 0.0 || used > bytes.len() as f64 {
        return Err(bad());
    }
    let used = used as usize;
    let others: js_sys::Array = packed.get(3).dyn_into().map_err(|_| bad())?;
    let mut lent = Vec::with_capacity(ends.len());
    let (mut start, mut path_start) = (0usize, used);
    for (i, (&end, &path_end)) in ends.iter().zip(&path_ends).enumerate() {
        let (end, path_end) = (end as usize, path_end as usize);
        let path = match bytes.get(path_start..path_end) {
            Some(path) => String::from_utf8_lossy(path).into_owned(),
            None => return Err(bad()),
        };
        path_start = path_end;
        let other = if end == start {
            Some(others.get(i as u32))
        } else {
            None
        };
        let held = match other {
            // An empty file.
            Some(v) if v.is_undefined() => Some(start..start),
            // No such file.
            Some(v) if v.is_null() => None,
            Some(v) => {
                read_failed(&mut host, path.clone(), &v);
                None
            }
            None if end < start || end > used => return Err(bad()),
            None => Some(start..end),
        };
        lent.push((path, held));
        start = end;
    }
    // Only the files' bytes are lent (the paths were read out above), each
    // path at its position in the driver's list.
    bytes.truncate(used);
    host.lend_snapshot(bytes, lent).map_err(|_| bad())?;
    if packed.length() == 5 {
        // The host calls that failed on the real host, replayed: `[path,
        // succeeding, message, ...]` (see `MemoryHost::fail_call`; a `null`
        // path: `MemoryHost::fail_stage`).
        let failing: js_sys::Array = packed.get(4).dyn_into().map_err(|_| bad())?;
        for at in (0..failing.length()).step_by(3) {
            let message = failing.get(at + 2).as_string().unwrap_or_default();
            // `null` for the path: the staging failed.
            if failing.get(at).is_null() {
                host.fail_stage(message);
                continue;
            }
            let path = failing.get(at).as_string().ok_or_else(bad)?;
            let succeeding = failing.get(at + 1).as_f64().ok_or_else(bad)?;
            host.fail_call(
                &path,
                succeeding.clamp(0.0, u32::MAX as f64) as u32,
                message,
            );
        }
    }
    Ok(host)
}

#[cfg(feature = "full")]
thread_local! {
    /// The room [`snapshot_room`] made, until [`packed_snapshot`] takes it.
    static SNAPSHOT_ROOM: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Room for a snapshot's bytes in the module's own memory, as a view the
/// driver (`js/host-driver.js` `forCore`) encodes the file texts into: they
/// are then copied once on the way in (TextEncoder's `encodeInto`), not
/// into a JavaScript buffer first and then into the module. The first
/// `keep` bytes of the room made before are kept (the driver asks for more
/// when a text is not ASCII). The view is only valid until the module next
/// allocates: the driver writes into it before calling in again.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = snapshotRoom)]
pub fn snapshot_room(len: u32, keep: u32) -> js_sys::Uint8Array {
    // The driver read the last run's output before this run began.
    CHANGES_OUT.with(|out| *out.borrow_mut() = (Vec::new(), Vec::new()));
    SNAPSHOT_ROOM.with(|room| {
        let mut room = room.borrow_mut();
        room.truncate(keep as usize);
        room.resize(len as usize, 0);
        memory_view(&room)
    })
}

/// A result that carries each changed file's content before and after
/// (`fileChanges`): those texts cross the boundary apart from the JSON.
#[cfg(feature = "full")]
pub(crate) trait WithFileChanges: Serialize {
    fn file_changes_mut(&mut self) -> &mut Vec<editblocks::apply::FileChange>;

    /// The per-edit results and modified files, taken out to cross as
    /// numbers ([`crate::results::result_words`], [`Numbers`]); `None`: they
    /// cross in the result.
    fn take_rows(&mut self) -> Option<(Vec<editblocks::EditResult>, Vec<String>)> {
        None
    }

    /// The host call that failed while the changes were written.
    fn host_failure(&self) -> Option<&editblocks::apply::HostFailure>;
}

#[cfg(feature = "full")]
impl WithFileChanges for editblocks::ApplyResult {
    fn file_changes_mut(&mut self) -> &mut Vec<editblocks::apply::FileChange> {
        &mut self.file_changes
    }

    fn host_failure(&self) -> Option<&editblocks::apply::HostFailure> {
        self.host_failure.as_ref()
    }

    fn take_rows(&mut self) -> Option<(Vec<editblocks::EditResult>, Vec<String>)> {
        Some((
            std::mem::take(&mut self.results),
            std::mem::take(&mut self.files_modified),
        ))
    }
}

#[cfg(feature = "full")]
impl WithFileChanges for editblocks::tools::ToolApplyResult {
    fn file_changes_mut(&mut self) -> &mut Vec<editblocks::apply::FileChange> {
        &mut self.file_changes
    }

    fn host_failure(&self) -> Option<&editblocks::apply::HostFailure> {
        self.host_failure.as_ref()
    }
}

#[cfg(feature = "full")]
impl WithFileChanges for editblocks::hashline::HashlineResult {
    fn file_changes_mut(&mut self) -> &mut Vec<editblocks::apply::FileChange> {
        &mut self.file_changes
    }

    fn host_failure(&self) -> Option<&editblocks::apply::HostFailure> {
        self.host_failure.as_ref()
    }
}

/// The paths the driver read, by position in the list it was given
/// (`pathsJson`): such a path crosses as that number.
#[cfg(feature = "full")]
pub(crate) type PathIndex<'a> = std::collections::HashMap<
    &'a str,
    usize,
    std::hash::BuildHasherDefault<editblocks::apply::PathHasher>,
>;

/// A path as it crosses: its position in the driver's list when it is
/// there, else the path.
#[cfg(feature = "full")]
#[derive(Clone, Copy)]
enum PathRef<'a> {
    At(usize),
    Named(&'a str),
}

#[cfg(feature = "full")]
impl Serialize for PathRef<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            PathRef::At(i) => s.serialize_u64(i as u64),
            PathRef::Named(path) => s.serialize_str(path),
        }
    }
}

/// Where the driver's list of paths is known: the snapshot host's own
/// positions (a packed snapshot, read in the list's order: no index to
/// build), else `index`.
#[cfg(feature = "full")]
#[derive(Clone, Copy)]
struct Positions<'a> {
    host: &'a editblocks::MemoryHost,
    index: Option<&'a PathIndex<'a>>,
}

#[cfg(feature = "full")]
impl<'a> Positions<'a> {
    /// `path` as it crosses, given its position in the host if known.
    fn name(&self, path: &'a str, in_host: Option<usize>) -> PathRef<'a> {
        let index = || self.index.and_then(|index| index.get(path).copied());
        match in_host.or_else(index) {
            Some(i) => PathRef::At(i),
            None => PathRef::Named(path),
        }
    }

    fn of(&self, path: &'a str) -> PathRef<'a> {
        self.name(path, self.host.position(path))
    }
}

/// What the JS driver replays onto the real host after the core ran, as the
/// JSON half: the lists that grow with the files cross apart, as numbers
/// ([`Numbers`]), and every file text as bytes after the JSON.
#[cfg(feature = "full")]
#[derive(Serialize)]
struct HostChanges<'a, R> {
    /// The result, with `fileChanges` (and, for an `ApplyResult`, `results`
    /// and `filesModified`) empty: they cross as numbers.
    result: &'a R,
    deletes: Vec<&'a str>,
    /// Each delete's undo ([`crate::results::undo_code`]), in the order of `deletes`.
    #[serde(rename = "deleteUndo")]
    delete_undo: Vec<u32>,
    stage: Vec<&'a str>,
    /// How many texts, writes and file changes the numbers hold, in that
    /// order, then, when the results were taken out (else `null`), how
    /// many paths `filesModified`, strings and results.
    counts: [Option<usize>; 6],
    /// The paths the numbers name that the driver did not read (a path
    /// number `2k + 1` is `names[k]`).
    names: Vec<&'a str>,
    /// The diagnostics of the results that have them, in order
    /// ([`crate::results::ResultWords`]).
    #[serde(rename = "resultDiagnostics", skip_serializing_if = "Vec::is_empty")]
    result_diagnostics: Vec<&'a editblocks::Diagnostics>,
    /// The host call that failed while the changes were written, as the
    /// driver throws it (`HostFailureError`).
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<ThrownFailure>,
}

/// A host call that failed while checked changes were written, as the
/// driver's `HostFailureError` says it: the call, its error, and which
/// files were put back, which still hold the new content, and which were
/// never touched.
#[cfg(feature = "full")]
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ThrownFailure {
    message: String,
    /// The paths that still hold new content (putting them back failed too).
    changed: Vec<String>,
    /// The paths written and then put back.
    rolled_back: Vec<String>,
    /// The paths as they were before the call: put back, or never written.
    not_changed: Vec<String>,
}

#[cfg(feature = "full")]
impl ThrownFailure {
    fn of(failure: &editblocks::apply::HostFailure) -> ThrownFailure {
        use editblocks::apply::listed;
        let restored = listed(&failure.restored);
        let state = match failure.not_restored.is_empty() {
            true => format!("Rolled back: {restored}; every file is as it was before. Fix the host problem, then apply the reply again."),
            false => {
                let why: Vec<String> =
                    failure.not_restored.iter().map(|(path, e)| format!("{path} ({e})")).collect();
                format!(
                    "Rolled back: {restored}; could not restore: {} — those files still hold the new content. Not changed: {}. Fix the host problem, then restore or re-apply by hand.",
                    why.join(", "),
                    listed(&failure.not_attempted)
                )
            }
        };
        let method = if failure.deleting {
            "deleteFile"
        } else {
            "writeFile"
        };
        let path = serde_json::to_string(&failure.path).unwrap_or_default();
        ThrownFailure {
            message: format!(
                "editblocks: host.{method}({path}) failed: {}. {state} What is on disk is in error.result.",
                failure.error
            ),
            changed: failure.not_restored.iter().map(|(path, _)| path.clone()).collect(),
            rolled_back: failure.restored.clone(),
            not_changed: failure.restored.iter().chain(&failure.not_attempted).cloned().collect(),
        }
    }
}

/// The lists of [`HostChanges`] that grow with the files, as one array of
/// `u32` the driver reads in place (a view of the module's memory: nothing
/// to decode or parse; as JSON numbers, about 40 KB for 1,000 files, they
/// cost serde_json, TextDecoder and JSON.parse each a pass). In order:
/// - for each text, where it ends in the bytes after the JSON;
/// - for each write, `path, text, undo` ([`crate::results::undo_code`]);
/// - for each of `result.fileChanges`, `path, before, after, movedFrom,
///   beforeFromSnapshot`: `before` and `after` a text index plus one (`0`:
///   none), `movedFrom` `0` when not moved, and `beforeFromSnapshot` the
///   path whose text as the snapshot gave it is `before` (the driver holds
///   it already, so it does not cross back; `js/host-driver.js` sets it),
///   else `0`;
/// - for an `ApplyResult`, `filesModified`'s paths, then where each of
///   its results' strings ends (UTF-16 units of their text, the bytes
///   after the file texts), then its results' words
///   ([`crate::results::result_words`]).
///
/// A path is a number: `2i + 2` for position `i` of the list the driver
/// read ([`PathRef::At`]), `2k + 1` for `names[k]`.
#[cfg(feature = "full")]
struct Numbers<'a> {
    values: Vec<u32>,
    names: Vec<&'a str>,
}

#[cfg(feature = "full")]
impl<'a> Numbers<'a> {
    /// A position or index as a `u32`: below the module's 4 GiB of memory,
    /// as every list and text it indexes.
    fn push(&mut self, n: usize) {
        self.values.push(n as u32);
    }

    fn path(&mut self, path: PathRef<'a>) {
        let n = Self::path_number(&mut self.names, path);
        self.values.push(n);
    }

    /// `path`'s number, `names` given the path when it has no position.
    fn path_number(names: &mut Vec<&'a str>, path: PathRef<'a>) -> u32 {
        match path {
            PathRef::At(i) => (2 * i + 2) as u32,
            PathRef::Named(name) => {
                names.push(name);
                (2 * names.len() - 1) as u32
            }
        }
    }

    fn path_or_none(&mut self, path: Option<PathRef<'a>>) {
        match path {
            Some(path) => self.path(path),
            None => self.push(0),
        }
    }

    fn text_or_none(&mut self, text: Option<usize>) {
        self.push(text.map_or(0, |i| i + 1));
    }
}

/// The paths of the file changes as they cross, reused for the results and
/// `filesModified`, which name the same paths, mostly in the same order: a
/// path equal to the last one named, or to the next change's, needs no
/// lookup (a reply of thousands of files looked each up three times).
#[cfg(feature = "full")]
struct KnownPaths<'a, 'k> {
    positions: Positions<'a>,
    known: &'k [(&'a str, PathRef<'a>)],
    next: std::cell::Cell<usize>,
    last: std::cell::Cell<Option<(&'a str, PathRef<'a>)>>,
}

#[cfg(feature = "full")]
impl<'a, 'k> KnownPaths<'a, 'k> {
    fn new(positions: Positions<'a>, known: &'k [(&'a str, PathRef<'a>)]) -> Self {
        KnownPaths {
            positions,
            known,
            next: std::cell::Cell::new(0),
            last: std::cell::Cell::new(None),
        }
    }

    fn of(&self, path: &'a str) -> PathRef<'a> {
        if let Some((last, name)) = self.last.get() {
            if last == path {
                return name;
            }
        }
        let next = self.next.get();
        let name = match self.known.get(next) {
            Some(&(known, name)) if known == path => {
                self.next.set(next + 1);
                name
            }
            _ => self.positions.of(path),
        };
        self.last.set(Some((path, name)));
        name
    }
}

#[cfg(feature = "full")]
type ChangeRow<'a> = (
    PathRef<'a>,
    Option<usize>,
    Option<usize>,
    Option<PathRef<'a>>,
    Option<PathRef<'a>>,
);

/// Packs the operations a snapshot host recorded, in order, with `result`:
/// `{ result, writes: [{ path, content }], deletes, stage }` once the
/// driver has read it.
///
/// The structure is one JSON text (one string instead of an object built
/// call by call: a reply touching 1,000 files builds ~30,000 values), but
/// the file texts are not in it: escaping, decoding and parsing them as
/// JSON cost more than the edits. Each distinct text is written once after
/// the JSON (a write and its file's `after` are the same text, so they
/// share one), and the rest names each by its index. The lists that grow
/// with the files (writes, file changes, an `ApplyResult`'s modified files
/// and per-edit results) cross as numbers ([`Numbers`]), the results'
/// strings as one text after the file texts, and a path the driver read
/// as its position in `paths` (the list it was given, when `paths` is the
/// plan's): JSON.parse then builds no object with keys and no second copy
/// of a path, which cost it more than the rest. What crosses is `[bytes, jsonLength, numbers]`: views of
/// the module's memory, which the driver (`js/host-driver.js` `fromCore`)
/// reads before it calls in again — no string crosses one call at a time.
/// The objects it builds are the ones a whole-JSON conversion gives, key
/// order included.
#[cfg(feature = "full")]
pub(crate) fn host_changes<R: WithFileChanges>(
    host: &editblocks::MemoryHost,
    result: R,
) -> Result<JsValue, JsError> {
    host_changes_with(host, result, None)
}

/// [`host_changes`], paths named by their position in `paths`.
#[cfg(feature = "full")]
pub(crate) fn host_changes_with<R: WithFileChanges>(
    host: &editblocks::MemoryHost,
    mut result: R,
    paths: Option<&PathIndex>,
) -> Result<JsValue, JsError> {
    use editblocks::HostOp;
    let positions = Positions { host, index: paths };
    let mut texts: Vec<&[u8]> = Vec::new();
    let mut writes = Vec::new();
    let mut deletes = Vec::new();
    let mut delete_undo = Vec::new();
    let mut stage = Vec::new();
    // The text of each write, by its place in `ops`.
    let mut op_texts = vec![usize::MAX; host.ops.len()];
    for (op_index, op) in host.ops.iter().enumerate() {
        match op {
            HostOp::Write {
                path,
                content,
                undo,
            } => {
                writes.push((
                    positions.of(path),
                    texts.len(),
                    crate::results::undo_code(*undo),
                ));
                op_texts[op_index] = texts.len();
                texts.push(content);
            }
            HostOp::Delete { path, undo } => {
                deletes.push(path.as_str());
                delete_undo.push(crate::results::undo_code(*undo));
            }
            HostOp::Stage { paths } => stage.extend(paths.iter().map(String::as_str)),
        }
    }
    // Taken out of the result: they cross as rows (an existing key keeps
    // its place when the driver sets it).
    let changes = std::mem::take(result.file_changes_mut());
    let rows = result.take_rows();
    // The last write of each path, found by hash: a reply of thousands of
    // files must not compare every change's path with every write's. A
    // snapshot host that lent its files knows it (with the path's
    // position, in the same lookup); another is indexed here, hashed as
    // the transaction hashes paths.
    let last_write: Option<PathIndex> = (!host.is_lent_snapshot()).then(|| {
        let mut last: PathIndex =
            std::collections::HashMap::with_capacity_and_hasher(writes.len(), Default::default());
        for (i, op) in host.ops.iter().enumerate() {
            if let HostOp::Write { path, .. } = op {
                last.insert(path, op_texts[i]);
            }
        }
        last
    });
    let mut change_rows: Vec<ChangeRow> = Vec::with_capacity(changes.len());
    for change in &changes {
        let (position, write) = host.position_and_write(&change.path);
        let write = match &last_write {
            Some(last) => last.get(change.path.as_str()).copied(),
            None => write.map(|op| op_texts[op]),
        };
        // A change's `before` is the file as read (its old name's, for a
        // move): the text the snapshot gave for that path, read as UTF-8
        // (lossily for bytes that are not) — the driver has it.
        let source = match change.moved_from.as_deref() {
            Some(from) => positions.of(from),
            None => positions.name(&change.path, position),
        };
        let in_snapshot = match source {
            PathRef::At(_) if host.is_lent_snapshot() => true,
            _ => host.in_snapshot(change.moved_from.as_deref().unwrap_or(&change.path)),
        };
        let mut from_snapshot = None;
        let before = match change.before.as_deref() {
            Some(_) if in_snapshot => {
                from_snapshot = Some(source);
                None
            }
            Some(t) => {
                texts.push(t.as_bytes());
                Some(texts.len() - 1)
            }
            None => None,
        };
        let after = change.after.as_deref().map(|t| {
            // The last write of this path (what the host holds at the end)
            // is the same text in a real run; in a dry run there is none.
            let write = write.filter(|&i| editblocks::text::same_bytes(texts[i], t.as_bytes()));
            write.unwrap_or_else(|| {
                texts.push(t.as_bytes());
                texts.len() - 1
            })
        });
        change_rows.push((
            positions.name(&change.path, position),
            before,
            after,
            change.moved_from.as_deref().map(|_| source),
            from_snapshot,
        ));
    }
    let modified_count = rows.as_ref().map(|(_, modified)| modified.len());
    let mut numbers = Numbers {
        values: Vec::with_capacity(
            texts.len() + 3 * writes.len() + 5 * change_rows.len() + modified_count.unwrap_or(0),
        ),
        names: Vec::new(),
    };
    let mut at = 0;
    for t in &texts {
        at += t.len();
        numbers.push(at);
    }
    for &(path, text, undo) in &writes {
        numbers.path(path);
        numbers.push(text);
        numbers.values.push(undo);
    }
    for &(path, before, after, moved_from, from_snapshot) in &change_rows {
        numbers.path(path);
        numbers.text_or_none(before);
        numbers.text_or_none(after);
        numbers.path_or_none(moved_from);
        numbers.path_or_none(from_snapshot);
    }
    let known: Vec<(&str, PathRef)> = changes
        .iter()
        .zip(&change_rows)
        .map(|(change, row)| (change.path.as_str(), row.0))
        .collect();
    let words = match &rows {
        Some((results, modified)) => {
            let modified_known = KnownPaths::new(positions, &known);
            for path in modified {
                numbers.path(modified_known.of(path));
            }
            let results_known = KnownPaths::new(positions, &known);
            let names = &mut numbers.names;
            let words = crate::results::result_words(results, |r| {
                Numbers::path_number(names, results_known.of(&r.path))
            });
            numbers.values.extend_from_slice(&words.string_ends);
            numbers.values.extend_from_slice(&words.words);
            Some(words)
        }
        None => None,
    };
    let Numbers { values, names } = numbers;
    let (strings, result_diagnostics) = match words {
        Some(words) => (Some(words.strings), words.diagnostics),
        None => (None, Vec::new()),
    };
    let mut bytes = serde_json::to_vec(&HostChanges {
        result: &result,
        deletes,
        delete_undo,
        stage,
        counts: [
            Some(texts.len()),
            Some(writes.len()),
            Some(change_rows.len()),
            modified_count,
            strings.as_ref().map(Vec::len),
            rows.as_ref().map(|(results, _)| results.len()),
        ],
        names,
        result_diagnostics,
        failure: result.host_failure().map(ThrownFailure::of),
    })
    .map_err(|e| {
        JsError::new(&format!(
            "editblocks: could not convert a result to JavaScript: {e}"
        ))
    })?;
    let json_len = bytes.len() as u32;
    let strings = strings.unwrap_or_default();
    bytes.reserve_exact(at + strings.iter().map(|s| s.len()).sum::<usize>());
    for t in texts
        .iter()
        .copied()
        .chain(strings.iter().map(|s| s.as_bytes()))
    {
        bytes.extend_from_slice(t);
    }
    let json_len = JsValue::from(json_len);
    CHANGES_OUT.with(|out| *out.borrow_mut() = (bytes, values));
    // Nothing is allocated from here on: the views are over the module's
    // memory as it is now.
    let (bytes, values) = CHANGES_OUT.with(|out| {
        let out = out.borrow();
        (memory_view(&out.0), numbers_view(&out.1))
    });
    Ok(js_sys::Array::of3(&bytes, &json_len, &values).into())
}

#[cfg(feature = "full")]
thread_local! {
    /// What [`host_changes`] returned last (the bytes, then the numbers),
    /// until the driver has read it (dropped when the next snapshot is made).
    static CHANGES_OUT: std::cell::RefCell<(Vec<u8>, Vec<u32>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// A view of `numbers` in the module's memory, valid as [`memory_view`]'s.
#[cfg(feature = "full")]
fn numbers_view(numbers: &[u32]) -> js_sys::Uint32Array {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::Uint32Array::new_with_byte_offset_and_length(
        &memory.buffer(),
        numbers.as_ptr() as usize as u32,
        numbers.len() as u32,
    )
}

/// A view of `bytes` in the module's memory. It is valid until the module
/// next allocates (the memory may then grow, which detaches it).
#[cfg(feature = "full")]
fn memory_view(bytes: &[u8]) -> js_sys::Uint8Array {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::Uint8Array::new_with_byte_offset_and_length(
        &memory.buffer(),
        bytes.as_ptr() as usize as u32,
        bytes.len() as u32,
    )
}

/// Shell commands suggested in backticks (`git rm`, `git mv`, `mkdir -p`, `rm -rf`).
#[wasm_bindgen(js_name = detectShellSuggestions)]
pub fn detect_shell_suggestions(text: &str) -> Vec<String> {
    editblocks::detect_shell_suggestions(text)
}

/// The instructions for the model for one edit style.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = systemPrompt)]
pub fn system_prompt(kind: &str) -> Result<String, JsValue> {
    // A name the core does not know is a wrong argument: a TypeError, as the
    // JS checks throw.
    editblocks::system_prompt(kind).ok_or_else(|| {
        js_sys::TypeError::new(&format!(
            "editblocks: systemPrompt does not know {kind:?}; use 'edit-repl', 'anchored', 'search-replace', 'apply-patch', 'unified-diff', 'tools' or 'hashline'"
        ))
        .into()
    })
}

/// `editblocks/lite`'s allocator: `talc` is less than half of dlmalloc's
/// code. Safe here: wasm32-unknown-unknown without atomics runs one thread,
/// and `new_global` takes its heap from `memory.grow` as dlmalloc does.
#[cfg(not(feature = "full"))]
#[global_allocator]
#[allow(unsafe_code)]
static ALLOC: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
