//! A patch sent through a shell tool: OpenAI's Codex models often edit by
//! calling `shell` (or `container.exec`, `exec_command`, `shell_command`,
//! `local_shell`, and the Responses API's `local_shell_call` item) with
//! `["apply_patch", patch]` or a script `apply_patch <<'EOF'` … `EOF`.
//!
//! Nothing is ever run. The exact shapes Codex itself intercepts are read
//! as the patch they carry; any other command, or `apply_patch` mixed with
//! other commands, is refused naming the command. The patch is read by the
//! reply parser (the same V4A reader as a patch in a reply, which also
//! follows a `cd <dir> &&` before `apply_patch`); this module only checks
//! the command around it.

use serde_json::{Map, Value};

use crate::block::{EditBlock, Format};
use crate::parser::{EditStream, ParseOptions, StreamEvent};
use crate::patch::Operation;

use super::ops::{Op, ProviderOp};
use crate::json::kind_of;

/// Tool names of the shell tools a model may send a patch through.
const SHELL_TOOLS: [&str; 5] = [
    "shell",
    "container.exec",
    "exec_command",
    "shell_command",
    "local_shell",
];

/// The command names Codex reads as its patch tool.
const APPLY_PATCH_COMMANDS: [&str; 2] = ["apply_patch", "applypatch"];

/// Shells whose `-c` / `-lc` script may hold the heredoc form.
const SHELLS: [&str; 3] = ["bash", "sh", "zsh"];

/// Whether `name` is a shell tool whose calls may carry a patch.
pub(crate) fn is_shell_tool(name: &str) -> bool {
    SHELL_TOOLS.contains(&name)
}

/// One file operation read from a shell call's patch: its path (from the
/// project root) and what it asks, or why it cannot be applied.
pub(crate) type ShellOp = (String, Result<Op, String>);

/// What a shell call asks: the patch's operations in order, or why the call
/// is no edit the package applies (a single refusal).
pub(crate) fn read_shell_call(
    args: &Map<String, Value>,
    project_dir: Option<&str>,
) -> Result<Vec<ShellOp>, String> {
    let folder = workdir(args, project_dir)?;
    let command = match args.get("command").or_else(|| args.get("cmd")) {
        Some(Value::Null) | None => {
            return Err("command is missing; send the patch as [\"apply_patch\", patch]".into())
        }
        Some(v) => v,
    };
    let patch_text = match command {
        Value::String(script) => from_script(script)?,
        Value::Array(items) => {
            let mut words = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    Value::String(s) => words.push(s.as_str()),
                    other => {
                        return Err(format!(
                            "command must be an array of strings, but holds {}",
                            kind_of(other)
                        ))
                    }
                }
            }
            from_argv(&words)?
        }
        other => {
            return Err(format!(
                "command must be an array of strings or a string, not {}",
                kind_of(other)
            ))
        }
    };
    let ops = read_patch(&patch_text);
    if ops.is_empty() {
        return Err("the apply_patch command holds no `*** Begin Patch` … `*** End Patch` patch; put the patch between those lines".into());
    }
    let Some(dir) = folder else {
        return Ok(ops);
    };
    // An absolute path stays as written: read against `projectDir` or refused, never moved under `dir`.
    let inside = |path: &str| {
        if crate::path::is_absolute(path) {
            path.to_string()
        } else {
            format!("{dir}/{path}")
        }
    };
    Ok(ops
        .into_iter()
        .map(|(path, op)| {
            let op = op.map(|op| match op {
                Op::Provider(ProviderOp::PatchMoveOut { diff, to }) => {
                    Op::Provider(ProviderOp::PatchMoveOut {
                        diff,
                        to: inside(&to),
                    })
                }
                Op::Provider(ProviderOp::PatchMoveIn { from }) => {
                    Op::Provider(ProviderOp::PatchMoveIn {
                        from: inside(&from),
                    })
                }
                other => other,
            });
            if path.is_empty() {
                (path, op)
            } else {
                (inside(&path), op)
            }
        })
        .collect())
}

