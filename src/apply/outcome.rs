//! What becomes of a reply's edits once each has been tried: the one
//! sequential/atomic step every style shares, the sentences it writes, and
//! the defaults every style takes.
//!
//! A style translates its input into edits, tries each in memory and keeps
//! one result per edit. Then, the same for every style:
//!
//! - **sequential** (text blocks by default; a patch's operations among
//!   themselves): an edit to a file whose earlier edit in the same unit failed
//!   is not tried ([`previous_failed`]), since its text may depend on the
//!   failed one; other files go on;
//! - **atomic** (tool calls always; text blocks and patches with `mode:
//!   'atomic'`; each patch on its own): when a result of the unit is a
//!   failure ([`is_failure`]), every edit of the unit that applied is marked
//!   not written ([`abort_unit`]) and nothing of the unit is written.
//!
//! A refused path (`path-escape`) is a failure: a hostile path aborts an
//! atomic reply. An edit that changes nothing (`no-op`) never is.

use serde::{Deserialize, Serialize};

use crate::result::{EditResult, ErrorKind, Status};

// ---------------------------------------------------------------------------
// Defaults: decided here once, for every style (README, "Results").

/// Every style stages what it wrote unless asked not to (`stage: false`);
/// a host without staging ignores it, `nodeHost` stages only inside a git
/// work tree.
pub const STAGE_BY_DEFAULT: bool = true;

/// How failures affect the rest of a reply (text blocks and patches choose;
/// tool calls are always [`TOOL_CALLS_MODE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Later edits see earlier ones; after a failure the remaining edits to
    /// that file are skipped and other files go on (seeds 000, 001, 004).
    /// Each patch is still applied whole or not at all.
    #[default]
    Sequential,
    /// Everything is validated first; one failure writes nothing at all.
    Atomic,
}

impl Mode {
    /// The names the JavaScript boundary takes, in the order refusals list them.
    pub const NAMES: [&'static str; 2] = ["sequential", "atomic"];
}

/// The mode of text blocks and patches unless `mode` says otherwise.
pub const TEXT_BLOCKS_MODE: Mode = Mode::Sequential;
/// A reply's tool calls are written all or nothing (seed 002).
pub const TOOL_CALLS_MODE: Mode = Mode::Atomic;

/// How strictly the text an edit replaces must match the file. One name
/// means one thing in every style: `exact` takes the text as written (CRLF
/// read as LF), with no whitespace tolerance; `tolerant` tries exact first,
/// then passes that accept only a unique match. Text blocks match whole
/// lines, tool calls' `old_string` a substring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Matching {
    /// The text as written, unique.
    Exact,
    /// Exact first; then the tolerant passes of [`crate::locate`], each
    /// accepting only a unique match.
    Tolerant,
}

impl Matching {
    /// The names the JavaScript boundary takes, in the order refusals list them.
    pub const NAMES: [&'static str; 2] = ["exact", "tolerant"];
}

/// Text blocks match exactly unless asked (seeds 000, 001, 004).
pub const TEXT_BLOCKS_MATCHING: Matching = Matching::Exact;
/// Tool calls match tolerantly unless asked (seed 002's five passes).
pub const TOOL_CALLS_MATCHING: Matching = Matching::Tolerant;

// ---------------------------------------------------------------------------
// The rule for what is a failure.

/// The one rule, for every style, for the status of an edit that was not
/// applied: a refused path (`path-escape`) and an edit that changes nothing
/// (`no-op`) are `skipped` (nothing could be tried, or nothing needed doing);
/// every other refusal is `failed`. Being skipped does not make a refused
/// path harmless: it still counts as a failure ([`is_failure`]) and aborts an
/// atomic reply; only a no-op never does.
pub fn refusal_status(kind: ErrorKind) -> Status {
    match kind {
        ErrorKind::PathEscape | ErrorKind::NoOp => Status::Skipped,
        _ => Status::Failed,
    }
}

/// Whether a result counts as a failure of the reply (for atomic replies
/// and `ok`): failed, or skipped for any reason but a no-op (a refused
/// path included).
pub fn is_failure(status: Status, kind: Option<ErrorKind>) -> bool {
    match status {
        Status::Failed => true,
        Status::Skipped => kind != Some(ErrorKind::NoOp),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// The step.

/// How a style numbers its edits for the model, in its own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A block of a reply (a text block, or a patch's operation).
    Block,
    /// A tool call of a reply.
    Call,
}

impl Unit {
    /// `block 2`, `call 3`: the edit at 0-based `index`.
    pub fn at(self, index: usize) -> String {
        let word = match self {
            Unit::Block => "block",
            Unit::Call => "call",
        };
        format!("{word} {}", index + 1)
    }

    /// `block 2 (src/a.py)`: the edit at 0-based `index`, with its file.
    pub fn at_file(self, index: usize, path: &str) -> String {
        format!("{} ({path})", self.at(index))
    }
}

/// What is applied all or nothing: the reply, or one patch of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Reply,
    Patch,
}

impl Scope {
    fn words(self) -> &'static str {
        match self {
            Scope::Reply => "the reply",
            Scope::Patch => "its patch",
        }
    }
}

