#!/usr/bin/env node
// What the bytes of a wasm module are: section sizes, and code bytes per
// function and per Rust module path, read from the module's `name` section
// (cargo's wasm output keeps it; wasm-opt's does not). No dependencies: a
// small reader of the binary format.
//
// Usage: node scripts/wasm-size.mjs [file.wasm] [--top N]
//   default file: target/wasm32-unknown-unknown/release/editblocks_wasm.wasm
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'data count'];

function reader(bytes, pos = 0) {
  const r = {
    pos,
    u8: () => bytes[r.pos++],
    leb() {
      let result = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[r.pos++];
        result += (b & 0x7f) * 2 ** shift;
        if ((b & 0x80) === 0) return result;
        shift += 7;
      }
    },
    name() {
      const len = r.leb();
      const s = new TextDecoder().decode(bytes.subarray(r.pos, r.pos + len));
      r.pos += len;
      return s;
    },
  };
  return r;
}

/** Sections, function body sizes and function names of a wasm module. */
export function analyze(bytes) {
  const r = reader(bytes, 8);
  const sections = [];
  let importedFunctions = 0;
  const bodies = [];
  const names = new Map();
  while (r.pos < bytes.length) {
    const id = r.u8();
    const size = r.leb();
    const start = r.pos;
    const end = start + size;
    let label = SECTION_NAMES[id] ?? `section ${id}`;
    if (id === 0) {
      label = `custom "${r.name()}"`;
      if (label === 'custom "name"') {
        while (r.pos < end) {
          const sub = r.u8();
          const subSize = r.leb();
          const subEnd = r.pos + subSize;
          if (sub === 1) {
            const count = r.leb();
            for (let i = 0; i < count; i++) names.set(r.leb(), r.name());
          }
          r.pos = subEnd;
        }
      }
    } else if (id === 2) {
      const count = r.leb();
      for (let i = 0; i < count; i++) {
        r.name();
        r.name();
        const kind = r.u8();
        if (kind === 0) { r.leb(); importedFunctions++; }
        else if (kind === 1) { r.u8(); const flags = r.leb(); r.leb(); if (flags & 1) r.leb(); }
        else if (kind === 2) { const flags = r.leb(); r.leb(); if (flags & 1) r.leb(); }
        else if (kind === 3) { r.u8(); r.u8(); }
        else r.leb();
      }
    } else if (id === 10) {
      const count = r.leb();
      for (let i = 0; i < count; i++) {
        const bodySize = r.leb();
        bodies.push({ index: importedFunctions + i, size: bodySize + 1 });
        r.pos += bodySize;
      }
    }
    sections.push({ label, size: size + 1 + Math.ceil(Math.log2(size + 2) / 7) });
    r.pos = end;
  }
  for (const b of bodies) b.name = names.get(b.index) ?? `func[${b.index}]`;
  return { total: bytes.length, sections, functions: bodies };
}

/** A readable owner for a (possibly mangled) Rust symbol: crate::module, or the symbol itself. */
export function owner(name) {
  let n = name;
  const legacy = /^_ZN((?:\d+[^\d][^]*?)+)E$/.exec(n);
  if (legacy) {
    const parts = [];
    let s = legacy[1];
    while (s.length) {
      const m = /^(\d+)/.exec(s);
      if (!m) break;
      const len = Number(m[1]);
      parts.push(s.slice(m[1].length, m[1].length + len));
      s = s.slice(m[1].length + len);
    }
    n = parts.join('::');
  }
  // v0 mangling (`_R…`): the crate is the first `C[s<disambiguator>_]<len><name>`.
  const v0 = /^_R.*?C(?:s[0-9a-zA-Z]*_)?(\d+)/.exec(n);
  if (v0) {
    const start = v0.index + v0[0].length;
    const crate = n.slice(start, start + Number(v0[1]));
    return crate === 'editblocks' ? 'editblocks' : crate;
  }
  // `<T as Trait>::method` and `_<impl …>` forms: take the first path mentioned.
  const path = /([A-Za-z_][\w]*)(::[A-Za-z_][\w]*)?/.exec(n.replace(/^_?\$?LT\$|^</, ''));
  if (!path) return n;
  const crate = path[1];
  const module = path[2] ? path[2].slice(2) : '';
  if (crate === 'editblocks') return module ? `editblocks::${module}` : 'editblocks';
  if (/^(core|alloc|std)$/.test(crate)) return crate;
  return crate;
}

export function report(bytes, top = 12) {
  const { total, sections, functions } = analyze(bytes);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const lines = [];
  const bySection = [...sections].sort((a, b) => b.size - a.size).slice(0, 4);
  lines.push(`sections: ${bySection.map((s) => `${s.label} ${kib(s.size)}`).join(', ')} (of ${kib(total)})`);
  const byOwner = new Map();
  for (const f of functions) byOwner.set(owner(f.name), (byOwner.get(owner(f.name)) ?? 0) + f.size);
  const owners = [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, top);
  lines.push(`code by owner: ${owners.map(([o, s]) => `${o} ${kib(s)}`).join(', ')}`);
  const biggest = [...functions].sort((a, b) => b.size - a.size).slice(0, Math.min(top, 8));
  lines.push(`largest functions: ${biggest.map((f) => `${owner(f.name)}…${f.name.length > 60 ? f.name.slice(-40) : f.name} ${kib(f.size)}`).join('; ')}`);
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const file = process.argv.slice(2).find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? path.join(root, 'target', 'wasm32-unknown-unknown', 'release', 'editblocks_wasm.wasm');
  const topAt = process.argv.indexOf('--top');
  for (const line of report(fs.readFileSync(file), topAt > 0 ? Number(process.argv[topAt + 1]) : 12)) console.log(line);
}
