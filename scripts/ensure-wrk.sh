#!/usr/bin/env bash
# `pnpm bench` drives the platform with wrk (docs/adr/0068), and the bench's own test runs it once.
# Installs Debian's `wrk` with apt-get when it is missing. Never fails the caller: without wrk, only
# the bench (and that test) fail, with a message that says to run this script.
if command -v wrk >/dev/null; then exit 0; fi
echo "ensure-wrk: installing Debian's wrk (the benchmark's load generator)" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo -n"; fi
{ DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null 2>&1 ||
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null; }; } ||
  echo "ensure-wrk: could not install wrk; pnpm bench and its load-generator test will fail" >&2
exit 0
