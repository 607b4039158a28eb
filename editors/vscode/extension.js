'use strict';
// Highlighting, brackets and snippets are declarative (package.json); this file
// only adds the language server. It starts `pyx lsp` when a `pyx` executable is
// on PATH and `pyx lsp --check` succeeds, and otherwise does nothing, so the
// extension is useful before the compiler (or its server) is installed and
// never shows an error for a missing one.
const { execFile } = require('child_process');
const fs = require('fs');
const path = require('path');

let client = null;

function findOnPath(command, env = process.env, platform = process.platform) {
  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  const exts = platform === 'win32' ? (env.PATHEXT || '.EXE;.CMD;.BAT;.COM').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, command + ext);
      try {
        const st = fs.statSync(candidate);
        if (!st.isFile()) continue;
        if (platform !== 'win32') fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      } catch (_) {
        // not here: keep looking
      }
    }
  }
  return null;
}

// `pyx lsp --check` fails when the server cannot start: pygls is not installed
// (`pyx lsp --help` answers even then), or a `pyx` from before the server existed
// rejects the subcommand. Starting it anyway would make the client report a
// crashed server on every launch.
function hasLspCommand(pyx) {
  return new Promise((resolve) => {
    execFile(pyx, ['lsp', '--check'], { timeout: 10000, windowsHide: true }, (err) => resolve(!err));
  });
}

async function activate(context) {
  const pyx = findOnPath('pyx');
  if (!pyx || !(await hasLspCommand(pyx))) return undefined;
  let lc;
  try {
    lc = require('vscode-languageclient/node');
  } catch (_) {
    // Installed from source without `npm ci`: highlighting still works.
    return undefined;
  }
  const server = { command: pyx, args: ['lsp'], transport: lc.TransportKind.stdio };
  client = new lc.LanguageClient(
    'pyx',
    'pyx language server',
    { run: server, debug: server },
    { documentSelector: [{ scheme: 'file', language: 'pyx' }, { scheme: 'untitled', language: 'pyx' }] },
  );
  context.subscriptions.push({ dispose: () => deactivate() });
  await client.start().catch(() => { client = null; });
  return client || undefined;
}

function deactivate() {
  const c = client;
  client = null;
  return c ? c.stop().catch(() => undefined) : undefined;
}

module.exports = { activate, deactivate, findOnPath };
