//! The providers' own edit tools, translated onto a file of the reply's
//! in-memory state: Anthropic's text editor (`view`, `create`,
//! `str_replace`, `insert`; `undo_edit` is in [`super::apply`], which keeps
//! the history), Gemini CLI's `replace` and `write_file`, the hashline
//! `read` and `edit` tools, and the Responses API's `apply_patch` operations.
//!
//! Every answer uses the wording conventions of the tool the model was
//! trained on, and every refusal carries what the model needs for its next
//! try: the current lines to copy for a mismatch, the candidates for an
//! ambiguity, the right command for a misuse.

use super::excerpt::{around, candidates, current_lines, numbered};
use super::ops::{ProviderOp, Voice};
use super::options::{Matching, ToolOptions};
use super::state::{spliced, FileState, Outcome};
use crate::hashline;
use crate::locate::tolerant::{self as matching, MatchError};
use crate::locate::{Pass as MatchPass, TOLERANT_PASSES};
use crate::result::{Diagnostics, ErrorKind, Status};

/// Longest text of the model's own quoted back in a message.
const QUOTE_MAX: usize = 300;
/// Longest view when the caller sets no `maxCharacters`.
const VIEW_MAX: usize = 100_000;

fn quoted(text: &str) -> String {
    if text.chars().count() > QUOTE_MAX {
        format!("{}…", text.chars().take(QUOTE_MAX).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Cuts `text` to `max` characters, with a note saying how to see the rest.
fn clip(text: String, max: Option<usize>) -> String {
    let max = max.unwrap_or(VIEW_MAX);
    if text.chars().count() <= max {
        return text;
    }
    let cut: String = text.chars().take(max).collect();
    format!(
        "{cut}\n<response clipped><NOTE>Only the first {max} characters are shown. View a smaller part with view_range to see the rest.</NOTE>"
    )
}

fn voice_missing(voice: Voice, path: &str) -> String {
    match voice {
        Voice::Anthropic => format!("The path {path} does not exist. Please provide a valid path. To make a new file, use the create command."),
        Voice::Gemini => format!("File not found: {path}. No edits made. To create a new file, call replace with an empty old_string, or write_file."),
        Voice::Hashline => format!("{path} does not exist. Check the path, or create the file with write_file."),
        Voice::ApplyPatch => format!("{path} does not exist, so it cannot be updated. Use a create_file operation to add it."),
    }
}

fn missing(voice: Voice, path: &str) -> Outcome {
    Outcome::fail(ErrorKind::FileNotFound, voice_missing(voice, path))
}

fn unusable(state: &FileState) -> Option<Outcome> {
    state
        .unusable
        .as_ref()
        .map(|(kind, why)| super::state::unusable(*kind, format!("{why}.")))
}

/// Why `state` cannot be written to, when it cannot.
pub(super) fn unusable_outcome(state: &FileState) -> Option<Outcome> {
    unusable(state)
}

/// Runs one provider operation on `state` (a file of the reply).
pub(super) fn run(
    state: &mut FileState,
    op: &ProviderOp,
    path: &str,
    options: &ToolOptions,
) -> Outcome {
    match op {
        // A read changes nothing: its refusal does not hold back the reply's changes.
        ProviderOp::View { range } => view(state, *range, path, options).read_only(),
        ProviderOp::Create { content, voice } => create(state, content, *voice, path, options),
        ProviderOp::Replace {
            old,
            new,
            expected,
            voice,
        } => replace(state, old, new, *expected, *voice, path, options),
        ProviderOp::Insert { line, text } => insert(state, *line, text, path),
        ProviderOp::WriteWhole { content } => write_whole(state, content, path),
        ProviderOp::HashRead { start, end } => {
            hash_read(state, *start, *end, path, options).read_only()
        }
        ProviderOp::HashEdit { call } => hash_edit(state, call, path, options),
        ProviderOp::PatchCreate { diff } => patch_create(state, diff, path),
        ProviderOp::PatchUpdate { diff } => patch_update(state, diff, path),
        ProviderOp::PatchDelete => patch_delete(state, path),
        ProviderOp::PatchMoveOut { diff, to } => patch_move_out(state, diff.as_deref(), path, to),
        // Handled by the caller, which carries the moved file.
        ProviderOp::PatchMoveIn { .. } => Outcome::fail(
            ErrorKind::Malformed,
            "a move is written by the caller".into(),
        ),
        // Handled by the caller, which holds the session's history.
        ProviderOp::Undo => Outcome::fail(
            ErrorKind::Malformed,
            "undo_edit is handled with the history".into(),
        ),
    }
}

fn view(
    state: &FileState,
    range: Option<(i64, i64)>,
    path: &str,
    options: &ToolOptions,
) -> Outcome {
    if let (None, Some(entries)) = (&state.body, options.listings.get(path)) {
        let shown = if path == "." {
            "the project root".to_string()
        } else {
            path.to_string()
        };
        let mut out = format!("Here's the files and directories up to 2 levels deep in {shown}, excluding hidden items:\n");
        for entry in entries {
            out.push_str(entry);
            out.push('\n');
        }
        return Outcome::ok(None, None)
            .read_only()
            .say(clip(out, options.max_characters));
    }
    if let Some(o) = unusable(state) {
        return o;
    }
    let Some(body) = state.body.as_deref() else {
        return Outcome::fail(
            ErrorKind::FileNotFound,
            format!("The path {path} does not exist. Please provide a valid path."),
        );
    };
    let lines: Vec<&str> = crate::text::body_lines(body);
    let n = lines.len() as i64;
    let (first, last) = match range {
        None => (1, n),
        Some((start, end)) => {
            let bad = |why: String| {
                Outcome::fail(
                    ErrorKind::LineOutOfRange,
                    format!("Invalid `view_range`: [{start}, {end}]. {why}"),
                )
            };
            if start < 1 || start > n.max(1) {
                return bad(format!("Its first element `{start}` should be within the range of lines of the file: [1, {n}]."));
            }
            let end = if end == -1 { n } else { end };
            if end > n {
                return bad(format!("Its second element `{end}` should be at most the number of lines in the file: `{n}` (or -1 for the end)."));
            }
            if end < start {
                return bad(format!("Its second element `{end}` should be larger or equal than its first `{start}`."));
            }
            (start, end)
        }
    };
    let shown = if n == 0 {
        String::new()
    } else {
        numbered(&lines[(first - 1) as usize..last as usize], first as usize)
    };
    let text = format!("Here's the content of {path} with line numbers:\n{shown}");
    Outcome::ok(Some(first as u32), None)
        .read_only()
        .say(clip(text, options.max_characters))
}

/// `write_file` semantics on the state: `content` is the whole file.
fn set_whole(state: &mut FileState, content: &str) {
    let body = state.normalise(content);
    if state.original.is_some() {
        state.final_newline = body.is_empty() || body.ends_with('\n');
    }
    state.provenance = crate::text::Provenance::written(body.len());
    state.body = Some(body);
    state.touched = true;
}

fn create(
    state: &mut FileState,
    content: &str,
    voice: Voice,
    path: &str,
    options: &ToolOptions,
) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    if state.body.is_some() && !options.overwrite {
        let why = match voice {
            Voice::ApplyPatch => format!("{path} already exists, so create_file would overwrite it. Use an update_file operation to change it, or delete_file first."),
            _ => format!(
                "File already exists at: {path}. The create command does not overwrite files: change it with str_replace or insert (view it first to copy its exact lines), or use undo_edit."
            ),
        };
        return Outcome::fail(ErrorKind::FileExists, why);
    }
    set_whole(state, content);
    let said = match voice {
        Voice::ApplyPatch => format!("Created {path}."),
        _ => format!("File created successfully at: {path}"),
    };
    Outcome::ok(Some(1), None).say(said)
}

fn write_whole(state: &mut FileState, content: &str, path: &str) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    let existed = state.body.is_some();
    set_whole(state, content);
    let said = if existed {
        format!("Successfully overwrote file: {path}.")
    } else {
        format!("Successfully created and wrote to new file: {path}.")
    };
    Outcome::ok(Some(1), None).say(said)
}

#[allow(clippy::too_many_arguments)]
fn replace(
    state: &mut FileState,
    old: &str,
    new: &str,
    expected: usize,
    voice: Voice,
    path: &str,
    options: &ToolOptions,
) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    let old = state.normalise(old);
    let new = state.normalise(new);
    if old.is_empty() {
        return match (voice, state.body.is_some()) {
            (Voice::Gemini, false) => {
                set_whole(state, &new);
                Outcome::ok(Some(1), None).say(format!("Created new file: {path} with the provided content."))
            }
            (Voice::Gemini, true) => Outcome::fail(
                ErrorKind::FileExists,
                format!("Failed to edit. Attempted to create a file that already exists: {path}. To change it, copy the lines to replace into old_string; to replace all of it, use write_file."),
            ),
            _ => Outcome::fail(
                ErrorKind::Malformed,
                "No replacement was performed: old_str is empty. Copy the lines to replace into old_str; to add lines without replacing any, use the insert command.".into(),
            ),
        };
    }
    let Some(body) = state.body.clone() else {
        return missing(voice, path);
    };
    if old == new {
        let why = match voice {
            Voice::Gemini => format!("No changes to apply. The old_string and new_string are identical in {path}; put the change in new_string."),
            _ => format!("No replacement was performed: old_str and new_str are identical, so the edit would not change {path}. Put the change in new_str."),
        };
        return Outcome::fail(ErrorKind::NoOp, why);
    }
    // Anthropic's tool is exact by definition; Gemini's replace follows the caller's matching.
    let passes: &[MatchPass] = match (voice, options.matching) {
        (Voice::Gemini, Matching::Tolerant) => &TOLERANT_PASSES,
        _ => &[MatchPass::Substring],
    };
    let found = matching::search(&body, &old, &new, passes, expected > 1);
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match found {
        Ok(matches) if matches.len() == expected || expected == 1 => {
            let line = matches.first().map(|m| matching::line_of(&body, m.start)).unwrap_or(1);
            let pass = matches.first().map(|m| m.pass);
            let next = spliced(&body, &matches, new.len());
            let said = match voice {
                Voice::Gemini => format!("Successfully modified file: {path} ({} replacement{}).", matches.len(), plural(matches.len())),
                _ => {
                    let span = new.split('\n').count();
                    format!(
                        "The file {path} has been edited. Here's the result of running `cat -n` on a snippet of {path}:\n{}Review the changes and make sure they are as expected. Edit the file again if necessary.",
                        around(&next, line as usize + span / 2, span / 2 + 4)
                    )
                }
            };
            state.set_edited_body(next);
            state.touched = true;
            Outcome::ok(Some(line), pass).say(said)
        }
        Ok(matches) => {
            let lines: Vec<u32> = matches.iter().map(|m| matching::line_of(&body, m.start)).collect();
            count_mismatch(&body, path, expected, &lines)
        }
        Err(MatchError::Ambiguous { lines, .. }) => match voice {
            Voice::Gemini => count_mismatch(&body, path, expected, &lines),
            _ => Outcome::fail(
                ErrorKind::Ambiguous,
                format!(
                    "No replacement was performed. Multiple occurrences of old_str `{}` in lines {:?}. Please ensure it is unique: add neighbouring lines to old_str so it matches one place only. The candidates:\n{}",
                    quoted(&old),
                    lines,
                    candidates(&body, &lines)
                ),
            )
            .at(lines.first().copied())
            .with(Diagnostics { failed_part: Some("old".into()), match_count: Some(lines.len() as u32), match_lines: lines, ..Diagnostics::default() }),
        },
        Err(MatchError::NotFound) | Err(MatchError::CutShort { .. }) => {
            let (block, near) = current_lines(&body, &old);
            let head = match voice {
                Voice::Gemini => format!(
                    "Failed to edit, 0 occurrences found for old_string in {path}. No edits made: old_string must be the file's text exactly (check whitespace, indentation and escaping)."
                ),
                _ => format!("No replacement was performed, old_str `{}` did not appear verbatim in {path}.", quoted(&old)),
            };
            let field = if voice == Voice::Gemini { "old_string" } else { "old_str" };
            // No nearest lines: the file is empty, or none of its lines is like the edit's.
            let copy = if body.is_empty() {
                format!(" {path} is empty.")
            } else if block.is_empty() {
                format!(" No line of {path} is like {field}: view {path} and copy {field} from it exactly.")
            } else {
                format!(" The closest lines in the file now are below; copy {field} from them exactly, without the line numbers:\n{block}")
            };
            Outcome::fail(ErrorKind::AnchorNotFound, format!("{head}{copy}")).at(near.first().map(|n| n.line)).with(Diagnostics {
                failed_part: Some("old".into()),
                nearest: near,
                ..Diagnostics::default()
            })
        }
    }
}

