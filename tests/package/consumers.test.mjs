// Packs pkg/ with `npm pack` and installs the tarball into real consumer
// projects in a scratch folder, then calls the package there: Node ESM,
// Node CommonJS, the CLI through node_modules/.bin, and TypeScript consumers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-consumers-'));
let tarball;

const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function consumer(name, packageJson, files) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, ...packageJson }, null, 2));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  return dir;
}

before(() => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  tarball = path.join(scratch, JSON.parse(out)[0].filename);
});

test('the tarball holds exactly the files the package needs', () => {
  const listing = sh('tar', ['-tzf', tarball], scratch).split('\n').filter(Boolean).sort();
  for (const needed of ['package/package.json', 'package/node/index.cjs', 'package/node/index.mjs', 'package/web/index.js',
    'package/web/editblocks_bg.wasm', 'package/types/index.d.ts', 'package/node/lite.cjs', 'package/node/lite.mjs',
    'package/web/lite.js', 'package/web/editblocks_lite_bg.wasm', 'package/types/lite.d.ts', 'package/types/lite.d.cts']) {
    assert.ok(listing.includes(needed), `${needed} missing from ${listing.join(', ')}`);
  }
  // Each module ships once as a file (the full one and editblocks/lite's), for browsers; the Node
  // entries carry the same bytes inside their JavaScript, so a bundler moving them loses nothing.
  assert.deepEqual(listing.filter((f) => f.endsWith('.wasm')), ['package/web/editblocks_bg.wasm', 'package/web/editblocks_lite_bg.wasm']);
  assert.ok(!listing.some((f) => f.includes('.rs') || f.includes('target/')), 'no sources in the tarball');
});

