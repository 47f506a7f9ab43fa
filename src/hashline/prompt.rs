//! The instructions for the model, in our own words. Every example is
//! rendered from real [`format_hashlines`] output and real refusals, so the
//! anchors in the prompt are ones the applier accepts.

use super::apply::{edit_body, HashlineOptions};
use super::call::{parse_call, HashlineOp};
use super::id::{line_id, MAX_WIDTH};
use super::view::format_hashlines;

/// Instructions for the model using hashline edits (default width, content
/// replace not offered).
pub fn system_prompt() -> String {
    system_prompt_with(&HashlineOptions::default())
}

/// Instructions matching `options`: the ID width used in the examples and
/// whether content replace (`old_text`/`new_text`) is offered.
pub fn system_prompt_with(options: &HashlineOptions) -> String {
    let w = options.width.clamp(1, MAX_WIDTH);
    let mut p = String::new();
    let intro_view = view(
        41,
        &[
            "export function total(items: Item[]): number {",
            "  return items.reduce((sum, i) => sum + i.price, 0);",
            "}",
        ],
        w,
    );
    p.push_str(&format!(
        "# Editing files by LINE#ID

The `read` tool shows a file as numbered lines, each with a short ID computed from that line's content:

```
{intro_view}
```

The part before `|` is the line's anchor: `{a41}` names line 41 as you saw it. To change a file you call `edit` with \
the file's path and a list of operations that point at lines by their anchors; you never retype the old text. If a \
line changed after you read it, its ID no longer matches and the whole call is refused before anything is written.

## The call

```
{{ \"path\": \"src/cart.ts\", \"edits\": [operation, ...], \"delete\"?: true, \"rename\"?: \"new/path.ts\" }}
```

Put every change to one file into a single call. All operations of a call refer to the file exactly as you read \
it: they are checked together and applied from the bottom up, so line numbers never shift between the operations \
of one call.

## Operations

- Replace one line: `{{ \"target\": \"LINE#ID\", \"new_content\": [\"...\"] }}`. `new_content: null` removes the \
line; `new_content: [\"\"]` keeps it as an empty line. Several strings replace the line with several lines.
- Replace a range: `{{ \"first\": \"LINE#ID\", \"last\": \"LINE#ID\", \"new_content\": [\"...\"] }}`, both ends \
included. `new_content: null` removes the whole range.
- Insert new lines: `{{ \"after\": \"LINE#ID\", \"inserted_lines\": [\"...\"] }}`, or `\"before\"` instead of \
`\"after\"`, or both `\"after\"` and `\"before\"` on two neighbouring lines to pin the exact gap. `inserted_lines` \
holds at least one line (`[\"\"]` inserts an empty line).
",
        a41 = anchor(41, "export function total(items: Item[]): number {", w),
    ));
    if options.allow_replace_text {
        p.push_str(
            "- Replace text (only when no anchor fits): `{ \"old_text\": \"...\", \"new_text\": \"...\", \"all\"?: true }`. \
`old_text` must appear exactly once in the file, character for character, unless `all` is true.\n",
        );
    }
    p.push_str(
        "- Delete the file: `{ \"path\": \"...\", \"delete\": true, \"edits\": [] }`.
- Move the file: `{ \"path\": \"...\", \"rename\": \"new/path.ts\", \"edits\": [...] }`. The edits (if any) are applied \
and the result is written to the new path in the same step. A call cannot both delete and rename.

## Rules

1. An anchor is `LINE#ID` and nothing else: copy it exactly from the read output or from an error, without spaces \
and without the `|` and the text after it. Never make up an ID.
2. `new_content` and `inserted_lines` hold plain file lines with their indentation: no `LINE#ID|` prefixes, no \
diff markers.
3. One operation per place that changes. Two operations of one call may not touch the same lines or insert at the \
same place; for neighbouring changes, or to swap or move lines, use one range operation.
4. Every operation must change something: content identical to the current lines is refused.
5. Change only what was asked. Keep indentation, quotes, commas and brace style as they are.
6. Anchor inserts on lines with code (`}`, a function header, an existing entry) rather than on empty lines, which \
other edits add and remove.
7. Lines you changed have new IDs. Before editing the same file again, use the anchors the result shows or read the \
file again.
8. Reply with tool calls only.

## Examples\n\n",
    );
    for example in examples(options.allow_replace_text) {
        p.push_str(&render_example(example, w));
    }
    p.push_str(&refusals(w));
    p
}

struct Example {
    title: &'static str,
    path: &'static str,
    /// First line number of the excerpt the model read.
    start: usize,
    lines: &'static [&'static str],
    /// Operations as JSON text; `"@N"` stands for the anchor of line N.
    ops: &'static [&'static str],
    /// More fields of the call, as JSON text (`"rename": "..."`).
    extra: &'static str,
    note: &'static str,
}

