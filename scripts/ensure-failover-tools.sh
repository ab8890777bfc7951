#!/usr/bin/env bash
# The PostgreSQL failover test (e2e/test/failover.e2e.test.ts, docs/adr/0091) runs a disposable cluster of
# Debian's patroni, etcd-server and haproxy as the test's own processes on 127.0.0.1 ports. Installs
# the packages with apt-get when they are missing. Their system services must not run: the packages
# ship an etcd on 2379 and an haproxy that would take ports and state of their own, so the script keeps
# invoke-rc.d from starting them during the install and stops and disables them if they started anyway.
# Never fails the caller: without the tools only the failover test fails, with a message naming this script.
set -uo pipefail
missing=()
command -v patroni >/dev/null || missing+=(patroni)
[ -x /usr/bin/etcd ] || missing+=(etcd-server)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
echo "ensure-failover-tools: installing Debian's ${missing[*]} (the PostgreSQL failover test)" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo -n"; fi

# Debian's way to keep a package's maintainer scripts from starting its service: a policy-rc.d that
# answers 101 ("action forbidden"). Only put in place (and removed again) when the machine has none.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod 755 "$policy" && own_policy=1
fi
install() {
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "$@" >/dev/null
}
{ install "${missing[@]}" 2>/dev/null || { $SUDO apt-get update -qq && install "${missing[@]}"; }; } ||
  echo "ensure-failover-tools: could not install ${missing[*]}; the PostgreSQL failover test will fail" >&2
[ "$own_policy" = 1 ] && $SUDO rm -f "$policy"

# Where a service manager started them anyway, stop them and keep them from starting at boot.
for service in etcd haproxy patroni; do
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    $SUDO systemctl disable --now "$service" >/dev/null 2>&1 || true
  elif [ -x "/etc/init.d/$service" ]; then
    $SUDO "/etc/init.d/$service" stop >/dev/null 2>&1 || true
    $SUDO update-rc.d "$service" disable >/dev/null 2>&1 || true
  fi
done
exit 0
