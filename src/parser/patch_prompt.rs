//! The instructions a model needs to write each patch format, in our own
//! words, with examples that parse.

use crate::block::Format;

const APPLY_PATCH: &str = "\
# Editing files

To change files, write one patch:

*** Begin Patch
*** Update File: src/math.py
@@ def multiply(a, b):
-    return a + b
+    return a * b
*** End Patch

The patch starts with `*** Begin Patch` and ends with `*** End Patch`, each alone on its line. Between them, one operation per file:

- `*** Add File: path` creates a file; every following line is a line of the new file, written with a leading `+`.
- `*** Delete File: path` deletes a file; no lines follow.
- `*** Update File: path` changes a file. `*** Move to: new/path` right after it also renames the file.

An update is made of sections. Each starts with a line `@@`, optionally followed by a line copied from the file that comes before the change (a function or class signature): `@@ def multiply(a, b):`. Several `@@` lines narrow the place step by step (`@@ class Calculator:` then `@@     def add(self, a, b):`). Then each line of the section starts with one character:

- a space: a context line, unchanged, copied from the file;
- `-`: a line to remove, copied from the file;
- `+`: a line to add.

Give about three context lines before and after each change, so that the section matches one place in the file only. Sections apply top to bottom, in file order. Write `*** End of File` after a section whose lines end the file.

Add a function after another one and create a test file:

*** Begin Patch
*** Update File: src/math.py
@@
 def multiply(a, b):
     return a * b
+
+
+def divide(a, b):
+    return a / b
*** Add File: tests/test_math.py
+from src.math import divide
+
+
+def test_divide():
+    assert divide(6, 3) == 2
*** End Patch

Rename a module and delete an old file:

*** Begin Patch
*** Update File: src/util.py
*** Move to: src/helpers.py
@@ def slugify(text):
-    return text.lower()
+    return text.strip().lower().replace(\" \", \"-\")
*** Delete File: src/old_helpers.py
*** End Patch

Rules:
1. Copy context and removed lines from the file as it is now, character for character, indentation included. Never retype them from memory and never write placeholders such as `...`.
2. Paths are relative to the project root.
3. One operation per file in a patch; put every change to a file in its sections, in file order.
4. A patch applies whole or not at all: if one section does not match, nothing is written, and you get the reason and the file's current lines.
";

const UNIFIED_DIFF: &str = "\
# Editing files

To change files, write a unified diff, as `git diff` prints it:

--- a/src/math.py
+++ b/src/math.py
@@ -1,2 +1,2 @@
 def multiply(a, b):
-    return a + b
+    return a * b

Each file starts with `--- a/path` and `+++ b/path` on two lines. Each change is a hunk: a line `@@ -old,count +new,count @@` (the numbers may be left out: `@@ ... @@`), then lines that start with one character:

- a space: a context line, unchanged, copied from the file;
- `-`: a line to remove, copied from the file;
- `+`: a line to add.

Hunks are found by their lines, not by their numbers: give about three context lines before and after each change so that the hunk matches one place in the file only. The numbers only help to choose between identical places.

Create a file with `--- /dev/null`, delete one with `+++ /dev/null`:

--- /dev/null
+++ b/src/greeting.py
@@ -0,0 +1,2 @@
+def hello():
+    print(\"Hello, world!\")

Rename a file with a git header:

diff --git a/src/util.py b/src/helpers.py
rename from src/util.py
rename to src/helpers.py

Rules:
1. Copy context and removed lines from the file as it is now, character for character, indentation and blank lines included. Never retype them from memory and never write placeholders such as `...`.
2. Paths are relative to the project root.
3. Hunks of one file go in file order.
4. Write `\\ No newline at end of file` after a last line that has no newline.
5. A diff applies whole or not at all: if one hunk does not match, nothing is written, and you get the reason and the file's current lines.
";

/// The instructions for a patch format.
pub(crate) fn system_prompt(format: Format) -> String {
    match format {
        Format::UnifiedDiff => UNIFIED_DIFF.to_string(),
        _ => APPLY_PATCH.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{parse_edits, ParseOptions};

    #[test]
    fn every_example_parses_in_its_own_format() {
        for format in [Format::ApplyPatch, Format::UnifiedDiff] {
            let blocks = parse_edits(
                &system_prompt(format),
                &ParseOptions {
                    formats: vec![format],
                    ..Default::default()
                },
            );
            assert!(blocks.len() >= 3, "{format:?}: {blocks:#?}");
            assert!(blocks.iter().all(|b| b.format == format));
            assert!(blocks.iter().any(|b| b.is_create()));
        }
    }
}
