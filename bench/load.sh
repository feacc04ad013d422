#!/usr/bin/env bash
# npm run bench:load — the load runner against wrk, and the reference server against a minimal one.
set -euo pipefail
cd "$(dirname "$0")/.."
# --judging-only measures the runner alone (with and without judging every listing): no wrk needed.
if [[ " $* " != *" --judging-only "* ]] && ! command -v wrk >/dev/null 2>&1; then
  echo "installing wrk (Debian package) ..."
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null
fi
npm run build --silent
exec node dist/tools/bench/load-bench.js "$@"
