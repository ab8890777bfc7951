#!/usr/bin/env bash
# Prints the shell lines naming the base images (eval "$(bash scripts/container-images-env.sh)"):
#   NODE_IMAGE           base of the service images (deploy/docker/Dockerfile)
#   TEST_POSTGRES_IMAGE  PostgreSQL 15 for tests and pnpm chart:run
#   TEST_NATS_IMAGE      NATS with JetStream for tests and pnpm chart:run
# A variable already set is kept. Otherwise the public image is used when it is present or can be pulled,
# and where no registry answers, scripts/build-base-images.sh builds the local stand-ins (ADR 0043).
# Needs a container engine (scripts/ensure-container-engine.sh) and the podman or docker client.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
client=podman
command -v podman >/dev/null || client=docker
available() { "$client" image inspect "$1" >/dev/null 2>&1 || timeout 300 "$client" pull -q "$1" >/dev/null 2>&1; }

names=(NODE_IMAGE TEST_POSTGRES_IMAGE TEST_NATS_IMAGE)
public=(docker.io/library/node:24-bookworm-slim docker.io/library/postgres:15 docker.io/library/nats:2.10)
local_=(localhost/hc-base/node:24-bookworm-slim localhost/hc-base/postgres:15 localhost/hc-base/nats:2.9)
built=0
for i in 0 1 2; do
  name="${names[$i]}"
  if [ -n "${!name:-}" ]; then
    chosen="${!name}"
  elif available "${public[$i]}"; then
    chosen="${public[$i]}"
  else
    if [ "$built" = 0 ]; then
      echo "base images: no registry answers for ${public[$i]}; using images built from Debian packages" >&2
      bash "$root/scripts/build-base-images.sh"
      built=1
    fi
    chosen="${local_[$i]}"
  fi
  echo "export $name=$chosen"
done
