#!/usr/bin/env bash
# Finds a Docker-compatible container engine and prints the shell lines that point testcontainers and
# the project's scripts at it (eval "$(bash scripts/ensure-container-engine.sh)"); what it found goes
# to stderr. In order:
#   1. DOCKER_HOST already set and healthy (a platform team's CI, a laptop with a remote engine);
#   2. a Docker daemon on /var/run/docker.sock;
#   3. podman's API socket (/run/podman/podman.sock, or $HC_PODMAN_SOCKET), started if podman is installed;
#   4. on a Debian machine as root without any: apt-get install podman + runc, configure them for this
#      machine kind (ENVIRONMENT.md, "Services") and start the API socket.
# Healthy means more than answering /_ping: the engine starts (and removes) a tiny probe container. A
# podman API service started from a directory that was deleted since (a CI clone, a test's temporary
# clone) still answers /_ping, but every container it starts fails ("conmon: Failed to get working
# directory"). A podman API service that answers but cannot start a container is restarted, and the
# service is always started from /, so it never depends on its caller's directory again.
# --no-install skips step 4 (./scripts/test without TEST_INFRA: containers only where an engine is at hand).
# Exits 1 (printing nothing on stdout) when no engine can be had; callers then fall back to the local
# servers and say so. Nothing else on the machine changes.
set -uo pipefail
install=1
[ "${1:-}" = --no-install ] && install=0
socket="${HC_PODMAN_SOCKET:-/run/podman/podman.sock}"
say() { echo "container engine: $*" >&2; }
api_answers() { # $1 = unix socket path; the Docker API's /_ping answers "OK"
  [ -S "$1" ] && [ "$(curl -s --max-time 3 --unix-socket "$1" http://d/_ping 2>/dev/null)" = "OK" ]
}
emit() { # $1 = engine name, $2 = socket path
  echo "export DOCKER_HOST=unix://$2"
  echo "export HC_CONTAINER_ENGINE=$1"
  # Containers are reached only through ports published on 127.0.0.1, never their bridge addresses.
  echo "export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1"
  if [ "$1" = podman ]; then
    # The reaper image (testcontainers/ryuk) cannot be pulled where no registry answers, and podman 4.3
    # does not support the reaper's socket mount; the test kit removes its containers itself.
    echo "export TESTCONTAINERS_RYUK_DISABLED=true"
  fi
  say "using $1 at unix://$2"
}

# Callers run in parallel (CI steps, several ./scripts/test on one machine): one at a time checks and,
# when needed, restarts or starts the service, so two never start a service on the same socket.
lock="${TMPDIR:-/tmp}/hc-ensure-container-engine.$(id -u).lock"
if command -v flock >/dev/null && exec 9>>"$lock"; then
  flock -w 120 9 || say "another check still runs after 120 s; going on without waiting"
fi

# The probe container's image is never pulled: hc-engine-probe (only catatonit, the static init binary
# that comes with podman, imported through the API in well under a second), else a base image of
# scripts/container-images-env.sh that is already present (they have true). Without any, /_ping only.
PROBE_IMAGE=localhost/hc-engine-probe:1
image_present() { # $1 = socket, $2 = image
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 --unix-socket "$1" "http://d/images/$2/json")" = 200 ]
}
probe_image() { # $1 = socket; prints the image and the JSON of its command, tab-separated
  local s="$1" catatonit candidate dir
  if ! image_present "$s" "$PROBE_IMAGE"; then
    catatonit="$(command -v catatonit || echo /usr/libexec/podman/catatonit)"
    if [ -x "$catatonit" ] && dir="$(mktemp -d)"; then
      cp "$catatonit" "$dir/catatonit"
      tar --numeric-owner --owner=0 --group=0 -C "$dir" -c catatonit \
        | curl -s -o /dev/null --max-time 30 --unix-socket "$s" -X POST -H 'Content-Type: application/x-tar' \
          --data-binary @- "http://d/images/create?fromSrc=-&repo=$PROBE_IMAGE"
      rm -rf "$dir"
    fi
  fi
  if image_present "$s" "$PROBE_IMAGE"; then
    printf '%s\t%s\n' "$PROBE_IMAGE" '["/catatonit", "-V"]'
    return 0
  fi
  for candidate in docker.io/library/node:24-bookworm-slim localhost/hc-base/node:24-bookworm-slim \
    docker.io/library/postgres:15 localhost/hc-base/postgres:15; do
    image_present "$s" "$candidate" && { printf '%s\t%s\n' "$candidate" '["true"]'; return 0; }
  done
  return 1
}
api_message() { sed -n 's/.*"message":"\([^"]*\)".*/\1/p' "$1" | head -n1; }
# 0 when the engine on socket $1 started a probe container (or no image was at hand to try, or it did
# not answer in time: a busy engine is not a broken one), 1 when it answered that it cannot start one.
can_start_container() {
  local s="$1" image cmd name out status verdict=0
  if ! IFS=$'\t' read -r image cmd < <(probe_image "$s"); then
    say "no local image to start a probe container with at unix://$s; checked /_ping only"
    return 0
  fi
  name="hc-engine-probe-$$-$RANDOM"
  out="$(mktemp)"
  status="$(curl -s -o "$out" -w '%{http_code}' --max-time 30 --unix-socket "$s" -X POST \
    -H 'Content-Type: application/json' "http://d/containers/create?name=$name" \
    -d "{\"Image\": \"$image\", \"Cmd\": $cmd, \"HostConfig\": {\"NetworkMode\": \"none\"}}")"
  if [ "$status" = 201 ]; then
    status="$(curl -s -o "$out" -w '%{http_code}' --max-time 30 --unix-socket "$s" -X POST "http://d/containers/$name/start")"
  fi
  case "$status" in
    201 | 204 | 304) ;;
    000) say "unix://$s did not answer a probe container's create or start within 30 s; taking it as busy" ;;
    *) say "unix://$s answers but cannot start a container (HTTP $status: $(api_message "$out"))"; verdict=1 ;;
  esac
  curl -s -o /dev/null --max-time 30 --unix-socket "$s" -X DELETE "http://d/containers/$name?force=true&v=true"
  rm -f "$out"
  return "$verdict"
}