fn count_mismatch(body: &str, path: &str, expected: usize, lines: &[u32]) -> Outcome {
    let found = lines.len();
    let s = if expected == 1 { "" } else { "s" };
    let fix = if found > expected {
        format!("Add neighbouring lines to old_string so it matches only the places to change, or set expected_replacements to {found} to change every one.")
    } else {
        format!("Set expected_replacements to {found}, or check that old_string matches every place you mean to change.")
    };
    Outcome::fail(
        ErrorKind::Ambiguous,
        format!(
            "Failed to edit, expected {expected} occurrence{s} but found {found} in {path} (lines {:?}). No edits made. {fix} The occurrences:\n{}",
            lines,
            candidates(body, lines)
        ),
    )
    .at(lines.first().copied())
    .with(Diagnostics { failed_part: Some("old".into()), match_count: Some(found as u32), match_lines: lines.to_vec(), ..Diagnostics::default() })
}

fn insert(state: &mut FileState, line: i64, text: &str, path: &str) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    let Some(body) = state.body.clone() else {
        return missing(Voice::Anthropic, path);
    };
    let mut lines: Vec<String> = crate::text::body_lines(&body)
        .into_iter()
        .map(str::to_string)
        .collect();
    let n = lines.len() as i64;
    if line < 0 || line > n {
        return Outcome::fail(
            ErrorKind::LineOutOfRange,
            format!("Invalid `insert_line` parameter: {line}. It should be within the range of lines of the file: [0, {n}] (0 inserts at the top, {n} after the last line)."),
        );
    }
    let text = state.normalise(text);
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let new_lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let count = new_lines.len();
    let at = line as usize;
    lines.splice(at..at, new_lines);
    let mut next = lines.join("\n");
    if body.ends_with('\n') || body.is_empty() {
        next.push('\n');
    }
    let said = format!(
        "The file {path} has been edited. Here's the result of running `cat -n` on a snippet of the edited file:\n{}Review the changes and make sure they are as expected (correct indentation, no duplicate lines). Edit the file again if necessary.",
        around(&next, at + 1 + count / 2, count / 2 + 4)
    );
    state.set_edited_body(next);
    state.touched = true;
    Outcome::ok(Some(at as u32 + 1), None).say(said)
}

