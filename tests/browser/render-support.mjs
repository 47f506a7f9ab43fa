// Shared by the renderer tests in Chromium: a page holding only the
// package's style.css, and the project and reply they stream.
import { watch } from './chromium.mjs';

/** A new page with pkg/style.css and an empty `main#root`. */
export async function openRenderPage(served, { colorScheme = 'light' } = {}) {
  const page = await served.browser.context.newPage();
  await page.emulateMedia({ colorScheme });
  const seen = watch(page);
  await page.goto(`${served.base}/tests/browser/render-page.html`);
  await page.waitForLoadState('load');
  return { page, seen };
}

const numbered = (name, n) => Array.from({ length: n }, (_, i) => `${name}_${i + 1} = step(${i + 1})`).join('\n') + '\n';

/** Files whose edited lines are past line 9, so line numbers have two digits. */
export const files = {
  'src/pipeline.py': `${numbered('setup', 10)}def process(items):\n    step_one(items)\n    step_two(items)\n    return items\n${numbered('tail', 6)}`,
  'src/load.py': `${numbered('head', 12)}def load(path):\n    with open(path) as f:\n        return f.read()\n${numbered('rest', 6)}`,
  'app.py': `${numbered('top', 11)}def save(path, text):\n    with open(path, "w") as f:\n        f.write(text)\n${numbered('end', 5)}`,
  'n.txt': numbered('line', 30),
};

/** One reply with a block of every format, prose between them. */
export const reply = `I will make the changes.

src/pipeline.py
««« EDIT
def process(items):
    step_one(items)
    step_two(items)
═══════ REPL
def process(items):
    step_one(items)
    step_two_sorted(items)
»»» EDIT END

Then the anchored form.

src/pipeline.py
««« EDIT
    step_one(items)
───────
    step_two_sorted(items)
═══════
    step_two_sorted(items, reverse=True)
───────
    return items
»»»

A search and replace whose first lines stay.

src/load.py
<<<<<<< SEARCH
def load(path):
    with open(path) as f:
        return f.read()
=======
def load(path):
    with open(path) as f:
        data = f.read()
        return data.strip()
>>>>>>> REPLACE

A patch.

*** Begin Patch
*** Update File: app.py
@@ def save(path, text):
     with open(path, "w") as f:
-        f.write(text)
+        f.write(text + "\\n")
+        f.flush()
*** Add File: notes.txt
+first note
+second note
*** End Patch

And a unified diff.

--- a/n.txt
+++ b/n.txt
@@ -12,3 +12,4 @@
 line_12 = step(12)
-line_13 = step(13)
+line_13 = step(13) + 1
+line_13b = step(14)
 line_14 = step(14)

Done.
`;