/// What the shared step reads and changes in one result of a style.
pub trait UnitResult {
    fn status(&self) -> Status;
    fn error_kind(&self) -> Option<ErrorKind>;
    /// How the model finds this edit in its reply (`block 2 (a.txt)`).
    fn label(&self) -> String;
    /// The file it edits.
    fn path(&self) -> &str;
    /// Whether it only read (a view): it stands whatever happens and is no
    /// failure of the reply.
    fn read_only(&self) -> bool {
        false
    }
    /// Sets what became of it; `reason` is the shared sentence.
    fn set(&mut self, status: Status, kind: ErrorKind, reason: String);
}

impl UnitResult for EditResult {
    fn status(&self) -> Status {
        self.status
    }
    fn error_kind(&self) -> Option<ErrorKind> {
        self.error_kind
    }
    fn label(&self) -> String {
        Unit::Block.at_file(self.block_index, &self.path)
    }
    fn path(&self) -> &str {
        &self.path
    }
    fn set(&mut self, status: Status, kind: ErrorKind, reason: String) {
        self.status = status;
        self.error_kind = Some(kind);
        self.reason = Some(reason);
    }
}

/// Whether `r` is a failure of its unit (see [`is_failure`]).
pub fn fails<R: UnitResult>(r: &R) -> bool {
    !r.read_only() && is_failure(r.status(), r.error_kind())
}

/// What a result that was not written asks the model to do: the one retry
/// sentence a style appends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry<'a> {
    /// The edit was not tried and may depend on `earlier`.
    AfterFixing(&'a str),
    /// The edit was fine; only `culprit` needs fixing.
    AsItWas(&'a str),
    /// The host failed; nothing needs fixing in the reply.
    OnceTheHostWorks,
}

impl Retry<'_> {
    pub fn text(self) -> String {
        match self {
            Retry::AfterFixing(earlier) => {
                format!("Fix {earlier} first, then send this edit again.")
            }
            Retry::AsItWas(culprit) => {
                format!("This edit was fine: send it again as it was, with {culprit} fixed.")
            }
            Retry::OnceTheHostWorks => "Apply it again once the host works.".to_string(),
        }
    }
}

/// The reason of an edit not tried because an earlier edit to its file
/// (`earlier`, such as `block 2` or `call 1`) failed: `previous-failed`.
pub fn previous_failed(earlier: &str) -> String {
    format!(
        "Not tried: an earlier edit to this file ({earlier}) failed. {}",
        Retry::AfterFixing(earlier).text()
    )
}

/// The reason of an edit that applied but is not written because `path`
/// changed on disk under the run twice and `scope` is applied all or
/// nothing: `atomic-aborted`.
pub fn atomic_aborted_by_change(path: &str, scope: Scope) -> String {
    format!(
        "Not written: {path} changed on disk while the reply was written, and {} is applied all or nothing. \
         This edit was fine: send it again as it was, once {path} has been read again.",
        scope.words()
    )
}

/// The reason of an edit that applied but is not written because
/// `culprit` failed and `scope` is applied all or nothing: `atomic-aborted`.
pub fn atomic_aborted(culprit: &str, scope: Scope) -> String {
    format!(
        "Not written: {culprit} failed, and {} is applied all or nothing. {}",
        scope.words(),
        Retry::AsItWas(culprit).text()
    )
}