fn hash_read(
    state: &FileState,
    start: Option<usize>,
    end: Option<usize>,
    path: &str,
    options: &ToolOptions,
) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    let Some(body) = state.body.as_deref() else {
        return missing(Voice::Hashline, path);
    };
    let view = hashline::format_hashlines(body, start.unwrap_or(1), end, hashline::DEFAULT_WIDTH);
    Outcome::ok(Some(start.unwrap_or(1) as u32), None)
        .read_only()
        .say(clip(format!("{path}\n{view}"), options.max_characters))
}

fn hash_edit(
    state: &mut FileState,
    call: &serde_json::Value,
    path: &str,
    _options: &ToolOptions,
) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    let call = without_nulls(call);
    let parsed = match hashline::parse_call(&call, hashline::DEFAULT_WIDTH) {
        Ok(c) => c,
        Err(e) => return Outcome::fail(ErrorKind::Malformed, e.reason),
    };
    if parsed.rename.is_some() {
        return Outcome::fail(
            ErrorKind::Malformed,
            "rename is not done through this tool loop; make the edits here and move the file with applyHashlineEdit, or write the new file and delete the old one.".into(),
        );
    }
    let Some(body) = state.body.clone() else {
        return missing(Voice::Hashline, path);
    };
    if parsed.delete {
        state.body = None;
        state.touched = true;
        return Outcome::ok(None, None).say(format!("Deleted {path}."));
    }
    match hashline::edit_body(path, &body, &parsed.edits, hashline::DEFAULT_WIDTH) {
        Ok(edited) => {
            let line = edited.first_changed.map(|l| l as u32);
            state.set_edited_body(edited.body);
            state.touched = true;
            Outcome::ok(line, None).say(format!(
                "Edited {path}: {} operation(s) applied.\n{}",
                edited.operations, edited.view
            ))
        }
        Err(refusal) => {
            let kind = refusal.error_kind.unwrap_or(ErrorKind::Malformed);
            Outcome::fail(kind, refusal.message.clone()).at(refusal.line)
        }
    }
}

