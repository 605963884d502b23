#!/usr/bin/env bash
# Makes sure a Docker engine answers on this machine.
#   docker-engine.sh start  -> installs docker.io if missing, starts dockerd if none answers; prints
#                              "started" on stdout when it started one, "running" when one already answered
#                              (a caller stops only an engine it started).
#   docker-engine.sh stop   -> stops the dockerd this script started (its pid file), never another one.
set -euo pipefail

PID_FILE=/var/run/bottleneck-kit-dockerd.pid
LOG_FILE=/var/log/bottleneck-kit-dockerd.log

log() { printf '[docker-engine] %s\n' "$*" >&2; }

engine_answers() { timeout 5 docker info >/dev/null 2>&1; }

install_engine() {
  if command -v dockerd >/dev/null 2>&1; then return; fi
  log "no dockerd on this machine: installing Debian's docker.io"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends docker.io iptables >/dev/null 2>&1
}

start() {
  if engine_answers; then
    log "a Docker engine already answers: $(docker version -f '{{.Server.Version}}' 2>/dev/null)"
    echo running
    return
  fi
  install_engine
  log "starting dockerd (log: $LOG_FILE)"
  nohup dockerd >"$LOG_FILE" 2>&1 &
  echo $! >"$PID_FILE"
  for _ in $(seq 1 60); do
    if engine_answers; then
      log "dockerd is up: $(docker version -f '{{.Server.Version}}' 2>/dev/null), API $(docker version -f '{{.Server.APIVersion}}' 2>/dev/null)"
      echo started
      return
    fi
    sleep 0.5
  done
  log "dockerd did not answer within 30 s; last lines of $LOG_FILE:"
  tail -n 20 "$LOG_FILE" >&2
  exit 1
}

stop() {
  [ -f "$PID_FILE" ] || { log "no dockerd started by this script"; return; }
  local pid; pid=$(cat "$PID_FILE")
  if kill -0 "$pid" 2>/dev/null; then
    log "stopping dockerd (pid $pid)"
    kill "$pid"
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
  rm -f "$PID_FILE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
