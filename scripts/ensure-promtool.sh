#!/usr/bin/env bash
# The chart's PrometheusRule is checked with Prometheus' own `promtool` (`check rules`, and `test rules`
# against series scraped from a running platform: deploy/helm/test/prometheus-rules.e2e.test.ts).
# Installs Debian's `prometheus` package (which carries promtool) with apt-get when promtool is missing,
# without recommends; prints promtool's path. Fails (exit 1) when it cannot be had.
if command -v promtool >/dev/null; then command -v promtool; exit 0; fi
echo "ensure-promtool: installing Debian's prometheus package (for promtool)" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo -n"; fi
install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1; }
install || { $SUDO apt-get update -qq >/dev/null 2>&1 && install; } || {
  echo "ensure-promtool: could not install Debian's prometheus package" >&2
  exit 1
}
command -v promtool
