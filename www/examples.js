// The demo's in-memory example project and a few model replies to stream at it.

export const project = {
  'src/pipeline.py': `"""A tiny data pipeline."""

from .config import load_config


def process(items):
    step_one(items)
    step_two(items)
    return items


def step_one(items):
    for item in items:
        item.validate()


def step_two(items):
    items.sort(key=lambda item: item.priority)
`,
  'src/config.ts': `export interface Config {
  retries: number;
  timeoutMs: number;
}

export const defaults: Config = {
  retries: 3,
  timeoutMs: 5000,
};

export function load(overrides: Partial<Config> = {}): Config {
  return { ...defaults, ...overrides };
}
`,
  'src/greeting.js': `export function greet(name) {
  return \`Hello, \${name} 👋🏻\`;
}

export function farewell(name) {
  return \`Bye, \${name}!\`;
}
`,
  'README.md': `# Example project

A small project the demo edits in memory. Nothing here touches your disk.
`,
};

export const replies = [
  {
    id: 'edit-repl',
    title: 'Rename a step, new file (edit-repl)',
    text: `I'll rename the second step, add a third one, and note it in a changelog.

src/pipeline.py
««« EDIT
def process(items):
    step_one(items)
    step_two(items)
    return items
═══════ REPL
def process(items):
    step_one(items)
    step_two_sorted(items)
    step_three(items)
    return items
»»» EDIT END

The function itself gets the new name, and the new step goes right after it:

src/pipeline.py
««« EDIT
def step_two(items):
    items.sort(key=lambda item: item.priority)
═══════ REPL
def step_two_sorted(items):
    items.sort(key=lambda item: item.priority)


def step_three(items):
    return [item for item in items if item.enabled]
»»» EDIT END

A friendlier wave, too:

src/greeting.js
««« EDIT
export function greet(name) {
  return \`Hello, \${name} 👋🏻\`;
═══════ REPL
export function greet(name) {
  return \`Hello there, \${name} 👋🏿\`;
»»» EDIT END

docs/CHANGELOG.md
««« EDIT
═══════ REPL
# Changelog

- \`step_two\` is now \`step_two_sorted\`; \`step_three\` filters disabled items.
»»» EDIT END

You may also want to run \`git rm notes.txt\` since it is out of date.
`,
  },
  {
    id: 'search-replace',
    title: 'A failed edit and a skipped one (search/replace)',
    text: `Let's raise the retry count and shorten the timeout.

src/config.ts
<<<<<<< SEARCH
  retries: 3,
=======
  retries: 5,
>>>>>>> REPLACE

src/config.ts
<<<<<<< SEARCH
  timeoutMs: 3000,
=======
  timeoutMs: 2000,
>>>>>>> REPLACE

src/config.ts
<<<<<<< SEARCH
export function load(overrides: Partial<Config> = {}): Config {
=======
export function load(overrides: Partial<Config> = {}): Readonly<Config> {
>>>>>>> REPLACE

The second block quotes the timeout wrongly (the file says 5000), so it fails and the one after it in the same file is skipped.
`,
  },
  {
    id: 'anchored',
    title: 'Leading and trailing anchors (anchored)',
    text: `Validation should skip items that are already known to be valid.

src/pipeline.py
««« EDIT
def step_one(items):
    for item in items:
───────
        item.validate()
═══════
        if not item.validated:
            item.validate()
───────


def step_two(items):
»»»
`,
  },
  {
    id: 'ambiguous',
    title: 'An ambiguous anchor (retry prompt)',
    text: `Add a version export after the function.

src/greeting.js
««« EDIT
}
═══════ REPL
}

export const version = 2;
»»» EDIT END

That closing brace appears twice in the file, so the edit cannot be placed.
`,
  },
  {
    id: 'hostile',
    title: 'Markup in paths and lines (escaping)',
    text: `This reply tries to smuggle markup into the page; every piece must show as text.

src/<img src=x onerror="window.__ebPwned=1">.js
««« EDIT
═══════ REPL
<script>window.__ebPwned = 2</script>
<img src=x onerror="window.__ebPwned=3">
»»» EDIT END

src/greeting.js
««« EDIT
export function farewell(name) {
  return \`Bye, \${name}!\`;
═══════ REPL
export function farewell(name) {
  return \`<b onmouseover="window.__ebPwned=4">Bye</b>, \${name}!\`;
»»» EDIT END
`,
  },
];
