#!/usr/bin/env bash
# Builds petstore-conformance in the checkout this script is part of, for the CI templates that run it from this
# repository's source at a ref (the GitHub Action from its own checkout, the GitLab template from a clone): no release and
# no package registry entry of this project is needed. Then the CLI is `node CHECKOUT/dist/src/cli/main.js`.
#
# The runtime dependencies come as the lockfile pins them (npm ci --omit=dev, 15 packages); building needs only the
# compiler and Node's types of the development dependencies (not the 500 MB of test, lint and benchmark tools), so those two
# are installed, at the lockfile's versions, into a temporary folder of their own, and the compiler is pointed at them.
# The steps are package.json's build script. A checkout built once is not built again (a second use of the action in a job).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/.ci-built ] && exit 0
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || major=0
if [ "${major:-0}" -lt 20 ]; then
  echo "petstore-conformance needs Node 20 or later on PATH (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 2
fi
quiet=(--no-audit --no-fund --loglevel=error)
npm ci --omit=dev --ignore-scripts "${quiet[@]}"
locked() { node -p "require('./package-lock.json').packages['node_modules/$1'].version"; }
tools=$(mktemp -d "${TMPDIR:-/tmp}/petstore-conformance-build.XXXXXX")
trap 'rm -rf "$tools"' EXIT
npm install --prefix "$tools" --no-save --no-package-lock --ignore-scripts "${quiet[@]}" \
  "typescript@$(locked typescript)" "@types/node@$(locked @types/node)"
node "$tools/node_modules/typescript/bin/tsc" -p tsconfig.json --typeRoots "$tools/node_modules/@types"
node dist/tools/build/precompile-validators.js
node dist/tools/build/precompile-yaml.js
date -u +%Y-%m-%dT%H:%M:%SZ > dist/.ci-built
