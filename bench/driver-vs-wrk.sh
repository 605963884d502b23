#!/usr/bin/env bash
# Benchmark: the kit's load driver against wrk, same trivial endpoint, same connections, in one run.
# Prints requests/s and latency percentiles of wrk, of the kit's driver (kit: an NIO event loop), and of the
# same closed loop on java.net.http.HttpClient (jdk: what the driver used before), with the ratios to wrk.
# Goals for the kit: requests/s >= 0.8 x wrk's, p50/p90/p99 <= 2 x wrk's.
#   bench/driver-vs-wrk.sh [connections=40] [seconds=10] [rounds=1]
# BEFORE=<commit> adds the kit's driver as it was at that commit (client kit-before, built in a git worktree under
# target/), so that a change to the driver is measured against what it replaced in the same run:
#   BEFORE=e12fd57 CLIENTS="kit kit-before" bench/driver-vs-wrk.sh 40 10 3
# Rounds alternate wrk and the driver, so that both see the same machine. Needs: wrk (Debian: apt-get install
# wrk), a JDK 21+ as JAVA_HOME. No Docker: the lab service runs locally, on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${1:-40}
SECONDS_PER_RUN=${2:-10}
ROUNDS=${3:-1}
PORT=${PORT:-18080}
CLIENTS=${CLIENTS:-kit jdk}
URL="http://127.0.0.1:$PORT/work/sleep?latency=0ms"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"

echo "[bench] building the lab service and the kit"
./mvnw -B -q -DskipTests test-compile
./mvnw -B -q -DskipTests -f containers/lab-service/pom.xml package
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >/dev/null

if [ -n "${BEFORE:-}" ]; then
  echo "[bench] building the driver as it was at $BEFORE (target/kit-before)"
  rm -rf target/kit-before && git worktree prune && git worktree add -q --detach target/kit-before "$BEFORE"
  ./mvnw -B -q -DskipTests -Dinvoker.skip=true -Dspring-javaformat.skip=true -f target/kit-before/pom.xml test-compile
fi

echo "[bench] starting the downstream on 127.0.0.1:$PORT (platform threads, Tomcat 200)"
java -XX:+UseSerialGC -jar containers/lab-service/target/lab-service.jar --spring.profiles.active=downstream \
  --server.port="$PORT" --server.address=127.0.0.1 --logging.level.root=WARN >target/bench-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; [ -z "${BEFORE:-}" ] || git worktree remove --force target/kit-before 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "$URL" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fs "$URL" >/dev/null || { echo "server did not start; see target/bench-server.log" >&2; exit 1; }

echo "[bench] warming the server up (wrk, 60 s: its JIT settles first)"
wrk -t2 -c"$CONNECTIONS" -d60s "$URL" >/dev/null

to_us() { # wrk latency like 1.23ms / 850.00us / 1.02s -> microseconds
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print int(n); else if (v ~ /ms$/) print int(n * 1000); else if (v ~ /s$/) print int(n * 1000000); else print int(n) }'
}
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }
row() { printf '%-8s %-14s %12.1f %10s %10s %10s %8s\n' "$@"; }

printf '\n%-8s %-14s %12s %10s %10s %10s %8s\n' round tool "requests/s" "p50 ms" "p90 ms" "p99 ms" errors
declare -A ratios latencies
run_wrk() {
  wrk_out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "$URL")
  wrk_rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$wrk_out")
  wrk_p50=$(to_us "$(awk '$1 == "50%" { print $2 }' <<<"$wrk_out")")
  wrk_p90=$(to_us "$(awk '$1 == "90%" { print $2 }' <<<"$wrk_out")")
  wrk_p99=$(to_us "$(awk '$1 == "99%" { print $2 }' <<<"$wrk_out")")
  row "$round" wrk "$wrk_rps" "$(ms "$wrk_p50")" "$(ms "$wrk_p90")" "$(ms "$wrk_p99")" 0
}
run_client() {
  local client=$1 classes="target/test-classes:target/classes" as=$1
  if [ "$client" = kit-before ]; then classes="target/kit-before/target/test-classes:target/kit-before/target/classes"; as=kit; fi
  out=$(java -cp "$classes:$(cat target/bench-classpath.txt)" ${BENCH_JAVA_OPTS:-} \
    -Dlogback.configurationFile=none dev.bottleneckkit.bench.DriverBenchmark "$as" "$URL" "$CONNECTIONS" "$SECONDS_PER_RUN" \
    2>/dev/null | grep '^RESULT')
  kit() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$out"; }
  row "$round" "$client" "$(kit rps)" "$(ms "$(kit p50_us)")" "$(ms "$(kit p90_us)")" "$(ms "$(kit p99_us)")" "$(kit errors)"
  local v=${client//-/_}
  declare -g "rps_$v=$(kit rps)" "p50_$v=$(kit p50_us)" "p90_$v=$(kit p90_us)" "p99_$v=$(kit p99_us)"
}
for round in $(seq 1 "$ROUNDS"); do
  # wrk first in odd rounds, last in even ones: a server still getting faster favours neither.
  [ $((round % 2)) -eq 1 ] && run_wrk
  for client in $CLIENTS; do run_client "$client"; done
  [ $((round % 2)) -eq 0 ] && run_wrk
  for client in $CLIENTS; do
    v=${client//-/_}
    rps_var="rps_$v"; p50_var="p50_$v"; p90_var="p90_$v"; p99_var="p99_$v"
    ratio=$(awk -v k="${!rps_var}" -v w="$wrk_rps" 'BEGIN { printf "%.2f", k / w }')
    lat=$(awk -v a="${!p50_var}" -v b="$wrk_p50" -v c="${!p90_var}" -v d="$wrk_p90" -v e="${!p99_var}" -v f="$wrk_p99" \
      'BEGIN { printf "p50 %.1fx, p90 %.1fx, p99 %.1fx", a / b, c / d, e / f }')
    printf '%-8s %-14s %s / wrk: requests/s %s; latency %s\n' "" "" "$client" "$ratio" "$lat"
    ratios[$client]="${ratios[$client]:-} $ratio"
    worst=$(awk -v a="${!p50_var}" -v b="$wrk_p50" -v c="${!p90_var}" -v d="$wrk_p90" -v e="${!p99_var}" -v f="$wrk_p99" \
      'BEGIN { m = a / b; if (c / d > m) m = c / d; if (e / f > m) m = e / f; printf "%.1f", m }')
    latencies[$client]="${latencies[$client]:-} $worst"
  done
done
echo
# The median round: this machine's neighbours steal CPU in bursts, and a burst lands on one tool of a round.
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for client in $CLIENTS; do
  rps=$(median "${ratios[$client]}")
  lat=$(median "${latencies[$client]}")
  printf '%s / wrk, median of %d round(s): requests/s %.2f (rounds:%s; goal >= 0.8: %s), worst latency percentile %.1fx (rounds:%s; goal <= 2: %s)\n' \
    "$client" "$ROUNDS" "$rps" "${ratios[$client]}" "$(awk -v m="$rps" 'BEGIN { print (m >= 0.8) ? "met" : "not met" }')" \
    "$lat" "${latencies[$client]}" "$(awk -v m="$lat" 'BEGIN { print (m <= 2) ? "met" : "not met" }')"
done
