#!/usr/bin/env bash
# CI check (issue 45, item 7): `pnpm images` works as the first command of a fresh machine of ours, where
# a Docker CLI is on PATH without a daemon and podman is not installed yet. Reproduces that state for one
# run of `pnpm images SERVICE` (default emulator, the smallest; its layers are cached after CI's images
# step, so this takes seconds):
#   - PATH is a folder of links to every command of the caller's PATH except podman;
#   - first on it, a `docker` that answers as a Docker CLI does without a daemon, and notes each call;
#   - `apt-get` there "installs" podman by linking the real one into that folder (what the engine script
#     runs apt-get for; the real install is not repeated);
#   - no engine answers: DOCKER_HOST unset, podman's API socket at a new path (HC_PODMAN_SOCKET), so
#     scripts/ensure-container-engine.sh must install podman and start its API service.
# Passes when the images build with podman and the docker CLI was never asked to build. Before the fix,
# images.sh chose docker (the only client on PATH) before the engine existed and stopped on
# "unknown flag: --secret" (here: the stand-in docker's error). Needs root (the engine script installs
# only as root). Stops the API service it caused to start, by its process id.
set -euo pipefail
service="${1:-emulator}"
root="$(cd "$(dirname "$0")/.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "check-images-first-command: needs root (the engine script installs podman only as root)" >&2; exit 1; }
real_podman="$(command -v podman)" || { echo "check-images-first-command: podman must be installed (it is linked in as the 'install')" >&2; exit 1; }

work="$(mktemp -d)"
bin="$work/bin"
socket="$work/podman.sock"
mkdir -p "$bin"
stop_service() {
  local pid
  pid="$(ss -xlpn 2>/dev/null | awk -v s="$socket" '$5 == s && match($0, /pid=[0-9]+/) { print substr($0, RSTART + 4, RLENGTH - 4); exit }')"
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  rm -rf "$work"
}
trap stop_service EXIT

cat >"$bin/docker" <<EOF
#!/bin/sh
echo "docker \$*" >>"$work/docker-calls"
echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2
exit 1
EOF
cat >"$bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$work/apt-get-calls"
case " \$* " in *" install "*" podman "*) ln -sf "$real_podman" "$bin/podman" ;; esac
EOF
chmod +x "$bin/docker" "$bin/apt-get"
# Every other command of PATH, the first of each name as PATH would find it; podman left out.
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] && ln -s "$dir"/* "$bin"/ 2>/dev/null || true
done
rm -f "$bin/podman"
PATH="$bin" command -v podman >/dev/null && { echo "check-images-first-command: podman still on PATH" >&2; exit 1; }

echo "check-images-first-command: pnpm images $service with podman absent and a docker CLI without daemon first on PATH" >&2
status=0
(cd "$root" && env -u DOCKER_HOST -u HC_CONTAINER_ENGINE -u TESTCONTAINERS_HOST_OVERRIDE -u TESTCONTAINERS_RYUK_DISABLED \
  PATH="$bin" HC_PODMAN_SOCKET="$socket" SBOM_DIR="$work/sbom" pnpm -s images "$service") >"$work/out" 2>&1 || status=$?
cat "$work/out" >&2
fail() { echo "check-images-first-command: FAILED: $*" >&2; exit 1; }
[ "$status" = 0 ] || fail "pnpm images exited $status"
grep -q 'apt-get.* install .*podman' "$work/apt-get-calls" 2>/dev/null || fail "the engine script did not install podman"
grep -q 'building with podman build' "$work/out" || fail "images were not built with podman build"
grep -q '^docker build' "$work/docker-calls" 2>/dev/null && fail "the docker CLI was asked to build: $(cat "$work/docker-calls")"
echo "check-images-first-command: ok (podman installed first, then built with podman build)" >&2
