#!/usr/bin/env bash
# `buf breaking` of proto/ against the main branch's proto/ (docs/adr/0022): a change that would break
# a gRPC caller or an event consumer (a renumbered field, a changed type, a removed message) fails.
# Against the local `main` branch when the clone has it, else origin/main; with no history to compare
# (a shallow export, no main), it says so and passes: there is nothing published to break.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "buf breaking: not a git checkout; skipped (nothing to compare against)"
  exit 0
fi
ref=""
for candidate in main origin/main; do
  if git rev-parse --verify --quiet "$candidate^{commit}" >/dev/null; then ref="$candidate"; break; fi
done
# A shallow CI clone of one branch: fetch main's tip alone (quietly; offline it stays skipped).
if [ -z "$ref" ] && git remote get-url origin >/dev/null 2>&1 &&
  git fetch --quiet --depth 1 origin main:refs/remotes/origin/main 2>/dev/null; then
  ref="origin/main"
fi
if [ -z "$ref" ]; then
  echo "buf breaking: no main branch in this clone; skipped (nothing to compare against)"
  exit 0
fi
if ! git cat-file -e "$ref:proto/buf.yaml" 2>/dev/null; then
  echo "buf breaking: $ref has no proto/ module; skipped"
  exit 0
fi
# A worktree's .git is a file, which buf's git input cannot read: compare against a throw-away export.
against="$(mktemp -d)"
trap 'rm -rf "$against"' EXIT
git archive "$ref" proto | tar -x -C "$against"
echo "buf breaking: proto/ against $ref ($(git rev-parse --short "$ref"))"
# Deleting a message is refused (PACKAGE_MESSAGE_NO_DELETE) unless proto/deleted-messages.txt names it:
# one full name a line, for a message no field or rpc uses any more (a field's deletion needs its number
# and name reserved, buf.yaml). Only that rule and those names are let through (docs/adr/0106).
report="$(buf breaking proto --against "$against/proto" --error-format=json)"
status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 100 ]; then
  echo "$report"
  exit "$status"
fi
allowed="$(grep -v '^\s*\(#\|$\)' proto/deleted-messages.txt 2>/dev/null || true)"
REPORT="$report" ALLOWED="$allowed" node --input-type=module -e '
  const allowed = new Set(process.env.ALLOWED.split("\n").map((l) => l.trim()).filter(Boolean));
  const used = new Set();
  let failed = 0;
  for (const line of process.env.REPORT.split("\n").filter(Boolean)) {
    const a = JSON.parse(line);
    const deleted = a.type === "PACKAGE_MESSAGE_NO_DELETE" && a.message.match(/message "([^"]+)" was deleted from package "([^"]+)"/);
    const name = deleted ? `${deleted[2]}.${deleted[1]}` : undefined;
    if (name && allowed.has(name)) {
      used.add(name);
      console.log(`allowed (proto/deleted-messages.txt): ${a.message}`);
    } else {
      failed += 1;
      console.log(`${a.path}:${a.start_line}:${a.start_column}:${a.message} (${a.type})`);
    }
  }
  for (const name of allowed) if (!used.has(name)) console.log(`note: ${name} (proto/deleted-messages.txt) is not deleted against this ref; the line can go once no ref to compare has it`);
  process.exit(failed > 0 ? 100 : 0);
'
