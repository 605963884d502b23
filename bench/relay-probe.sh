#!/usr/bin/env bash
# Whether short turns let A and B meet the same machine (a benchmark that prints figures, not a test): the lab's
# CPU-bound route (/work/cpu, SHA-256 rounds) in two containers, a closed loop of users sending each request to the
# side whose turn it is (the kit's ClosedLoopLoad.runInTurns), blocks of each turn length in a shuffled order
# (dev.bottleneckkit.bench.RelayProbe). A machine whose cores drift from one second to the next (bench/cpu-drift.py)
# moves a block of 3 s turns by as much as the drift over 3 s, and many short turns average it away: a guard's blocks
# take A and B in 500 ms turns where the CPU may cap the route. Each block's rate at full load is written two ways,
# whole answers and the requests' lives (the guard's).
#   bench/relay-probe.sh [HEAD-ROUNDS=100] [BLOCKS=8] [RESULTS=docs/relay-probe.tsv] [TURNS-MS="250 500 1000 3000"]
# HEAD-ROUNDS: the head's thousands of rounds a request, the base's being 100 (100 is an A/A, 105 a 5 % change).
# RELAY_USERS (16 unless set): the closed loop's users.
# Needs a Docker engine and its images (BOTTLENECK_IMAGES=offline after containers/offline/build.sh); nothing else on
# the machine meanwhile. The table: python3 bench/relay-probe-table.py docs/relay-probe.tsv
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lab-bench.sh
head_rounds=${1:-100}
blocks=${2:-8}
results=$(realpath -m "${3:-docs/relay-probe.tsv}")
read -r -a turns <<<"${4:-250 500 1000 3000}"
work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-relay.XXXXXX")
tag="bottleneck-kit/relay-probe"
cleanup() {
  docker image rm -f "$tag:cpu100-$$" "$tag:cpu$head_rounds-$$" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
lab_jar "$work"
for rounds in 100 "$head_rounds"; do
  lab_image "$work" "$tag:cpu$rounds-$$" "SPRING_PROFILES_ACTIVE=downstream LAB_DOWNSTREAM_CPU_ITERATIONS=${rounds}000"
done
bench_classpath
java ${BOTTLENECK_IMAGES:+-Dbottleneck.images=$BOTTLENECK_IMAGES} \
  -cp "$classpath" dev.bottleneckkit.bench.RelayProbe \
  "$tag:cpu100-$$" "$tag:cpu$head_rounds-$$" /work/cpu "${RELAY_USERS:-16}" "$blocks" 24 "$results" "${turns[@]}" 2>&1 \
  | grep --line-buffered -E '^\[relay\]'
python3 bench/relay-probe-table.py "$results"
