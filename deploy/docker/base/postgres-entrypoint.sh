#!/bin/sh
# Entry point of the locally built PostgreSQL 15 image (scripts/build-base-images.sh): the same
# interface as the public postgres image for what the project uses: POSTGRES_USER (default postgres),
# POSTGRES_PASSWORD, POSTGRES_DB (default: the user's name), POSTGRES_HOST_AUTH_METHOD, PGDATA, and
# extra server options as arguments (postgres -c fsync=off).
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ "${1:-postgres}" = postgres ]; then
  [ "$#" -gt 0 ] && shift
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    method="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
    if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$method" != trust ]; then
      echo "postgres image: set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust)" >&2
      exit 1
    fi
    pwfile="$(mktemp)"
    printf '%s\n' "${POSTGRES_PASSWORD:-unused}" >"$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$method" \
      --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
    printf "host all all 0.0.0.0/0 %s\nhost all all ::/0 %s\n" "$method" "$method" >>"$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
      postgres --single -D "$PGDATA" postgres >/dev/null <<SQL
CREATE DATABASE "$db";
SQL
    fi
  fi
  exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql "$@"
fi
exec "$@"