log=/var/log/podman-api.log
[ -w /var/log ] || log=/tmp/podman-api.log
start_podman_service() { # $1 = socket; 0 once it answers
  mkdir -p "$(dirname "$1")"
  say "starting podman's API service on unix://$1 from / (log $log)"
  # From /: conmon, which the service runs for every container, needs the service's working directory,
  # and the caller's may be deleted while the service lives on. setsid: the service outlives the calling
  # script (CI steps, ./scripts/test) and is not in its group; 9>&-: nor does it hold this script's lock.
  (cd / && exec setsid nohup podman system service --time=0 "unix://$1" >>"$log" 2>&1 </dev/null 9>&-) &
  # Up to 30 s: on a busy machine (a build holding podman's storage lock) it has taken over 10 s.
  for _ in $(seq 1 150); do
    api_answers "$1" && return 0
    sleep 0.2
  done
  say "podman's API service did not answer on $1 (see $log)"
  return 1
}
# The process id of a `podman system service` listening on socket $1 (not systemd's socket activation or
# anything else, which this script did not start and does not stop).
podman_service_pid() {
  local pid
  pid="$(ss -xlpn 2>/dev/null | awk -v s="$1" '$5 == s && match($0, /pid=[0-9]+/) { print substr($0, RSTART + 4, RLENGTH - 4); exit }')"
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qE '^([^ ]*/)?podman system service ' && echo "$pid"
}
# 0 when the engine on socket $1 answers and can start a container; a podman API service that answers
# but cannot is stopped and started again from / (its containers keep running: conmon holds them).
healthy() {
  local s="$1" pid
  api_answers "$s" || return 1
  can_start_container "$s" && return 0
  if ! pid="$(podman_service_pid "$s")"; then
    say "no podman API service of ours to restart on unix://$s"
    return 1
  fi
  say "restarting podman's API service on unix://$s (pid $pid, working directory $(readlink "/proc/$pid/cwd"))"
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  rm -f "$s"
  start_podman_service "$s" && can_start_container "$s" && return 0
  say "podman's API service on unix://$s still cannot start a container after a restart (see $log)"
  return 1
}

if [ -n "${DOCKER_HOST:-}" ] && [[ "$DOCKER_HOST" == unix://* ]] && healthy "${DOCKER_HOST#unix://}"; then
  engine=docker
  curl -s --max-time 5 --unix-socket "${DOCKER_HOST#unix://}" http://d/version | grep -q '"Podman Engine"' && engine=podman
  emit "$engine" "${DOCKER_HOST#unix://}"
  exit 0
fi
if healthy /var/run/docker.sock; then
  emit docker /var/run/docker.sock
  exit 0
fi

if healthy "$socket"; then
  emit podman "$socket"
  exit 0
fi
if api_answers "$socket"; then
  say "podman's API socket unix://$socket answers but cannot start containers, and is not ours to restart"
  exit 1
fi

if ! command -v podman >/dev/null; then
  if [ "$install" = 0 ]; then
    say "none found (no Docker daemon, no podman)"
    exit 1
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    say "none found (no Docker daemon, no podman) and cannot install one here"
    exit 1
  fi
  say "installing podman and runc from Debian"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman runc >&2; then
    apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman runc >&2 \
      || { say "apt-get install podman runc failed"; exit 1; }
  fi
fi

# This machine kind: crun (podman's default runtime) refuses the hybrid cgroup layout, and podman's
# default open-files limit is above what the machine allows. Written only when absent, so an operator's
# own configuration is never overwritten.
conf=/etc/containers/containers.conf
if [ "$(id -u)" = 0 ] && [ ! -f "$conf" ]; then
  mkdir -p /etc/containers
  cat >"$conf" <<'EOF'
# Written by hosted-checkout's scripts/ensure-container-engine.sh (see its comments).
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]

[engine]
runtime = "runc"
EOF
  say "wrote $conf (runtime runc, ulimits within the machine's)"
fi

if start_podman_service "$socket" && healthy "$socket"; then
  emit podman "$socket"
  exit 0
fi
exit 1
