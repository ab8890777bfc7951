#!/usr/bin/env bash
# Builds the previous release's images (the commit in deploy/previous-release) as
# hosted-checkout-previous/<service>:<version>, for chart:run's rolling-upgrade test
# (deploy/helm/chart-run/test/upgrade.test.ts, docs/replicas.md): that commit's tree, taken with
# `git archive` into a temporary folder (no worktree, no checkout), built by its own scripts/images.sh.
# The layers shared with `pnpm images` (base, package manager, fetched store) come from the cache.
#   bash scripts/previous-release-images.sh [SERVICE…]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(grep -v '^#' "$root/deploy/previous-release" | awk 'NF { print $1; exit }')"
[ -n "$commit" ] || { echo "previous-release-images: deploy/previous-release names no commit" >&2; exit 1; }
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
git -C "$root" archive "$commit" | tar -x -C "$tree"
echo "previous-release-images: building ${commit:0:12} as hosted-checkout-previous/*" >&2
IMAGE_REPOSITORY=hosted-checkout-previous bash "$tree/scripts/images.sh" "$@"