/// The call without members set to null (a strict-mode schema makes the
/// model send every key; null stands for "not given"), except
/// `new_content`, where null means "delete the lines".
fn without_nulls(call: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match call {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, v)| !v.is_null() || k.as_str() == "new_content")
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

fn patch_create(state: &mut FileState, diff: &str, path: &str) -> Outcome {
    match super::patch_call::added_file_content(diff) {
        Ok(content) => create(
            state,
            &content,
            Voice::ApplyPatch,
            path,
            &ToolOptions::default(),
        ),
        Err(why) => Outcome::fail(ErrorKind::Malformed, why),
    }
}

fn patch_update(state: &mut FileState, diff: &str, path: &str) -> Outcome {
    if let Some(o) = unusable(state) {
        return o;
    }
    let Some(body) = state.body.clone() else {
        return missing(Voice::ApplyPatch, path);
    };
    match super::patch_call::apply_v4a_update(path, &body, &state.normalise(diff)) {
        Ok(next) => {
            if next == body {
                return Outcome::fail(
                    ErrorKind::NoOp,
                    format!(
                        "The update to {path} changes nothing; its + and - lines are the same."
                    ),
                );
            }
            state.set_edited_body(next);
            state.touched = true;
            Outcome::ok(None, None).say(format!("Updated {path}."))
        }
        Err(refusal) => {
            // The patch pipeline names the operation as a patch would; the model sent an update_file.
            let header = format!("`*** Update File: {path}`: ");
            let reason = refusal
                .reason
                .strip_prefix(&header)
                .unwrap_or(&refusal.reason)
                .to_string();
            // The current lines near the first old line, or near the section's `@@` line, that the file has something like.
            let mut outcome = Outcome::fail(refusal.kind, reason).at(refusal.line);
            let wanted = diff.lines().filter_map(|l| {
                l.strip_prefix("@@ ")
                    .or_else(|| l.strip_prefix('-'))
                    .or_else(|| l.strip_prefix(' '))
            });
            for line in wanted {
                outcome = outcome.copy_from(&body, line);
                if outcome.retry.is_some() {
                    break;
                }
            }
            outcome
        }
    }
}