/// A command as one line for a message (long ones cut).
fn shown(command: &str) -> String {
    let one_line = command.split('\n').next().unwrap_or("");
    let cut: String = one_line.chars().take(80).collect();
    if cut.len() < command.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

fn not_an_edit(command: &str) -> String {
    format!(
        "`{}` is not an edit: editblocks runs no commands and only applies `apply_patch` (the command [\"apply_patch\", patch], or a script `apply_patch <<'EOF'` … `EOF`); run other commands some other way",
        shown(command)
    )
}

fn mixed(command: &str) -> String {
    format!(
        "`{}` runs apply_patch together with other commands or arguments: editblocks runs no commands and only applies a lone `apply_patch <<'EOF'` (optionally after `cd <folder> &&`) or [\"apply_patch\", patch]; send the patch alone",
        shown(command)
    )
}

/// The `workdir` / `working_directory` the command runs in, when it is a
/// folder inside the project root (`None` for the root itself). An absolute
/// one is read against `project_dir`, the root's absolute path when the
/// caller gave it (Codex sends the folder it was started in): inside it, it
/// is the folder below; anywhere else it is refused.
fn workdir(args: &Map<String, Value>, project_dir: Option<&str>) -> Result<Option<String>, String> {
    let (key, value) = match (args.get("workdir"), args.get("working_directory")) {
        (Some(v), _) if !v.is_null() => ("workdir", v),
        (_, Some(v)) if !v.is_null() => ("working_directory", v),
        _ => return Ok(None),
    };
    let Value::String(dir) = value else {
        return Err(format!("{key} must be a string, not {}", kind_of(value)));
    };
    let refuse = |why: &str| {
        Err(format!(
            "{key} `{}` {why}; give a folder relative to the project root (or leave {key} out) and write the patch's paths from there",
            shown(dir)
        ))
    };
    let within = project_dir.and_then(|root| super::ops::within_project(dir, root));
    let relative = within.as_deref().unwrap_or(dir);
    if relative == "." {
        return Ok(None);
    }
    let trimmed = relative.trim_end_matches('/');
    let trimmed = trimmed.strip_prefix("./").unwrap_or(trimmed);
    if relative.starts_with('/')
        || trimmed.starts_with(['/', '~', '\\'])
        || trimmed.get(1..2) == Some(":")
    {
        let root = project_dir
            .map(|r| r.trim_end_matches('/'))
            .filter(|r| r.starts_with('/'));
        return refuse(&match root {
            Some(root) => format!("is an absolute path outside the project root `{}`", shown(root)),
            None => "is an absolute path, and the project root's absolute path is not known (the caller's option projectDir)".to_string(),
        });
    }
    if trimmed.is_empty() || trimmed == "." {
        return Ok(None);
    }
    for part in trimmed.split('/') {
        if part == ".." {
            return refuse("leads outside the project root");
        }
        if part.is_empty()
            || part == "."
            || part
                .chars()
                .any(|c| c.is_control() || "$`\"'\\*?<>|;&".contains(c))
        {
            return refuse("is not a plain folder name");
        }
    }
    Ok(Some(trimmed.to_string()))
}

/// The patch text of a command given as words.
fn from_argv(words: &[&str]) -> Result<String, String> {
    let joined = words.join(" ");
    match words {
        [] => Err("command is empty; send the patch as [\"apply_patch\", patch]".into()),
        [command, patch] if APPLY_PATCH_COMMANDS.contains(command) => Ok((*patch).to_string()),
        [command, ..] if APPLY_PATCH_COMMANDS.contains(command) => Err(format!(
            "`{command}` takes one argument, the patch, but the command has {} after it; send [\"{command}\", patch]",
            words.len() - 1
        )),
        [shell, flag, script] if is_shell(shell) && matches!(*flag, "-c" | "-lc") => {
            from_script(script)
        }
        [shell, flag, _, ..] if is_shell(shell) && matches!(*flag, "-c" | "-lc") => Err(format!(
            "`{}` passes more than the script to the shell; send [\"{shell}\", \"{flag}\", script] with the script `apply_patch <<'EOF'` … `EOF` alone",
            shown(&joined)
        )),
        _ if joined.contains("apply_patch") || joined.contains("applypatch") => Err(mixed(&joined)),
        _ => Err(not_an_edit(&joined)),
    }
}

/// `bash`, `/bin/bash`, `sh`, `zsh`, … by the program's file name.
fn is_shell(program: &str) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    SHELLS.contains(&name)
}