test('the tarball carries the MIT licence, a README for package users and links to the project', () => {
  const file = (name) => sh('tar', ['-xzOf', tarball, `package/${name}`], scratch);
  assert.match(file('LICENSE'), /^MIT License/);
  assert.equal(file('LICENSE'), fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
  const readme = file('README.md');
  for (const section of ['npm install editblocks', 'initSync(', 'nodeHost(', 'renderEditBlock(', 'applyToolCalls(', '## API']) {
    assert.ok(readme.includes(section), `the package README shows ${section}`);
  }
  // What only a contributor can use (scripts, benchmarks, CI) stays in the repository README.
  for (const contributorOnly of ['scripts/test.sh', 'benches/', '.ci/', 'CONTRIBUTING']) {
    assert.ok(!readme.includes(contributorOnly), `the package README does not mention ${contributorOnly}`);
  }
  const meta = JSON.parse(file('package.json'));
  assert.equal(meta.license, 'MIT');
  assert.match(meta.repository.url, /^git\+https:\/\/github\.com\/.+\.git$/);
  assert.match(meta.homepage, /^https:\/\//);
  assert.match(meta.bugs.url, /^https:\/\/.+\/issues$/);
});

test('a Node ESM project imports it with no init', () => {
  const dir = consumer('esm-consumer', { type: 'module' }, {
    'main.js': "import { detectShellSuggestions } from 'editblocks';\nconsole.log(JSON.stringify(detectShellSuggestions('`git rm a.txt`')));\n",
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), '["git rm a.txt"]');
});

test('require(\'editblocks/web\') in Node gives a ready module with the browser build\'s API', () => {
  const dir = consumer('cjs-web-consumer', {}, {
    'main.js': "const web = require('editblocks/web');\nconsole.log(JSON.stringify([web.detectFormat('a.py\\n<<<<<<< SEARCH\\nx\\n=======\\ny\\n>>>>>>> REPLACE\\n'), typeof web.init]));\n",
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), '["search-replace","function"]');
});

test('a Node CommonJS project requires it with no init', () => {
  const dir = consumer('cjs-consumer', {}, {
    'main.js': "const eb = require('editblocks');\nconsole.log(JSON.stringify(eb.detectShellSuggestions('`mkdir -p x/y`')));\n",
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), '["mkdir -p x/y"]');
});

test('import and require in one Node process share one instance', () => {
  const dir = consumer('mixed-consumer', { type: 'module' }, {
    'main.js': [
      "import { createRequire } from 'node:module';",
      "import * as esm from 'editblocks';",
      "const cjs = createRequire(import.meta.url)('editblocks');",
      "console.log(JSON.stringify([esm.parseEdits === cjs.parseEdits, cjs.detectFormat('a.py\\n<<<<<<< SEARCH\\nx\\n=======\\ny\\n>>>>>>> REPLACE\\n')]));",
    ].join('\n'),
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), '[true,"search-replace"]');
});

const LITE_REPLY = 'a.py\\n<<<<<<< SEARCH\\nx\\n=======\\ny\\n>>>>>>> REPLACE\\n';

test('a Node ESM project imports editblocks/lite with no init, and it gives what editblocks gives', () => {
  const dir = consumer('lite-esm-consumer', { type: 'module' }, {
    'main.js': [
      "import { parseEdits, renderEditBlock, detectFormat } from 'editblocks/lite';",
      "import * as full from 'editblocks';",
      "import * as lite from 'editblocks/lite';",
      `const blocks = parseEdits('${LITE_REPLY}');`,
      `console.log(JSON.stringify([blocks.length, detectFormat('${LITE_REPLY}'), renderEditBlock(blocks[0]) === full.renderEditBlock(full.parseEdits('${LITE_REPLY}')[0]), 'applyEdits' in lite, typeof lite.EditStream]));`,
    ].join('\n'),
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), '[1,"search-replace",true,false,"function"]');
});

test('a Node CommonJS project requires editblocks/lite with no init; import and require share its instance', () => {
  const dir = consumer('lite-cjs-consumer', {}, {
    'main.js': [
      "const lite = require('editblocks/lite');",
      `const html = lite.renderEditBlock(lite.parseEdits('${LITE_REPLY}')[0]);`,
      "import('editblocks/lite').then((esm) => console.log(JSON.stringify([esm.parseEdits === lite.parseEdits, /eb-block/.test(html), Object.keys(lite).length])));",
    ].join('\n'),
  });
  assert.equal(sh('node', ['main.js'], dir).trim(), '[true,true,10]');
});

test('the CLI runs from node_modules/.bin against a real git repository', () => {
  const dir = consumer('cli-consumer', {}, {
    'reply.md': 'Fix the greeting.\n\nhello.txt\n<<<<<<< SEARCH\nhello wrld\n=======\nhello world\n>>>>>>> REPLACE\n',
    'hello.txt': 'hello wrld\n',
  });
  sh('git', ['init', '-q'], dir);
  const out = sh(path.join(dir, 'node_modules', '.bin', 'editblocks'), ['apply', '--root', dir, 'reply.md'], dir);
  assert.match(out, /hello\.txt/);
  assert.equal(fs.readFileSync(path.join(dir, 'hello.txt'), 'utf8'), 'hello world\n');
  assert.match(sh('git', ['status', '--porcelain'], dir), /^A  hello\.txt$/m, 'the edited file is staged');
});

// TypeScript consumers under both module resolutions users pick: the whole
// contract of DESIGN.md must type-check against the shipped .d.ts files.
for (const resolution of ['nodenext', 'bundler']) {
  test(`a TypeScript project type-checks the whole contract (moduleResolution ${resolution})`, () => {
    const dir = consumer(`ts-consumer-${resolution}`, { type: 'module' }, {
      'main.ts': fs.readFileSync(path.join(root, 'tests', 'package', 'ts-consumer', 'main.ts'), 'utf8'),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [],
          module: resolution === 'nodenext' ? 'nodenext' : 'esnext', moduleResolution: resolution,
        },
        files: ['main.ts'],
      }),
    });
    try {
      sh(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', dir], dir);
    } catch (e) {
      assert.fail(`tsc reported:\n${e.stdout}${e.stderr}`);
    }
  });
}

// A consumer written against the official SDKs' own types (openai,
// @anthropic-ai/sdk, @google/genai, this repository's pinned dev
// dependencies, linked into the consumer): their calls go into
// applyToolCalls as they are, and the schemas and answers fit their types.
for (const resolution of ['nodenext', 'bundler']) {
  test(`a TypeScript tool loop type-checks against the OpenAI, Anthropic and Gemini SDKs (moduleResolution ${resolution})`, () => {
    const dir = consumer(`sdk-consumer-${resolution}`, { type: 'module' }, {
      'main.ts': fs.readFileSync(path.join(root, 'tests', 'package', 'sdk-consumer', 'main.ts'), 'utf8'),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [],
          module: resolution === 'nodenext' ? 'nodenext' : 'esnext', moduleResolution: resolution,
        },
        files: ['main.ts'],
      }),
    });
    for (const sdk of ['openai', '@anthropic-ai/sdk', '@google/genai']) {
      const target = path.join(dir, 'node_modules', sdk);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(path.join(root, 'node_modules', sdk), target, 'dir');
    }
    try {
      sh(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', dir], dir);
    } catch (e) {
      assert.fail(`tsc reported:\n${e.stdout}${e.stderr}`);
    }
  });
}
