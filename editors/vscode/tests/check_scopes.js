'use strict';
// Tokenizes real pyx files with the VS Code engine and fails when a known word
// (keyword, built-in type, GPU intrinsic, builtin: editors/tests/vocabulary.json)
// or a structural piece (a fn name, a launch target, a number) gets the wrong
// scope, when a region is left open at the end of a file, or when anything is
// marked invalid. The files are every examples/**/*.px of the repository,
// found at run time, plus the shared fixtures and any paths given as arguments.
//
//   node tests/check_scopes.js [--list] [extra.px ...]
const fs = require('fs');
const path = require('path');
const { loadGrammar, tokenize, EXTENSION_ROOT } = require('./engine');

const REPO_ROOT = path.resolve(EXTENSION_ROOT, '..', '..');
const VOCAB = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'editors', 'tests', 'vocabulary.json'), 'utf8'));

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (entry.isFile() && entry.name.endsWith('.px')) out.push(p);
  }
  return out;
}

function inputFiles(extra) {
  return [
    ...walk(path.join(REPO_ROOT, 'examples'), []),
    ...walk(path.join(REPO_ROOT, 'editors', 'tests', 'fixtures'), []),
    ...extra.map((p) => path.resolve(p)),
  ];
}

// word -> {category, allowed, reserved} for words met without a prefix, and
// "prefix word" -> same for words that only mean something after DType. or @.
function buildExpectations() {
  const plain = new Map();
  const prefixed = new Map();
  for (const [name, cat] of Object.entries(VOCAB.categories)) {
    const entry = { category: name, allowed: cat.textmate, reserved: !!cat.reserved };
    for (const w of cat.words) {
      if (cat.after) prefixed.set(`${cat.after}${w}`, entry);
      else plain.set(w, entry);
    }
  }
  return { plain, prefixed };
}

function scopesAt(line, start, end) {
  const hits = line.tokens.filter((t) => t.start < end && t.end > start);
  if (!hits.length) return { scopes: null, split: false };
  const first = hits[0].scopes.join(' ');
  const split = hits.some((t) => t.scopes.join(' ') !== first) || hits[0].start > start;
  return { scopes: hits[0].scopes, split };
}

function isCode(scopes) {
  // Code inside an f-string's braces counts as code again.
  let code = true;
  for (const s of scopes) {
    if (s.startsWith('comment') || s.startsWith('string')) code = false;
    if (s.startsWith('meta.embedded')) code = true;
    if (s.startsWith('constant.other.format-spec')) code = false;
  }
  return code;
}

const NUMBER = /(?<![\w.])(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?)(?![\w.])/g;

const STRUCTURE = [
  { re: /\b(?:fn|def)\s+([A-Za-z_]\w*)/dg, scope: 'entity.name.function.pyx', what: 'function name' },
  { re: /\bstruct\s+([A-Za-z_]\w*)/dg, scope: 'entity.name.type.struct.pyx', what: 'struct name' },
  { re: /\btrait\s+([A-Za-z_]\w*)/dg, scope: 'entity.name.type.trait.pyx', what: 'trait name' },
  { re: /\blaunch\s+([A-Za-z_]\w*)(?:\s*\.\s*[A-Za-z_]\w*)*\s*\[/dg, scope: 'entity.name.function.kernel.pyx', what: 'launched kernel' },
  { re: /^\s*@\s*([A-Za-z_]\w*)/dg, scope: 'entity.name.function.decorator.pyx', what: 'decorator' },
];

function checkFile(grammar, file, expect, problems, stats) {
  const text = fs.readFileSync(file, 'utf8');
  const rel = path.relative(REPO_ROOT, file);
  const { lines, finalDepth, initialDepth } = tokenize(grammar, text);
  const report = (i, col, msg) => problems.push(`${rel}:${i + 1}:${col + 1}: ${msg}`);

  if (finalDepth !== initialDepth) {
    report(lines.length - 1, 0, `a region is still open at the end of the file (rule stack depth ${finalDepth})`);
  }

  lines.forEach((line, i) => {
    for (const t of line.tokens) {
      const bad = t.scopes.find((s) => s.startsWith('invalid'));
      if (bad && t.end > t.start) report(i, t.start, `${JSON.stringify(line.text.slice(t.start, t.end))} is ${bad}`);
    }

    for (const m of line.text.matchAll(/\b[A-Za-z_]\w*/g)) {
      const word = m[0];
      const start = m.index;
      const end = start + word.length;
      const before = line.text.slice(0, start);
      const after = line.text.slice(end);

      let entry;
      const dtype = /\bDType\s*\.\s*$/.test(before);
      const deco = /^\s*@\s*$/.test(before);
      if (dtype) entry = expect.prefixed.get(`DType.${word}`);
      else if (deco) entry = expect.prefixed.get(`@${word}`);
      else if (/\.\s*$/.test(before)) continue; // a member: any name goes
      else entry = expect.plain.get(word);
      if (!entry) continue;

      const { scopes, split } = scopesAt(line, start, end);
      if (!scopes || !isCode(scopes)) continue;

      if (!entry.reserved && !dtype && !deco) {
        // A builtin's name reused for something the user defines or names.
        if (/\b(?:fn|def|struct|trait|alias|var|comptime)\s+$/.test(before)) continue;
        const paramName = /^\s*(?::(?!=)|=(?!=))/.test(after)
          && /(?:[(\[,]|^|\b(?:mut|var|owned|ref|out))\s*$/.test(before);
        if (paramName) continue;
      }

      stats.words += 1;
      const got = scopes[scopes.length - 1];
      if (split) report(i, start, `${word}: split across tokens`);
      else if (!entry.allowed.includes(got)) {
        report(i, start, `${word} (${entry.category}): got ${got}, want ${entry.allowed.join(' or ')}`);
      }
    }

    for (const rule of STRUCTURE) {
      for (const m of line.text.matchAll(rule.re)) {
        const [start, end] = m.indices[1];
        const { scopes, split } = scopesAt(line, start, end);
        if (!scopes || !isCode(scopes.slice(0, -1)) || scopes.some((s) => s.startsWith('comment'))) continue;
        stats.structure += 1;
        const got = scopes[scopes.length - 1];
        if (split || got !== rule.scope) report(i, start, `${rule.what} ${m[1]}: got ${split ? 'a split token' : got}, want ${rule.scope}`);
      }
    }

    for (const m of line.text.matchAll(NUMBER)) {
      const start = m.index;
      const end = start + m[0].length;
      const { scopes, split } = scopesAt(line, start, end);
      if (!scopes || !isCode(scopes)) continue;
      stats.numbers += 1;
      const got = scopes[scopes.length - 1];
      if (split || !got.startsWith('constant.numeric.')) {
        report(i, start, `number ${m[0]}: got ${split ? 'a split token' : got}, want constant.numeric.*`);
      }
    }
  });
}

async function main() {
  const args = process.argv.slice(2);
  const list = args.includes('--list');
  const files = inputFiles(args.filter((a) => a !== '--list'));
  const grammar = await loadGrammar();
  const expect = buildExpectations();
  const problems = [];
  const stats = { words: 0, structure: 0, numbers: 0 };
  for (const f of files) {
    if (list) console.log(path.relative(REPO_ROOT, f));
    checkFile(grammar, f, expect, problems, stats);
  }
  console.log(`checked ${files.length} files: ${stats.words} known words, ${stats.structure} names, ${stats.numbers} numbers`);
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`${problems.length} scope problem(s)`);
    process.exit(1);
  }
}

main().catch((e) => { console.error(e); process.exit(2); });
