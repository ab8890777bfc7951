#!/usr/bin/env bash
# Finds a Docker-compatible container engine and prints the shell lines that point testcontainers and
# the project's scripts at it (eval "$(bash scripts/ensure-container-engine.sh)"); what it found goes
# to stderr. In order:
#   1. DOCKER_HOST already set and answering (a platform team's CI, a laptop with a remote engine);
#   2. a Docker daemon on /var/run/docker.sock;
#   3. podman's API socket (/run/podman/podman.sock), started if podman is installed;
#   4. on a Debian machine as root without any: apt-get install podman + runc, configure them for this
#      machine kind (ENVIRONMENT.md, "Services") and start the API socket.
# --no-install skips step 4 (./scripts/test without TEST_INFRA: containers only where an engine is at hand).
# Exits 1 (printing nothing on stdout) when no engine can be had; callers then fall back to the local
# servers and say so. Nothing else on the machine changes.
set -uo pipefail
install=1
[ "${1:-}" = --no-install ] && install=0
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

if [ -n "${DOCKER_HOST:-}" ] && [[ "$DOCKER_HOST" == unix://* ]] && api_answers "${DOCKER_HOST#unix://}"; then
  engine=docker
  command -v podman >/dev/null && [ "${DOCKER_HOST#unix://}" = /run/podman/podman.sock ] && engine=podman
  emit "$engine" "${DOCKER_HOST#unix://}"
  exit 0
fi
if api_answers /var/run/docker.sock; then
  emit docker /var/run/docker.sock
  exit 0
fi

socket=/run/podman/podman.sock
if api_answers "$socket"; then
  emit podman "$socket"
  exit 0
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

mkdir -p "$(dirname "$socket")"
log=/var/log/podman-api.log
[ -w /var/log ] || log=/tmp/podman-api.log
say "starting podman's API service on unix://$socket (log $log)"
# setsid: the service outlives the calling script (CI steps, ./scripts/test) and is not in its group.
setsid nohup podman system service --time=0 "unix://$socket" >>"$log" 2>&1 </dev/null &
for _ in $(seq 1 50); do
  api_answers "$socket" && { emit podman "$socket"; exit 0; }
  sleep 0.2
done
say "podman's API service did not answer on $socket (see $log)"
exit 1
