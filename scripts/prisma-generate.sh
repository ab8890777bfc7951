#!/usr/bin/env bash
# `prisma generate` for the package in the current folder. Where Prisma's engine download server is
# unreachable (as on our build machines), generate is retried without the schema engine, which
# generate does not run anyway (docs/adr/0003-prisma-without-native-engines.md).
set -uo pipefail
if [ -n "${PRISMA_SCHEMA_ENGINE_BINARY:-}" ]; then exec prisma generate; fi
if out=$(prisma generate 2>&1); then echo "$out"; exit 0; fi
if grep -q "schema-engine" <<<"$out"; then
  echo "prisma-generate: engine download impossible here; generating without it" >&2
  PRISMA_SCHEMA_ENGINE_BINARY="$(type -P true)" exec prisma generate
fi
echo "$out" >&2
exit 1
