#!/usr/bin/env bash
# Benchmark: what the pinning probe costs a JVM in a container (Java 21, synchronized around a 1 ms
# sleep in 32 virtual threads per batch, JFR threshold 0). Prints start-up delay, attach time, pins/s
# with and without recording, and events recorded/s.
#   bench/pinning-probe.sh [seconds-per-run=10]
# Needs Docker and the images of the selected set (BOTTLENECK_IMAGES=offline after containers/offline/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
./mvnw -B -q -DskipTests test-compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >/dev/null
java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  dev.bottleneckkit.bench.PinningProbeBenchmark "${1:-10}" 2>&1 | grep -v -E '^[0-9:.]+ (INFO|WARN) |^\*+$|Ryuk'
