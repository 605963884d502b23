#!/usr/bin/env bash
# Whether short turns let A and B meet the same machine (a benchmark that prints figures, not a test): the lab's
# CPU-bound route (/work/cpu, SHA-256 rounds) in two containers, a closed loop of users sending each request to the
# side whose turn it is, blocks of each turn length in a shuffled order (dev.bottleneckkit.bench.RelayProbe). A guard
# takes A and B in turns of 3 s or more; a machine whose cores drift from one second to the next (bench/cpu-drift.py)
# moves such a block's ratio by as much as the drift over 3 s, and many short turns would average it away.
#   bench/relay-probe.sh [HEAD-ROUNDS=100] [BLOCKS=8] [RESULTS=docs/relay-probe.tsv] [TURNS-MS="250 500 1000 3000"]
# HEAD-ROUNDS: the head's thousands of rounds a request, the base's being 100 (100 is an A/A, 105 a 5 % change).
# Needs a Docker engine and its images (BOTTLENECK_IMAGES=offline after containers/offline/build.sh); nothing else on
# the machine meanwhile. The table: python3 bench/relay-probe-table.py docs/relay-probe.tsv
set -euo pipefail
cd "$(dirname "$0")/.."
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH" TESTCONTAINERS_RYUK_DISABLED=${TESTCONTAINERS_RYUK_DISABLED:-true}
[ -f /.dockerenv ] && export TESTCONTAINERS_HOST_OVERRIDE=${TESTCONTAINERS_HOST_OVERRIDE:-localhost}
head_rounds=${1:-100}
blocks=${2:-8}
results=$(realpath -m "${3:-docs/relay-probe.tsv}")
read -r -a turns <<<"${4:-250 500 1000 3000}"
case "${BOTTLENECK_IMAGES:-official}" in
  offline) java_image=bottleneck-kit/temurin:21-jre ;;
  *) java_image=eclipse-temurin:21-jre ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-relay.XXXXXX")
tag="bottleneck-kit/relay-probe"
cleanup() {
  docker image rm -f "$tag:cpu100-$$" "$tag:cpu$head_rounds-$$" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
./mvnw -B -q -f containers/lab-service/pom.xml -DskipTests package
cp containers/lab-service/target/lab-service.jar "$work/app.jar"
for rounds in 100 "$head_rounds"; do
  { cat containers/lab-service/Dockerfile
    echo "ENV SPRING_PROFILES_ACTIVE=downstream LAB_DOWNSTREAM_CPU_ITERATIONS=${rounds}000"; } >"$work/Dockerfile"
  docker build -q --build-arg "JAVA_IMAGE=$java_image" --build-arg CDS=false -t "$tag:cpu$rounds-$$" \
    -f "$work/Dockerfile" "$work" >/dev/null
done
./mvnw -B -q -DskipTests test-compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >/dev/null
java ${BOTTLENECK_IMAGES:+-Dbottleneck.images=$BOTTLENECK_IMAGES} \
  -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" dev.bottleneckkit.bench.RelayProbe \
  "$tag:cpu100-$$" "$tag:cpu$head_rounds-$$" /work/cpu 16 "$blocks" 24 "$results" "${turns[@]}" 2>&1 \
  | grep --line-buffered -E '^\[relay\]'
python3 bench/relay-probe-table.py "$results"
