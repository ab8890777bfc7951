#!/usr/bin/env bash
# pnpm images: builds one OCI image per deployable process, every folder of services/ that has a
# src/main.ts (a new service gets its image with no edit here), from deploy/docker/Dockerfile, tagged
# hosted-checkout/<service>:<version> (<version> = the chart's appVersion, so `pnpm chart:run` and the
# chart name the same images). Each image also holds its service's migrations (src/migrate.ts, the
# chart's migration Job). Prints each image's size at the end (docs/container-images.md) and writes each
# image's SBOM (CycloneDX JSON, deploy/docker/sbom.ts) to deploy/out/sbom/<service>.cdx.json.
#   pnpm images [SERVICE…]            only these services
#   IMAGE_REPOSITORY=registry.example.com/hosted-checkout pnpm images     another name prefix
#   pnpm images --push REGISTRY[/PATH] [SERVICE…]   then tag each REGISTRY/PATH/<service>:<version>, push it
#                                    and print "<reference>@<digest>" (the digest the registry stored)
#   pnpm images --push REGISTRY --no-build          push what an earlier `pnpm images` built
# A registry on 127.0.0.1/localhost is pushed to over plain HTTP (a local test registry); any other over TLS.
# Builds with the client of the engine that scripts/ensure-container-engine.sh finds (or installs):
# podman build for podman, docker build with BuildKit for a Docker daemon. The base image comes from
# scripts/container-images-env.sh (node:24-bookworm-slim, or a local stand-in built from Debian packages
# where no registry answers).
set -euo pipefail
push=""
build=1
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --push) [ $# -ge 2 ] || { echo "images: --push needs a registry (e.g. registry.example.com/hosted-checkout)" >&2; exit 2; }
      push="${2%/}"; shift 2 ;;
    --no-build) build=0; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
set -- "${args[@]+"${args[@]}"}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { echo "images: $*" >&2; }
# The engine first, then its client. On a fresh machine the engine script installs podman; a client
# chosen before it (docker, the only one on PATH then) built through podman's API with Docker's legacy
# builder, which knows neither --secret nor RUN --mount (issue 45).
engine=""
if exports="$(bash scripts/ensure-container-engine.sh)"; then
  eval "$exports"
  engine="$HC_CONTAINER_ENGINE"
fi
case "$engine" in
  podman)
    # podman build (buildah) supports the Dockerfile's secret mounts; the docker client cannot send a
    # build secret to podman's API.
    command -v podman >/dev/null || { say "the engine is podman's API ($DOCKER_HOST) but the podman client is missing"; exit 1; }
    client=podman ;;
  docker)
    client=docker ;;
  *)
    # No engine the script could check or start: docker where its own configuration reaches a daemon (a
    # docker context), else podman, which builds without any service (a Docker CLI alone cannot build).
    if command -v docker >/dev/null && docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then client=docker
    elif command -v podman >/dev/null; then client=podman
    elif command -v docker >/dev/null; then client=docker
    else say "no container engine and no client (scripts/ensure-container-engine.sh)"; exit 1
    fi ;;
esac
# BuildKit: the legacy builder has no --secret and no RUN --mount (a recent docker needs its buildx plugin).
[ "$client" = docker ] && export DOCKER_BUILDKIT=1
say "building with $client build (engine: ${engine:-as the client is configured})"
eval "$(bash scripts/container-images-env.sh)"

repository="${IMAGE_REPOSITORY:-hosted-checkout}"
version="$(awk '/^appVersion:/ { gsub(/["\047]/, "", $2); print $2 }' deploy/helm/hosted-checkout/Chart.yaml)"
revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
created="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

services=("$@")
if [ "${#services[@]}" -eq 0 ]; then
  for dir in services/*/; do
    name="$(basename "$dir")"
    [ -f "$dir/src/main.ts" ] && services+=("$name")
  done
fi

secret=()
ca="${NODE_EXTRA_CA_CERTS:-}"
[ -n "$ca" ] && [ -f "$ca" ] && secret=(--secret "id=npm-ca,src=$ca")
podman_only=()
# podman: the ignore file beside the Dockerfile, and Docker's image format, the only one that carries the
# Dockerfile's HEALTHCHECK (podman's default, OCI, drops it with a warning).
[ "$client" = podman ] && podman_only=(--ignorefile deploy/docker/Dockerfile.dockerignore --format docker)

started=$SECONDS
for service in "${services[@]}"; do
  [ "$build" = 1 ] || break
  image="$repository/$service:$version"
  echo "images: building $image (base $NODE_IMAGE)" >&2
  "$client" build -q -f deploy/docker/Dockerfile "${podman_only[@]}" "${secret[@]}" \
    --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "SERVICE=$service" \
    --build-arg "VERSION=$version" --build-arg "REVISION=$revision" --build-arg "CREATED=$created" \
    --label "org.opencontainers.image.base.name=$NODE_IMAGE" \
    -t "$image" . >/dev/null
done
[ "$build" = 1 ] && echo "images: built ${#services[@]} in $((SECONDS - started)) s" >&2
base_size="$("$client" image inspect --format '{{.Size}}' "$NODE_IMAGE")"
printf '%-44s %10s %16s\n' IMAGE SIZE "ABOVE THE BASE"
for service in "${services[@]}"; do
  image="$repository/$service:$version"
  size="$("$client" image inspect --format '{{.Size}}' "$image")"
  printf '%-44s %7.0f MB %13.0f MB\n' "$image" "$(echo "$size / 1000000" | bc -l)" "$(echo "($size - $base_size) / 1000000" | bc -l)"
done
printf '%-44s %7.0f MB\n' "$NODE_IMAGE (base)" "$(echo "$base_size / 1000000" | bc -l)"

# The SBOM of each image built: CycloneDX JSON of what the image holds, read from the image itself
# (deploy/docker/sbom.ts, with the CycloneDX library installed by `pnpm install`), in deploy/out/sbom/.
if [ "$build" = 1 ]; then
  sbom_dir="${SBOM_DIR:-deploy/out/sbom}"
  if [ -d node_modules/@cyclonedx/cyclonedx-library ]; then
    for service in "${services[@]}"; do
      node deploy/docker/sbom.ts "$client" "$repository/$service:$version" "$service" "$sbom_dir/$service.cdx.json"
    done
  else
    say "no SBOMs: run \`pnpm install\` first (deploy/docker/sbom.ts needs @cyclonedx/cyclonedx-library)"
  fi
fi

# --push: the registry stores each image under its tag; what it answers is the digest to deploy by
# (image.digest in the chart). Printed on stdout, one line per image, after the size table.
[ -n "$push" ] || exit 0
tls=()
case "$push" in
  127.0.0.1[:/]*|localhost[:/]*|127.0.0.1|localhost) [ "$client" = podman ] && tls=(--tls-verify=false) ;;
esac
digests="$(mktemp -d)"
trap 'rm -rf "$digests"' EXIT
for service in "${services[@]}"; do
  image="$repository/$service:$version"
  target="$push/$service:$version"
  "$client" tag "$image" "$target"
  if [ "$client" = podman ]; then
    podman push -q "${tls[@]}" --digestfile "$digests/$service" "$target" >&2
    digest="$(cat "$digests/$service")"
  else
    digest="$(docker push "$target" | sed -n 's/.*digest: \(sha256:[0-9a-f]*\).*/\1/p' | tail -n 1)"
  fi
  [ -n "$digest" ] || { echo "images: no digest for $target" >&2; exit 1; }
  echo "$target@$digest"
done
