//! The instructions a model needs to write each text format, in our own
//! words (the rules of seeds 000, 001 and 004), each with examples.

use crate::block::Format;

const COMMON_RULES: &str = "\
Rules that apply to every block:
1. Put the file's path, relative to the project root, alone on the line just before the block. No bullet, no quote mark, no comment characters.
2. Do not wrap blocks in markdown code fences.
3. Copy the lines you are changing from the file as it is now, character for character: indentation, blank lines, comments and trailing spaces all count. Never retype them from memory.
4. Never use placeholders such as `...` or `// rest of code`; every line you show is matched or written literally.
5. Give enough unchanged context that the location is unique in the file. If the same lines appear twice, add a distinctive neighbouring line such as the enclosing function's signature.
6. Blocks are applied one after another, top to bottom: a later block must match the file as the earlier blocks left it. Merge edits that overlap, touch lines within three lines of each other, or depend on each other into one block.
7. Prefer small, targeted blocks over rewriting large regions.
8. Do not delete or rename files with blocks. Ask the user to run `git rm path` or `git mv old new` instead.
9. Markers must stand alone on their own lines, exactly as shown.
";

const EDIT_REPL: &str = "\
# Editing files

To change a file, write an edit block:

path/to/file.ext
««« EDIT
context lines, copied from the file
the lines to change, as they are now
═══════ REPL
the same context lines, unchanged
the lines as they should become
»»» EDIT END

The lines that both sections start with (identical, line for line) are the anchor: they locate the edit and stay as they are. After the anchor, the rest of the EDIT section is replaced by the rest of the REPL section. So always repeat the context lines identically at the top of both sections.

Replace code:

src/math.py
««« EDIT
def multiply(a, b):
    return a + b
═══════ REPL
def multiply(a, b):
    return a * b
»»» EDIT END

Insert after a line (only the anchor in EDIT, anchor plus new lines in REPL):

src/utils.py
««« EDIT
import os
═══════ REPL
import os
import sys
»»» EDIT END

Delete lines (they appear in EDIT, not in REPL):

src/utils.py
««« EDIT
import os
import deprecated_module
import sys
═══════ REPL
import os
import sys
»»» EDIT END

Create a new file (empty EDIT section, the whole content in REPL):

src/greeting.py
««« EDIT
═══════ REPL
def hello():
    print(\"Hello, world!\")
»»» EDIT END

";

const ANCHORED: &str = "\
# Editing files

To change a file, write an anchored edit block with four sections:

path/to/file.ext
««« EDIT
leading anchor: unchanged lines just before the change
───────
old lines: removed
═══════
new lines: inserted where the old lines were
───────
trailing anchor: unchanged lines just after the change
»»»

The leading anchor, old lines and trailing anchor must appear in the file exactly and one right after the other. Any section may be empty (no lines between its markers), but keep every marker.

Replace a line:

src/math.py
««« EDIT
def multiply(a, b):
───────
    return a + b
═══════
    return a * b
───────

def other_function():
»»»

Insert without removing anything (empty old lines):

src/utils.py
««« EDIT
def existing():
    pass
───────
═══════

def new_function():
    return 42
───────
def another():
»»»

Delete lines (empty new lines):

src/app.py
««« EDIT
def main():
───────
    deprecated_call()
═══════
───────
    important_call()
»»»

Create a new file (only new lines):

src/greeting.py
««« EDIT
───────
═══════
def hello():
    print(\"Hello!\")
───────
»»»

";

const SEARCH_REPLACE: &str = "\
# Editing files

To change a file, write a search/replace block:

path/to/file.ext
<<<<<<< SEARCH
the exact lines to find, as they are now
=======
the lines to put in their place
>>>>>>> REPLACE

The SEARCH lines must match the file exactly and in one place only; they are replaced by the REPLACE lines.

Replace code:

src/math.py
<<<<<<< SEARCH
def multiply(a, b):
    return a + b
=======
def multiply(a, b):
    return a * b
>>>>>>> REPLACE

Delete lines (leave them out of REPLACE):

src/utils.py
<<<<<<< SEARCH
import os
import deprecated_module
=======
import os
>>>>>>> REPLACE

Create a new file (empty SEARCH section):

src/greeting.py
<<<<<<< SEARCH
=======
def hello():
    print(\"Hello, world!\")
>>>>>>> REPLACE

";

/// The full instructions for `format`.
pub(crate) fn system_prompt(format: Format) -> String {
    let body = match format {
        Format::EditRepl => EDIT_REPL,
        Format::Anchored => ANCHORED,
        Format::SearchReplace => SEARCH_REPLACE,
        Format::ApplyPatch | Format::UnifiedDiff => {
            return super::patch_prompt::system_prompt(format)
        }
    };
    format!("{body}{COMMON_RULES}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{parse_edits, ParseOptions};

    #[test]
    fn every_example_in_a_prompt_parses_in_its_own_format() {
        for format in Format::ALL.into_iter().filter(|f| !f.is_patch()) {
            let text = system_prompt(format);
            let blocks = parse_edits(
                &text,
                &ParseOptions {
                    formats: vec![format],
                    ..Default::default()
                },
            );
            assert!(blocks.len() >= 3, "{format:?}: {} blocks", blocks.len());
            assert!(
                blocks.iter().all(|b| b.format == format
                    && (b.file_path.starts_with("src/") || b.file_path == "path/to/file.ext")),
                "{format:?}: {blocks:#?}"
            );
            assert!(
                blocks.iter().any(|b| b.is_create()),
                "{format:?} shows how to create a file"
            );
        }
    }
}