/// The leaving end of a V4A move: the file is updated (when the operation
/// has sections) and then no longer stands at `path`; the caller takes the
/// body before it is dropped.
fn patch_move_out(state: &mut FileState, diff: Option<&str>, path: &str, to: &str) -> Outcome {
    if let Some(diff) = diff {
        let updated = patch_update(state, diff, path);
        if updated.status == Status::Failed {
            return updated;
        }
    } else {
        if let Some(o) = unusable(state) {
            return o;
        }
        if state.body.is_none() {
            return Outcome::fail(
                ErrorKind::FileNotFound,
                format!("{path} does not exist, so it cannot be moved to {to}."),
            );
        }
    }
    state.touched = true;
    Outcome::ok(None, None).say(format!("Moved {path} to {to}."))
}

fn patch_delete(state: &mut FileState, path: &str) -> Outcome {
    // A file that could not be read at all (the host refused the path, or
    // failed): say why. A binary file was read, and may be deleted.
    if state.original.is_none() {
        if let Some(o) = unusable(state) {
            return o;
        }
    }
    if state.body.is_none() && state.original.is_none() {
        return Outcome::fail(
            ErrorKind::FileNotFound,
            format!("{path} does not exist, so there is nothing to delete."),
        );
    }
    state.body = None;
    state.touched = true;
    Outcome::ok(None, None).say(format!("Deleted {path}."))
}
