#!/usr/bin/env sh
# Build the .vsix (never commit it: *.vsix is ignored).
#   sh editors/vscode/scripts/package.sh [output.vsix]
# vsce 4 needs node >= 22; 3.9 is the newest that runs on node 20, the LTS this
# repository is tested with. Set VSCE to override, e.g. VSCE=@vscode/vsce@latest.
set -eu
cd "$(dirname "$0")/.."
VSCE="${VSCE:-@vscode/vsce@3.9.2}"
# vsce bundles node_modules (vscode-languageclient) from a clean install.
npm ci --no-audit --no-fund
python3 scripts/build_grammar.py --check
out="${1:-pyx-lang-$(node -p "require('./package.json').version").vsix}"
npx --yes "$VSCE" package --skip-license --allow-missing-repository --out "$out"
echo "built $(pwd)/$out"
