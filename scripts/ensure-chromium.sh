#!/usr/bin/env bash
# The browser tests of the hosted pages drive Debian's Chromium (playwright-core cannot download a
# browser here). Installs the `chromium` package with apt-get when /usr/bin/chromium is missing and
# CHROMIUM_PATH points nowhere else. Never fails the caller: without a browser, only those tests fail.
if [ -n "${CHROMIUM_PATH:-}" ] || [ -x /usr/bin/chromium ]; then exit 0; fi
echo "ensure-chromium: installing Debian's chromium for the browser tests" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo -n"; fi
{ $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null; } ||
  echo "ensure-chromium: could not install chromium; the pages' browser tests will fail" >&2
exit 0