/// The text to read from a script `[cd <dir> && ]apply_patch <<'EOF'`, the
/// patch, `EOF`: the first line (it moves the paths when it has a `cd`) and
/// the lines before the heredoc's terminator.
fn from_script(script: &str) -> Result<String, String> {
    let script = script.trim_start();
    let (first, rest) = script.split_once('\n').unwrap_or((script, ""));
    let Some(delimiter) = heredoc_start(first.trim_end_matches('\r')) else {
        let names_patch = APPLY_PATCH_COMMANDS.iter().any(|c| script.contains(c));
        return Err(if names_patch {
            mixed(script)
        } else {
            not_an_edit(script)
        });
    };
    let mut body_end = None;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == delimiter {
            body_end = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let Some((end, after)) = body_end else {
        return Err(format!(
            "the heredoc of `{}` never ends: no line `{delimiter}` closes it; end the script with a line `{delimiter}` after `*** End Patch`",
            shown(first)
        ));
    };
    let trailing = rest[after..].trim();
    if !trailing.is_empty() {
        return Err(format!(
            "`{}` follows the heredoc `{delimiter}`: editblocks runs no commands and only applies the patch; send it alone",
            shown(trailing)
        ));
    }
    Ok(format!("{first}\n{}", &rest[..end]))
}

/// The heredoc terminator when `line` is `apply_patch <<'EOF'` (or `<<EOF`,
/// `<<"EOF"`), optionally after `cd <one folder> &&`, and nothing else.
fn heredoc_start(line: &str) -> Option<String> {
    let t = line.trim();
    let (before, after) = APPLY_PATCH_COMMANDS
        .iter()
        .find_map(|c| t.find(c).map(|at| (&t[..at], &t[at + c.len()..])))?;
    if !before.is_empty() && !is_cd_prefix(before) {
        return None;
    }
    let redirect = after.trim_start();
    if redirect.len() == after.len() && !after.starts_with("<<") {
        return None;
    }
    let word = redirect.strip_prefix("<<")?.trim_start();
    if word.starts_with('<') {
        return None;
    }
    let delimiter = match word.chars().next()? {
        q @ ('\'' | '"') => word[1..].strip_suffix(q)?,
        _ => word,
    };
    let plain = !delimiter.is_empty()
        && delimiter
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    plain.then(|| delimiter.to_string())
}

/// `cd <folder> && ` with one folder (a word, or a quoted name): whether the
/// folder can be followed is the patch reader's to say.
fn is_cd_prefix(before: &str) -> bool {
    let Some(rest) = before.trim_end().strip_suffix("&&") else {
        return false;
    };
    let Some(folder) = rest.trim().strip_prefix("cd") else {
        return false;
    };
    if !folder.starts_with([' ', '\t']) {
        return false;
    }
    let folder = folder.trim();
    match folder.chars().next() {
        Some(q @ ('\'' | '"')) => folder[1..]
            .strip_suffix(q)
            .is_some_and(|inner| !inner.contains(q)),
        Some(_) => !folder
            .chars()
            .any(|c| c.is_whitespace() || "&|;<>()`'\"".contains(c)),
        None => false,
    }
}

/// The patch's operations as the reply parser reads them; a dropped patch
/// is one refusal with the parser's reason.
fn read_patch(text: &str) -> Vec<ShellOp> {
    let mut stream = EditStream::new(&ParseOptions {
        formats: vec![Format::ApplyPatch],
        ..ParseOptions::default()
    });
    let mut events = stream.feed(text);
    events.extend(stream.finish());
    let mut out = Vec::new();
    for event in events {
        match event {
            StreamEvent::BlockComplete { block, .. } => out.extend(operation(&block)),
            StreamEvent::BlockDiscarded {
                file_path, reason, ..
            } => out.push((file_path.unwrap_or_default(), Err(reason))),
            _ => {}
        }
    }
    out
}

/// A V4A body line by line, as the `apply_patch_call` operations carry it.
fn sections(block: &EditBlock) -> String {
    let Some(patch) = &block.patch else {
        return String::new();
    };
    let mut out = String::new();
    for hunk in &patch.hunks {
        if hunk.anchors.is_empty() {
            out.push_str("@@\n");
        }
        for anchor in &hunk.anchors {
            out.push_str("@@ ");
            out.push_str(anchor);
            out.push('\n');
        }
        for line in hunk.lines() {
            out.push_str(line);
            out.push('\n');
        }
        if hunk.end_of_file {
            out.push_str("*** End of File\n");
        }
    }
    out
}

/// One block of the patch as the work of the apply_patch tool's operations.
fn operation(block: &EditBlock) -> Vec<ShellOp> {
    let path = block.file_path.clone();
    let Some(patch) = &block.patch else {
        return vec![(path, Err("the patch operation could not be read".into()))];
    };
    match (patch.operation, &patch.move_to) {
        (Operation::Add, _) => {
            let diff: String = patch
                .hunks
                .iter()
                .flat_map(|h| h.lines())
                .map(|l| format!("{l}\n"))
                .collect();
            vec![(path, Ok(Op::Provider(ProviderOp::PatchCreate { diff })))]
        }
        (Operation::Delete, _) => vec![(path, Ok(Op::Provider(ProviderOp::PatchDelete)))],
        (Operation::Update, None) => vec![(
            path,
            Ok(Op::Provider(ProviderOp::PatchUpdate {
                diff: sections(block),
            })),
        )],
        (Operation::Update, Some(to)) => {
            let diff = (!patch.hunks.is_empty()).then(|| sections(block));
            vec![
                (
                    path.clone(),
                    Ok(Op::Provider(ProviderOp::PatchMoveOut {
                        diff,
                        to: to.clone(),
                    })),
                ),
                (
                    to.clone(),
                    Ok(Op::Provider(ProviderOp::PatchMoveIn { from: path })),
                ),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_heredoc_start_line() {
        assert_eq!(heredoc_start("apply_patch <<'EOF'"), Some("EOF".into()));
        assert_eq!(
            heredoc_start("applypatch <<\"PATCH\""),
            Some("PATCH".into())
        );
        assert_eq!(heredoc_start("apply_patch<<EOF"), Some("EOF".into()));
        assert_eq!(
            heredoc_start("cd web && apply_patch <<'EOF'"),
            Some("EOF".into())
        );
        assert_eq!(
            heredoc_start("cd 'a b' && apply_patch <<'EOF'"),
            Some("EOF".into())
        );
        for line in [
            "apply_patch <<'EOF' && echo hi",
            "apply_patch x <<'EOF'",
            "apply_patch <<<'EOF'",
            "echo hi && apply_patch <<'EOF'",
            "cd a; apply_patch <<'EOF'",
            "cd a || apply_patch <<'EOF'",
            "cd a | apply_patch <<'EOF'",
            "cd a b && apply_patch <<'EOF'",
            "cd $(pwd) && apply_patch <<'EOF'",
            "cd a && cd b && apply_patch <<'EOF'",
            "apply_patch",
            "apply_patch <<'E OF'",
        ] {
            assert_eq!(heredoc_start(line), None, "{line}");
        }
    }

    #[test]
    fn names_what_is_wrong_with_an_argv() {
        assert_eq!(from_argv(&["apply_patch", "p"]), Ok("p".into()));
        assert!(from_argv(&[]).unwrap_err().starts_with("command is empty"));
        assert!(from_argv(&["apply_patch"])
            .unwrap_err()
            .contains("has 0 after it"));
        assert!(from_argv(&["ls", "-la"])
            .unwrap_err()
            .starts_with("`ls -la` is not an edit"));
        assert!(from_argv(&["git", "apply_patch"])
            .unwrap_err()
            .contains("together with other commands"));
    }

    #[test]
    fn reads_the_workdir() {
        let dir = |v: Value| {
            workdir(
                serde_json::json!({ "workdir": v }).as_object().unwrap(),
                None,
            )
        };
        assert_eq!(dir(Value::from("web/")), Ok(Some("web".into())));
        assert_eq!(dir(Value::from("./")), Ok(None));
        assert_eq!(dir(Value::Null), Ok(None));
        for bad in [
            "/srv/app", "/", "~/x", "..", "a/../..", "C:\\x", "$HOME", "a//b",
        ] {
            assert!(dir(Value::from(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_an_absolute_workdir_against_the_project_dir() {
        let dir = |v: &str| {
            workdir(
                serde_json::json!({ "workdir": v }).as_object().unwrap(),
                Some("/home/u/proj/"),
            )
        };
        assert_eq!(dir("/home/u/proj"), Ok(None));
        assert_eq!(dir("/home/u/proj/"), Ok(None));
        assert_eq!(dir("/home/u/proj/web/ui/"), Ok(Some("web/ui".into())));
        assert_eq!(dir("web"), Ok(Some("web".into())));
        for bad in ["/home/u/projX", "/home/u/proj/../x", "/home/u", "/etc"] {
            let why = dir(bad).unwrap_err();
            assert!(why.contains(&format!("`{bad}`")), "{bad}: {why}");
        }
        assert!(dir("/etc")
            .unwrap_err()
            .contains("outside the project root `/home/u/proj`"));
    }
}
