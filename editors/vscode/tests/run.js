'use strict';
// `npm test`: every node-side check, the same ones editors/tests/test_vscode.py runs.
const { spawnSync } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..');
const steps = [
  [require.resolve('vscode-tmgrammar-test/dist/unit.js'), '-c', 'tests/syntax/*.test.px'],
  [path.join(__dirname, 'check_scopes.js')],
  [path.join(__dirname, 'extension.test.js')],
];
let failed = 0;
for (const args of steps) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
