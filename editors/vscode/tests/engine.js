'use strict';
// Loads syntaxes/pyx.tmLanguage.json into the engine VS Code itself uses
// (vscode-textmate on the oniguruma WebAssembly build), so the tests see what
// the editor shows.
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const EXTENSION_ROOT = path.resolve(__dirname, '..');
// PYX_GRAMMAR lets the Python tests feed a deliberately broken grammar and
// check that the checks notice.
const GRAMMAR_PATH = process.env.PYX_GRAMMAR
  ? path.resolve(process.env.PYX_GRAMMAR)
  : path.join(EXTENSION_ROOT, 'syntaxes', 'pyx.tmLanguage.json');

let grammarPromise = null;

function loadGrammar() {
  if (grammarPromise) return grammarPromise;
  const wasmPath = require.resolve('vscode-oniguruma/release/onig.wasm');
  const wasm = fs.readFileSync(wasmPath).buffer;
  const onigLib = oniguruma.loadWASM(wasm).then(() => ({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }));
  const registry = new vsctm.Registry({
    onigLib,
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.pyx') return null;
      const text = fs.readFileSync(GRAMMAR_PATH, 'utf8');
      return vsctm.parseRawGrammar(text, GRAMMAR_PATH);
    },
  });
  grammarPromise = registry.loadGrammar('source.pyx');
  return grammarPromise;
}

// Returns one entry per line: {text, tokens: [{start, end, scopes}]} and the
// rule stack left after the last line.
function tokenize(grammar, text) {
  const lines = text.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  let stack = vsctm.INITIAL;
  const out = [];
  for (const line of lines) {
    const r = grammar.tokenizeLine(line, stack);
    out.push({
      text: line,
      tokens: r.tokens.map((t) => ({ start: t.startIndex, end: Math.min(t.endIndex, line.length), scopes: t.scopes })),
    });
    stack = r.ruleStack;
  }
  return { lines: out, finalDepth: stack.depth, initialDepth: vsctm.INITIAL.depth };
}

module.exports = { loadGrammar, tokenize, EXTENSION_ROOT, GRAMMAR_PATH };

// `node tests/engine.js file.px` prints every token: handy when writing assertions.
if (require.main === module) {
  (async () => {
    const grammar = await loadGrammar();
    const file = process.argv[2];
    const text = file ? fs.readFileSync(file, 'utf8') : fs.readFileSync(0, 'utf8');
    const { lines } = tokenize(grammar, text);
    lines.forEach((l, i) => {
      console.log(`${i + 1}: ${l.text}`);
      for (const t of l.tokens) {
        if (t.start >= t.end) continue;
        const scopes = t.scopes.slice(1).join(' ');
        console.log(`    ${JSON.stringify(l.text.slice(t.start, t.end))} ${scopes}`);
      }
    });
  })().catch((e) => { console.error(e); process.exit(1); });
}