const EXAMPLES: &[Example] = &[
    Example {
        title: "Fix one value",
        path: "src/client.ts",
        start: 23,
        lines: &["  const timeout: number = 5000;"],
        ops: &[r#"{ "target": "@23", "new_content": ["  const timeout: number = 30_000;"] }"#],
        extra: "",
        note: "",
    },
    Example {
        title: "Remove a line",
        path: "src/load.ts",
        start: 7,
        lines: &["// @ts-ignore", "const data = fetchSync(url);"],
        ops: &[r#"{ "target": "@7", "new_content": null }"#],
        extra: "",
        note: "",
    },
    Example {
        title: "Empty a line but keep it",
        path: "src/form.ts",
        start: 14,
        lines: &["  placeholder: \"DO NOT SHIP\","],
        ops: &[r#"{ "target": "@14", "new_content": [""] }"#],
        extra: "",
        note: "",
    },
    Example {
        title: "Rewrite a block",
        path: "src/read.ts",
        start: 60,
        lines: &["    } catch (err) {", "      console.error(err);", "      return null;", "    }"],
        ops: &[r#"{ "first": "@60", "last": "@63", "new_content": ["    } catch (err) {", "      if (isEnoent(err)) return null;", "      throw err;", "    }"] }"#],
        extra: "",
        note: "",
    },
    Example {
        title: "Remove a block",
        path: "src/handler.ts",
        start: 80,
        lines: &["  // TODO: remove after migration", "  if (legacy) {", "    legacyHandler(req);", "  }"],
        ops: &[r#"{ "first": "@80", "last": "@83", "new_content": null }"#],
        extra: "",
        note: "",
    },
    Example {
        title: "Add an import at the top",
        path: "src/paths.ts",
        start: 1,
        lines: &["import * as fs from \"node:fs/promises\";", "import * as path from \"node:path\";"],
        ops: &[r#"{ "before": "@1", "inserted_lines": ["import * as os from \"node:os\";"] }"#],
        extra: "",
        note: "Nothing is above line 1, so `before` is the anchor to use.",
    },
    Example {
        title: "Append at the end of the file",
        path: "src/codec.ts",
        start: 260,
        lines: &["export { serialize, deserialize };"],
        ops: &[r#"{ "after": "@260", "inserted_lines": ["export { validate };"] }"#],
        extra: "",
        note: "Nothing is below the last line, so `after` is the anchor to use.",
    },
    Example {
        title: "Add an entry between two neighbours",
        path: "package.json",
        start: 44,
        lines: &["    \"build\": \"bun run compile\",", "    \"test\": \"bun test\""],
        ops: &[r#"{ "after": "@44", "before": "@45", "inserted_lines": ["    \"lint\": \"biome check\","] }"#],
        extra: "",
        note: "Two anchors name exactly one gap; prefer them whenever both neighbours are lines with content.",
    },
    Example {
        title: "Add a function above another, anchored on code rather than on the empty line",
        path: "src/serialize.ts",
        start: 100,
        lines: &["  return buf.toString(\"hex\");", "}", "", "export function serialize(data: unknown): string {"],
        ops: &[r#"{ "before": "@103", "inserted_lines": ["function validate(data: unknown): boolean {", "  return data != null && typeof data === \"object\";", "}", ""] }"#],
        extra: "",
        note: "The final `\"\"` keeps an empty line between the two functions. `after` on the empty line 102 would also work today, but empty lines come and go; the function header is a steadier anchor.",
    },
    Example {
        title: "Several changes in one call, all numbered as read",
        path: "src/config.ts",
        start: 10,
        lines: &["const port = 8080;", "const host = \"localhost\";", "const debug = true;", "", "export default { port, host };"],
        ops: &[
            r#"{ "target": "@12", "new_content": null }"#,
            r#"{ "target": "@14", "new_content": ["export default { port, host, tls: false };"] }"#,
            r#"{ "before": "@10", "inserted_lines": ["// Server settings"] }"#,
        ],
        extra: "",
        note: "Line 14 is still called 14 although line 12 is removed and a line is inserted above line 10 in the same call.",
    },
];

const REPLACE_TEXT_EXAMPLE: Example = Example {
    title: "Replace text when no anchor is at hand",
    path: "src/answer.ts",
    start: 0,
    lines: &[],
    ops: &[r#"{ "old_text": "x = 42", "new_text": "x = 99" }"#],
    extra: "",
    note: "`old_text` must occur exactly once in the file; add `\"all\": true` to replace every occurrence.",
};

const FILE_EXAMPLES: &[Example] = &[
    Example {
        title: "Delete a file",
        path: "src/deprecated/legacy.ts",
        start: 0,
        lines: &[],
        ops: &[],
        extra: r#""delete": true"#,
        note: "",
    },
    Example {
        title: "Move a file and change it in the same step",
        path: "src/utils.ts",
        start: 1,
        lines: &["export function clamp(n: number, lo: number, hi: number) {"],
        ops: &[
            r#"{ "target": "@1", "new_content": ["export function clamp(n: number, lo = 0, hi = 1) {"] }"#,
        ],
        extra: r#""rename": "src/helpers/utils.ts""#,
        note: "",
    },
];

fn examples(allow_replace_text: bool) -> Vec<&'static Example> {
    let mut list: Vec<&'static Example> = EXAMPLES.iter().collect();
    if allow_replace_text {
        list.push(&REPLACE_TEXT_EXAMPLE);
    }
    list.extend(FILE_EXAMPLES.iter());
    list
}

/// The read view of `lines` as lines `start..`: real [`format_hashlines`] output.
fn view(start: usize, lines: &[&str], width: usize) -> String {
    let mut content = "\n".repeat(start.saturating_sub(1));
    for line in lines {
        content.push_str(line);
        content.push('\n');
    }
    format_hashlines(&content, start, None, width)
}

fn anchor(number: usize, line: &str, width: usize) -> String {
    format!("{number}#{}", line_id(line, width))
}

fn render_example(example: &Example, width: usize) -> String {
    // `"@N"` becomes the real anchor of line N, computed from the excerpt.
    let resolve = |op: &str| -> String {
        let mut out = String::new();
        let mut rest = op;
        while let Some(at) = rest.find("\"@") {
            out.push_str(&rest[..at + 1]);
            let after = &rest[at + 2..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let n: usize = after[..digits].parse().unwrap_or(0);
            let line = n
                .checked_sub(example.start)
                .and_then(|i| example.lines.get(i))
                .copied()
                .unwrap_or("");
            out.push_str(&anchor(n, line, width));
            rest = &after[digits..];
        }
        out.push_str(rest);
        out
    };
    let mut out = format!("### {}\n\n", example.title);
    if !example.lines.is_empty() {
        out.push_str(&format!(
            "Read:\n```\n{}\n```\n",
            view(example.start, example.lines, width)
        ));
    }
    let mut head = format!("{{ \"path\": \"{}\"", example.path);
    if !example.extra.is_empty() {
        head.push_str(", ");
        head.push_str(example.extra);
    }
    let ops: Vec<String> = example
        .ops
        .iter()
        .map(|op| format!("  {}", resolve(op)))
        .collect();
    let call = if ops.is_empty() {
        format!("{head}, \"edits\": [] }}")
    } else {
        format!("{head}, \"edits\": [\n{}\n] }}", ops.join(",\n"))
    };
    out.push_str(&format!("Call:\n```\n{call}\n```\n"));
    if !example.note.is_empty() {
        out.push_str(example.note);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// The refusals section, with a stale-anchor error produced by the applier itself.
fn refusals(width: usize) -> String {
    let read =
        "def area(r):\n    return 3.14 * r * r\n\ndef perimeter(r):\n    return 2 * 3.14 * r\n";
    let now = format!("import math\n\n{read}");
    let read_lines: Vec<&str> = read.lines().collect();
    let call = serde_json::json!({ "path": "geometry.py", "edits": [
        { "target": anchor(2, read_lines[1], width), "new_content": ["    return round(3.14 * r * r, 2)"] }
    ]});
    let error = parse_call(&call, width)
        .ok()
        .and_then(|c| {
            let ops: Vec<HashlineOp> = c.edits;
            edit_body("geometry.py", &now, &ops, width).err()
        })
        .and_then(|r| r.reason)
        .unwrap_or_default();
    format!(
        "## When a call is refused

A refused call writes nothing at all, so fix it and send the whole call again.

- **Stale anchors.** The file changed since you read it. The error shows every line an anchor named, marked \
`>>>`, with its current `LINE#ID` and two lines around it. For example, after you read `geometry.py` and sent \
`{{ \"target\": \"{sent}\", ... }}`, an import and an empty line were added at the top:

```
{error}
```

  Retry with the anchors shown (here `{fixed}`); read again only when a line you need is not in the excerpt. If \
the same lines are refused twice, read that part of the file again.
- **A line that does not exist.** The error says how many lines the file has; read the end of the file again.
- **A malformed anchor.** Send `LINE#ID` exactly as shown, such as `{sent}`, never `{sent}|{content}`.
- **Nothing would change, or operations overlap.** Read the lines again and send one operation per place, each \
with content that differs from the current lines.
",
        sent = anchor(2, read_lines[1], width),
        fixed = anchor(4, read_lines[1], width),
        content = read_lines[1],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashline::DEFAULT_WIDTH;

    #[test]
    fn prompt_has_real_anchors_and_no_placeholders() {
        let p = system_prompt();
        assert!(
            !p.contains("{{") && !p.contains("@23") && !p.contains("hlineref"),
            "{p}"
        );
        assert!(p.contains(&format!(
            "23#{}|  const timeout: number = 5000;",
            line_id("  const timeout: number = 5000;", DEFAULT_WIDTH)
        )));
        assert!(p.contains(&format!(
            "\"target\": \"23#{}\"",
            line_id("  const timeout: number = 5000;", DEFAULT_WIDTH)
        )));
        assert!(p.contains(">>> "), "the stale example was not rendered");
        assert!(!p.contains("old_text"));
        assert!(system_prompt_with(&HashlineOptions {
            allow_replace_text: true,
            ..HashlineOptions::default()
        })
        .contains("old_text"));
    }
}
