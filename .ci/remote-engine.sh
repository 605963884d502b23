#!/usr/bin/env bash
# A Docker engine in a container of its own, as GitLab's docker:dind service runs one, for the kit's tests to use as a
# remote engine: its own network, cgroup and mount namespaces, its own storage (in memory), reached only over TCP.
#   remote-engine.sh start IMAGE...  -> starts it (bottleneck-kit/dind, built by containers/offline/build.sh), loads the
#                                       kit's offline images and IMAGE... into it, prints its DOCKER_HOST on stdout
#   remote-engine.sh stop            -> removes it, with everything it ran and stored
# Its API listens on the engine container's address on the host's Docker bridge, with no port published: this host
# reaches it, no other machine does. The ports its containers publish are on that address too.
set -euo pipefail

NAME=bottleneck-kit-remote-engine
IMAGE=bottleneck-kit/dind:20.10
KIT_IMAGES=(bottleneck-kit/temurin:21-jre bottleneck-kit/temurin:25-jre bottleneck-kit/mysql:8.4-mariadb
  bottleneck-kit/toxiproxy:2.12.0)

log() { printf '[remote-engine] %s\n' "$*" >&2; }

# Capability names by number, to drop those this machine's bounding set lacks.
CAPS=(CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP LINUX_IMMUTABLE NET_BIND_SERVICE
  NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK IPC_OWNER SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT SYS_ADMIN
  SYS_BOOT SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE AUDIT_WRITE AUDIT_CONTROL SETFCAP MAC_OVERRIDE
  MAC_ADMIN SYSLOG WAKE_ALARM BLOCK_SUSPEND AUDIT_READ)

# --privileged, as GitLab runs the service; where this machine's own bounding set lacks a capability (a machine that
# is itself a container), --privileged is refused, and the engine gets every capability the machine has instead.
privileges() {
  local bounding missing=() bit
  bounding=$((16#$(awk '/^CapBnd/ {print $2}' /proc/self/status)))
  for bit in "${!CAPS[@]}"; do
    (( (bounding >> bit) & 1 )) || missing+=(--cap-drop "${CAPS[$bit]}")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo --privileged
  else
    echo --cap-add ALL "${missing[@]}" --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
      --security-opt systempaths=unconfined
  fi
}

start() {
  docker rm -f -v "$NAME" >/dev/null 2>&1 || true
  docker image inspect "$IMAGE" >/dev/null 2>&1 || { log "error: no $IMAGE: run containers/offline/build.sh"; exit 1; }
  # shellcheck disable=SC2046
  docker run -d --name "$NAME" $(privileges) --cgroupns private --tmpfs /var/lib/docker:exec "$IMAGE" >/dev/null
  local address
  address=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$NAME")
  local host="tcp://$address:2375"
  for _ in $(seq 1 60); do
    if timeout 5 docker -H "$host" info >/dev/null 2>&1; then break; fi
    sleep 0.5
  done
  timeout 5 docker -H "$host" info >/dev/null 2>&1 || {
    log "error: the engine in $NAME did not answer on $host within 30 s; its last lines:"
    docker logs --tail 20 "$NAME" >&2
    exit 1
  }
  log "engine $(docker -H "$host" version -f '{{.Server.Version}}') in container $NAME at $host"
  local started=$SECONDS images=("${KIT_IMAGES[@]}" "$@")
  docker save "${images[@]}" | docker -H "$host" load -q >/dev/null
  log "loaded ${#images[@]} images in $((SECONDS - started)) s: ${images[*]}"
  echo "$host"
}

stop() {
  docker rm -f -v "$NAME" >/dev/null 2>&1 && log "removed $NAME" || log "no $NAME to remove"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop ;;
  *) echo "usage: $0 start [IMAGE...] | stop" >&2; exit 2 ;;
esac
