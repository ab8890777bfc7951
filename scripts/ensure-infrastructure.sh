#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and NATS with JetStream (127.0.0.1:4222) answer, starting the
# machine's own servers when they are down. Where the tests use other servers (TEST_INFRA=containers,
# or TEST_DATABASE_URL / TEST_NATS_URL set), the corresponding local server is neither needed nor started.
set -uo pipefail
if [ "${TEST_INFRA:-}" = containers ]; then exit 0; fi
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() { for _ in $(seq 1 60); do answers "$1" && return 0; sleep 0.5; done; return 1; }

if [ -z "${TEST_DATABASE_URL:-}" ] && ! answers 5432; then
  echo "infrastructure: starting PostgreSQL" >&2
  if command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start >&2 || true
  fi
  wait_for 5432 || { echo "infrastructure: PostgreSQL does not answer on 127.0.0.1:5432" >&2; exit 1; }
fi
if [ -z "${TEST_NATS_URL:-}" ] && ! answers 4222; then
  echo "infrastructure: starting NATS" >&2
  if [ -x /usr/sbin/nats-server ]; then
    mkdir -p /var/lib/nats-server
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
      -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log >&2 || true
  fi
  wait_for 4222 || { echo "infrastructure: NATS does not answer on 127.0.0.1:4222" >&2; exit 1; }
fi
