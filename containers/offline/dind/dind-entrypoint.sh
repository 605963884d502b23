#!/bin/sh
# Starts dockerd inside its container, as GitLab's docker:dind service runs one.
set -eu
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  # cgroup v2: the engine needs a cgroup whose controllers it may hand down, so this container's own processes move
  # into a child cgroup first, as the official docker:dind image's script does.
  mkdir -p /sys/fs/cgroup/init
  xargs -rn1 </sys/fs/cgroup/cgroup.procs >/sys/fs/cgroup/init/cgroup.procs 2>/dev/null || :
  sed -e 's/ / +/g' -e 's/^/+/' </sys/fs/cgroup/cgroup.controllers >/sys/fs/cgroup/cgroup.subtree_control
else
  # cgroup v1: a container that is not --privileged gets its hierarchies read-only, and a remount is refused while
  # they are in use. Each is mounted afresh, read-write; in a private cgroup namespace it shows this container's
  # own groups only.
  grep ' cgroup ro,' /proc/self/mounts | while read -r _ dir _ opts _; do
    subsystems=$(printf '%s' "$opts" | tr ',' '\n' | grep -Ev '^(ro|rw|nosuid|nodev|noexec|relatime)$' | paste -sd, -)
    case "$subsystems" in name=*) subsystems="none,$subsystems" ;; esac
    umount "$dir" && mount -t cgroup -o "rw,nosuid,nodev,noexec,$subsystems" cgroup "$dir"
  done
fi
exec dockerd --host=tcp://0.0.0.0:2375 --tls=false "$@"