/// The reason of an edit whose write the host's failure (`what`, from
/// [`super::HostFailure::describe`]) undid, on a file other than the one
/// that failed.
pub fn host_undone(what: &str) -> String {
    format!(
        "Not written: {what} The reply's other writes were put back too. {}",
        Retry::OnceTheHostWorks.text()
    )
}

/// The reason of an edit to a file the model did not have in context
/// (`not-in-context`, seed 000).
pub fn not_in_context(path: &str) -> String {
    format!(
        "{path} was not in context, so this edit was not attempted. The file has been added to the context; \
         send the edit again now that its full content is visible."
    )
}

/// The atomic step over the results of one unit (a whole reply, or one
/// patch): when one of them is a failure, every result that applied (or
/// validated) becomes `skipped` / `atomic-aborted` with the shared sentence
/// naming the first failure. Returns the index of that failure in `unit`;
/// `None` when nothing failed and the unit may be written.
pub fn abort_unit<R: UnitResult>(unit: &mut [R], scope: Scope) -> Option<usize> {
    let culprit = unit.iter().position(fails)?;
    let reason = match unit[culprit].error_kind() {
        // Nothing in the reply is wrong: the file changed under the run.
        Some(ErrorKind::FileChanged) => atomic_aborted_by_change(unit[culprit].path(), scope),
        _ => atomic_aborted(&unit[culprit].label(), scope),
    };
    for r in unit
        .iter_mut()
        .filter(|r| !r.read_only() && matches!(r.status(), Status::Applied | Status::Validated))
    {
        r.set(Status::Skipped, ErrorKind::AtomicAborted, reason.clone());
    }
    Some(culprit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, path: &str, status: Status, kind: Option<ErrorKind>) -> EditResult {
        EditResult {
            block_index: index,
            path: path.into(),
            status,
            error_kind: kind,
            reason: None,
            estimated_line: None,
            anchor_preview: String::new(),
            old_preview: String::new(),
            new_preview: String::new(),
            diagnostics: None,
            matched_by: None,
            assumed: Vec::new(),
        }
    }

    #[test]
    fn a_refused_path_aborts_and_a_no_op_does_not() {
        let mut unit = vec![
            result(0, "a.txt", Status::Applied, None),
            result(1, "b.txt", Status::Skipped, Some(ErrorKind::NoOp)),
        ];
        assert_eq!(abort_unit(&mut unit, Scope::Reply), None);
        assert_eq!(unit[0].status, Status::Applied);

        unit.push(result(
            2,
            "../x",
            Status::Skipped,
            Some(ErrorKind::PathEscape),
        ));
        unit.push(result(
            3,
            "c.txt",
            Status::Failed,
            Some(ErrorKind::OldMismatch),
        ));
        assert_eq!(abort_unit(&mut unit, Scope::Patch), Some(2));
        assert_eq!(unit[0].status, Status::Skipped);
        assert_eq!(unit[0].error_kind, Some(ErrorKind::AtomicAborted));
        assert_eq!(
            unit[0].reason.as_deref(),
            Some(
                "Not written: block 3 (../x) failed, and its patch is applied all or nothing. \
                 This edit was fine: send it again as it was, with block 3 (../x) fixed."
            )
        );
        // The no-op and the failures keep their own outcome.
        assert_eq!(unit[1].error_kind, Some(ErrorKind::NoOp));
        assert_eq!(unit[2].error_kind, Some(ErrorKind::PathEscape));
        assert_eq!(unit[3].status, Status::Failed);
    }

    #[test]
    fn an_edit_after_a_failure_names_the_earlier_one() {
        assert_eq!(
            previous_failed(&Unit::Call.at(0)),
            "Not tried: an earlier edit to this file (call 1) failed. Fix call 1 first, then send this edit again."
        );
        assert_eq!(Unit::Block.at_file(1, "a.py"), "block 2 (a.py)");
    }

    #[test]
    fn refusals_are_skipped_or_failed_by_one_rule() {
        assert_eq!(refusal_status(ErrorKind::PathEscape), Status::Skipped);
        assert_eq!(refusal_status(ErrorKind::NoOp), Status::Skipped);
        assert_eq!(refusal_status(ErrorKind::Binary), Status::Failed);
        assert!(is_failure(Status::Skipped, Some(ErrorKind::PathEscape)));
        assert!(!is_failure(Status::Skipped, Some(ErrorKind::NoOp)));
        assert!(!is_failure(Status::NotInContext, None));
    }
}
