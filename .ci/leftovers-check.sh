#!/usr/bin/env bash
# Nothing left behind, also when the test JVM does not end well: runs a scenario, kills its JVM once with
# SIGKILL (kill -9) and once with SIGINT (Ctrl-C) while its containers run, then runs another scenario, whose
# @Scenario removes what the dead JVMs left. Prints the kit's containers, networks and images after each step
# and fails unless the last count is 0 / 0 / 0. Needs a Docker engine, JAVA_HOME (21+), and the lab service
# built (./mvnw verify has run).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[leftovers] %s\n' "$*"; }
kit() { docker "$@" --filter label=dev.bottleneckkit -q | wc -l; }
count() { printf '%s containers, %s networks, %s images' "$(kit ps -a)" "$(kit network ls)" "$(kit images)"; }
test_jvm() { # the forked test JVM (Failsafe starts it through sh: the java process is the one wanted)
  local p
  for p in $(pgrep -f surefirebooter || true); do
    if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = java ]; then echo "$p"; return; fi
  done
}

mkdir -p target
say "before: $(count)"
# Job control: each Maven run gets a process group of its own, as in a terminal, and SIGINT is not ignored
# (a script's background jobs would ignore it otherwise).
set -m
for signal in KILL INT; do
  ./mvnw -B -ntp -q verify -Pscenarios -Dinvoker.skip=true -Dit.test=RestClientConnectionPoolIT \
    >"target/leftovers-$signal.log" 2>&1 &
  mvn_pid=$!
  # Until the scenario's downstream and caller run, both labelled with the test JVM's pid.
  fork=
  for _ in $(seq 1 240); do
    fork=$(test_jvm)
    [ -n "$fork" ] && [ "$(docker ps -q --filter "label=dev.bottleneckkit.pid=$fork" | wc -l)" -ge 2 ] && break
    sleep 0.5
  done
  [ -n "$fork" ] || { say "error: no forked test JVM found"; kill -9 -- "-$mvn_pid" 2>/dev/null; exit 1; }
  running=$(docker ps -q --filter label=dev.bottleneckkit | wc -l)
  if [ "$signal" = KILL ]; then
    say "kill -9 of the test JVM (pid $fork) while $running kit containers run"
    kill -9 "$fork"
  else
    say "Ctrl-C (SIGINT to Maven's process group, test JVM pid $fork) while $running kit containers run"
    kill -INT -- "-$mvn_pid"
  fi
  for _ in $(seq 1 120); do kill -0 "$mvn_pid" 2>/dev/null || break; sleep 0.5; done
  kill -9 -- "-$mvn_pid" 2>/dev/null || true
  kill -9 "$fork" 2>/dev/null || true
  wait "$mvn_pid" 2>/dev/null || true
  # A process sent SIGKILL is gone once the kernel has torn it down and its parent (or init) has reaped it:
  # not at once.
  for _ in $(seq 1 20); do [ -z "$(test_jvm)" ] && break; sleep 0.5; done
  if [ -n "$(test_jvm)" ]; then say "error: a test JVM still runs 10 s after SIGKILL: $(test_jvm)"; exit 1; fi
  say "after it: $(count) left"
done
set +m

say "a later run (PinningProbeIT) reaps what the dead JVMs left"
./mvnw -B -ntp -q verify -Pscenarios -Dinvoker.skip=true -Dit.test=PinningProbeIT >target/leftovers-reaping.log 2>&1 \
  || { say "error: the later run failed; see target/leftovers-reaping.log"; exit 1; }
grep -h "left behind on .* by earlier runs" target/leftovers-reaping.log | sed "s/^/[leftovers]   /" || true
after=$(count)
say "after the later run: $after"
[ -z "${CI_FIGURE:-}" ] || echo "after kill -9 and Ctrl-C, a later run left $after" >"$CI_FIGURE"
[ "$after" = "0 containers, 0 networks, 0 images" ] || { docker ps -a --filter label=dev.bottleneckkit >&2; exit 1; }
