'use strict';
// Runs extension.js outside VS Code with `vscode` and the language client
// replaced by recorders: the server must start only when `pyx` is on PATH.
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

const started = [];
class FakeClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, stopped: false });
    started.push(this);
  }
  start() { return Promise.resolve(); }
  stop() { this.stopped = true; return Promise.resolve(); }
}
const fakes = {
  vscode: {},
  'vscode-languageclient/node': { LanguageClient: FakeClient, TransportKind: { stdio: 0 } },
};
const realLoad = Module._load;
Module._load = function load(request, ...rest) {
  if (Object.prototype.hasOwnProperty.call(fakes, request)) return fakes[request];
  return realLoad.call(this, request, ...rest);
};

const ext = require('../extension.js');
const context = () => ({ subscriptions: [] });

(async () => {
  const savedPath = process.env.PATH;
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'pyx-nopath-'));
  const withPyx = fs.mkdtempSync(path.join(os.tmpdir(), 'pyx-path-'));
  try {
    process.env.PATH = empty;
    assert.strictEqual(await ext.activate(context()), undefined, 'no pyx on PATH: nothing starts');
    assert.strictEqual(started.length, 0);

    // A non-executable file named pyx is not a command.
    fs.writeFileSync(path.join(empty, 'pyx'), '#!/bin/sh\nexit 0\n');
    fs.chmodSync(path.join(empty, 'pyx'), 0o644);
    if (process.platform !== 'win32') {
      assert.strictEqual(await ext.activate(context()), undefined, 'non-executable pyx is ignored');
      assert.strictEqual(started.length, 0);
    }

    const fake = path.join(withPyx, 'pyx');
    process.env.PATH = [empty, withPyx].join(path.delimiter);
    // A pyx without the `lsp` subcommand (argparse exits 2 on an unknown choice).
    fs.writeFileSync(fake, '#!/bin/sh\necho "invalid choice: lsp" >&2\nexit 2\n');
    fs.chmodSync(fake, 0o755);
    assert.strictEqual(await ext.activate(context()), undefined, 'pyx without lsp: nothing starts');
    assert.strictEqual(started.length, 0);

    // A pyx whose server cannot start (pygls missing): `lsp --help` answers, `lsp --check` fails.
    fs.writeFileSync(fake, '#!/bin/sh\n[ "$1 $2" = "lsp --help" ] && exit 0\nexit 1\n');
    assert.strictEqual(await ext.activate(context()), undefined, 'pyx lsp without pygls: nothing starts');
    assert.strictEqual(started.length, 0);

    fs.writeFileSync(fake, '#!/bin/sh\n[ "$1 $2" = "lsp --check" ] && exit 0\nexit 3\n');
    const ctx = context();
    const client = await ext.activate(ctx);
    assert.strictEqual(started.length, 1, 'pyx lsp available: one client');
    assert.strictEqual(client, started[0]);
    assert.strictEqual(client.serverOptions.run.command, fake);
    assert.deepStrictEqual(client.serverOptions.run.args, ['lsp']);
    assert.deepStrictEqual(client.clientOptions.documentSelector.map((d) => d.language), ['pyx', 'pyx']);
    assert.strictEqual(ctx.subscriptions.length, 1);
    await ext.deactivate();
    assert.ok(client.stopped, 'deactivate stops the client');
    assert.strictEqual(await ext.deactivate(), undefined, 'a second deactivate is harmless');

    // The declarative parts the extension relies on.
    const root = path.resolve(__dirname, '..');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const lang = pkg.contributes.languages[0];
    assert.strictEqual(lang.id, 'pyx');
    assert.deepStrictEqual(lang.extensions, ['.px']);
    const gram = pkg.contributes.grammars[0];
    assert.strictEqual(gram.scopeName, 'source.pyx');
    assert.strictEqual(JSON.parse(fs.readFileSync(path.join(root, gram.path), 'utf8')).scopeName, 'source.pyx');
    const snippets = JSON.parse(fs.readFileSync(path.join(root, pkg.contributes.snippets[0].path), 'utf8'));
    for (const name of ['fn', 'kernel', 'struct', 'launch']) {
      assert.ok(Object.values(snippets).some((s) => s.prefix === name), `snippet ${name}`);
    }
    const conf = JSON.parse(fs.readFileSync(path.join(root, lang.configuration), 'utf8'));
    const inc = new RegExp(conf.indentationRules.increaseIndentPattern);
    const dec = new RegExp(conf.indentationRules.decreaseIndentPattern);
    for (const line of ['fn main():', '    fn f[T: A](x: T) raises -> Int:  # c', 'struct R(Shape):',
      'trait Shape:', '    comptime for i in range(4):', 'else:', '    while i < n:']) {
      assert.ok(inc.test(line), `indent after ${JSON.stringify(line)}`);
    }
    for (const line of ['    x = a[1:2]', '    return x', '@kernel', '    fn area(self) -> Float64: ...']) {
      assert.ok(!inc.test(line), `no indent after ${JSON.stringify(line)}`);
    }
    for (const line of ['    else:', '  elif x:', 'except e:', 'finally:']) assert.ok(dec.test(line), `dedent ${line}`);
    assert.ok(!dec.test('    elsewhere = 1'));
    for (const rule of conf.onEnterRules) new RegExp(rule.beforeText);
    console.log('extension checks passed');
  } finally {
    process.env.PATH = savedPath;
    Module._load = realLoad;
    fs.rmSync(empty, { recursive: true, force: true });
    fs.rmSync(withPyx, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exit(1); });
