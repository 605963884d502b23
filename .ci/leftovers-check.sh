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
scenario() { # run one scenario class in the background; prints Maven's pid
  ./mvnw -B -ntp -q verify -Pscenarios -Dinvoker.skip=true -Dit.test="$1" >"target/leftovers-$1-$2.log" 2>&1 &
  echo $!
}

mkdir -p target
say "before: $(count)"
for signal in KILL INT; do
  mvn_pid=$(scenario RestClientConnectionPoolIT "$signal")
  for _ in $(seq 1 240); do
    [ "$(docker ps -q --filter label=dev.bottleneckkit | wc -l)" -ge 2 ] && break
    sleep 0.5
  done
  fork=$(pgrep -f surefirebooter | head -n 1 || true)
  [ -n "$fork" ] || { say "error: no forked test JVM found"; kill "$mvn_pid" 2>/dev/null; exit 1; }
  say "SIG$signal to the test JVM (pid $fork) while $(docker ps -q --filter label=dev.bottleneckkit | wc -l) kit containers run"
  kill "-$signal" "$fork"
  wait "$mvn_pid" 2>/dev/null || true
  say "after SIG$signal: $(count) left by the dead JVM"
done

say "a later run (KitImagesIT) reaps what the dead JVMs left"
./mvnw -B -ntp -q verify -Pscenarios -Dinvoker.skip=true -Dit.test=KitImagesIT >target/leftovers-reaping.log 2>&1 \
  || { say "error: the later run failed; see target/leftovers-reaping.log"; exit 1; }
grep -h "left behind by earlier runs" target/leftovers-reaping.log | sed 's/^.*WARN */[leftovers]   /' || true
after=$(count)
say "after the later run: $after"
[ "$after" = "0 containers, 0 networks, 0 images" ] || { docker ps -a --filter label=dev.bottleneckkit >&2; exit 1; }
