#!/usr/bin/env bash
# `pnpm images --push` is tested against a real registry on 127.0.0.1 (deploy/helm/chart-run/registry.ts):
# Debian's `docker-registry` package (the CNCF distribution registry), run as a process with a temporary
# config, never as the package's system service. Installs it with apt-get when /usr/bin/docker-registry
# is missing; prints its path. Fails (exit 1) when it cannot be had.
bin=/usr/bin/docker-registry
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
echo "ensure-docker-registry: installing Debian's docker-registry package" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo -n"; fi
install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends docker-registry >/dev/null 2>&1; }
install || { $SUDO apt-get update -qq >/dev/null 2>&1 && install; } || {
  echo "ensure-docker-registry: could not install Debian's docker-registry package" >&2
  exit 1
}
echo "$bin"
