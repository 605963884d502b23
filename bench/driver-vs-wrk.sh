#!/usr/bin/env bash
# Benchmark: the kit's load driver against wrk, same trivial endpoint, same connections, one run.
# Prints requests/s and latency percentiles of each and the ratio driver/wrk (goal: >= 0.5 on 2 cores).
#   bench/driver-vs-wrk.sh [connections=40] [seconds=10]
# Needs: wrk (Debian: apt-get install wrk), a JDK 21+ as JAVA_HOME. No Docker: the lab service runs locally.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${1:-40}
SECONDS_PER_RUN=${2:-10}
PORT=${PORT:-18080}
URL="http://127.0.0.1:$PORT/work/sleep?latency=0ms"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"

echo "[bench] building the lab service and the kit"
./mvnw -B -q -DskipTests test-compile
./mvnw -B -q -DskipTests -f containers/lab-service/pom.xml package
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >/dev/null

echo "[bench] starting the downstream on 127.0.0.1:$PORT (platform threads, Tomcat 200)"
java -XX:+UseSerialGC -jar containers/lab-service/target/lab-service.jar --spring.profiles.active=downstream \
  --server.port="$PORT" --server.address=127.0.0.1 --logging.level.root=WARN >target/bench-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "$URL" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fs "$URL" >/dev/null || { echo "server did not start; see target/bench-server.log" >&2; exit 1; }

echo "[bench] warming the server up (wrk, 5 s)"
wrk -t2 -c"$CONNECTIONS" -d5s "$URL" >/dev/null

echo "[bench] wrk: $CONNECTIONS connections, ${SECONDS_PER_RUN} s"
wrk_out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "$URL")
echo "[bench] kit driver: $CONNECTIONS users, ${SECONDS_PER_RUN} s (after 1 s warm-up)"
kit_out=$(java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  -Dlogback.configurationFile=none dev.bottleneckkit.bench.DriverBenchmark "$URL" "$CONNECTIONS" "$SECONDS_PER_RUN" 2>/dev/null | grep '^RESULT')

to_us() { # wrk latency like 1.23ms / 850.00us / 1.02s -> microseconds
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print int(n); else if (v ~ /ms$/) print int(n * 1000); else if (v ~ /s$/) print int(n * 1000000); else print int(n) }'
}
wrk_rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$wrk_out")
wrk_p50=$(to_us "$(awk '$1 == "50%" { print $2 }' <<<"$wrk_out")")
wrk_p90=$(to_us "$(awk '$1 == "90%" { print $2 }' <<<"$wrk_out")")
wrk_p99=$(to_us "$(awk '$1 == "99%" { print $2 }' <<<"$wrk_out")")
kit() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$kit_out"; }

printf '\n%-12s %12s %10s %10s %10s\n' tool "requests/s" "p50 ms" "p90 ms" "p99 ms"
printf '%-12s %12.1f %10.2f %10.2f %10.2f\n' wrk "$wrk_rps" "$(echo "$wrk_p50/1000" | bc -l)" \
  "$(echo "$wrk_p90/1000" | bc -l)" "$(echo "$wrk_p99/1000" | bc -l)"
printf '%-12s %12.1f %10.2f %10.2f %10.2f\n' "kit driver" "$(kit rps)" "$(echo "$(kit p50_us)/1000" | bc -l)" \
  "$(echo "$(kit p90_us)/1000" | bc -l)" "$(echo "$(kit p99_us)/1000" | bc -l)"
ratio=$(echo "$(kit rps) / $wrk_rps" | bc -l)
printf '\nratio kit/wrk: %.2f (goal >= 0.5: %s); kit errors: %s\n' "$ratio" \
  "$(echo "$ratio >= 0.5" | bc -l | sed 's/1/met/; s/0/not met/')" "$(kit errors)"
