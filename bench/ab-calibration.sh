#!/usr/bin/env bash
# Calibration of the A/B guard (a benchmark that prints figures, not a test): guards of the lab's routes, N of each
# kind, in rounds (each kind once, then the next round), each from two fresh containers:
#   capacity: /orders/{id}, a 200 ms hold on Tomcat's threads: A/A on 20 threads; heads cut 3 % (30 against 31),
#             5 % (19 against 20), 10 % (9 against 10) and by half (10 against 20)
#   CPU:      /work/cpu, 100,000 chained SHA-256 rounds a request: A/A; heads doing 5 % (within a 6-minute budget),
#             10 % and twice as many rounds; each on two pairs of JVMs (the default) and, in the same rounds, on one
#             ("..., one pair": -Dbottleneck.ab.pairs=1)
# Each guard's figures are appended to the results file as it ends, and its blocks and its phases' times ("A/B took") to
# its blocks log, bench/runs/NAME-blocks.log.gz (a gzip member a run, added when it ends), so a calibration can span
# sessions: run it again on the same code and it goes on where the
# file ends (each row names the commit and the code, the library's and the lab's trees, its guards ran). The table:
#   bench/ab-calibration-table.py docs/ab-calibration.tsv
#   bench/ab-calibration.sh [N=10] [RESULTS=docs/ab-calibration.tsv] [KIND-FILTER=.]
# Needs a Docker engine and the images of the selected set (BOTTLENECK_IMAGES=offline after containers/offline/build.sh).
# Run nothing else on the machine meanwhile: the figures are the machine's.
# Testcontainers without Ryuk (the kit removes what it made itself) and on this host, as .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lab-bench.sh
# The guards' code: the library's and the lab's. Rows of one code pool; a tree that differs from its commit there would
# be measured under a name that is not its own.
git diff --quiet HEAD -- src/main containers/lab-service \
  || { echo "[calibration] error: src/main or containers/lab-service differ from HEAD: commit them first" >&2; exit 2; }
kit=$(git rev-parse HEAD:src/main HEAD:containers/lab-service | sha1sum | cut -c1-7)
n=${1:-10}
results=$(realpath -m "${2:-docs/ab-calibration.tsv}")
filter=${3:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-calibration.XXXXXX")
tag="bottleneck-kit/ab-calibration"
variants=(orders31 orders30 orders20 orders19 orders10 orders9 cpu100 cpu105 cpu110 cpu200)
blocks_log="bench/runs/$(basename "${results%.tsv}")-blocks.log.gz"
cleanup() {
  for v in "${variants[@]}"; do docker image rm -f "$tag:$v-$$" >/dev/null 2>&1 || true; done
  if [ -s "$work/blocks.log" ]; then mkdir -p bench/runs && gzip -9 -c "$work/blocks.log" >>"$blocks_log"; fi
  rm -rf "$work"
}
trap cleanup EXIT

lab_jar "$work"
for variant in "${variants[@]}"; do
  case $variant in
    orders*) env="SPRING_PROFILES_ACTIVE=downstream LAB_DOWNSTREAM_LATENCY=200ms SERVER_TOMCAT_THREADS_MAX=${variant#orders}" ;;
    cpu*) env="SPRING_PROFILES_ACTIVE=downstream LAB_DOWNSTREAM_CPU_ITERATIONS=${variant#cpu}000" ;;
  esac
  lab_image "$work" "$tag:$variant-$$" "$env"
done
bench_classpath
i() { echo "$tag:$1-$$"; }
kinds=(
  "A/A capacity|$(i orders20)|$(i orders20)|/orders/42|64"
  "A/A CPU|$(i cpu100)|$(i cpu100)|/work/cpu|16"
  "capacity -3 %|$(i orders31)|$(i orders30)|/orders/42|64"
  "capacity -5 %|$(i orders20)|$(i orders19)|/orders/42|64"
  "capacity -10 %|$(i orders10)|$(i orders9)|/orders/42|32"
  "CPU +5 % work|$(i cpu100)|$(i cpu105)|/work/cpu|16|-|360"
  "CPU +10 % work|$(i cpu100)|$(i cpu110)|/work/cpu|16"
  "capacity 2×|$(i orders20)|$(i orders10)|/orders/42|64"
  "CPU 2× work|$(i cpu100)|$(i cpu200)|/work/cpu|16"
  "A/A CPU, one pair|$(i cpu100)|$(i cpu100)|/work/cpu|16|1"
  "CPU +5 % work, one pair|$(i cpu100)|$(i cpu105)|/work/cpu|16|1"
  "CPU +10 % work, one pair|$(i cpu100)|$(i cpu110)|/work/cpu|16|1"
)
selected=()
for kind in "${kinds[@]}"; do if grep -qE -- "$filter" <<<"${kind%%|*}"; then selected+=("$kind"); fi; done
java ${BOTTLENECK_IMAGES:+-Dbottleneck.images=$BOTTLENECK_IMAGES} -Dcalibration.commit="$(git rev-parse --short HEAD)" \
  -Dcalibration.kit="$kit" \
  -cp "$classpath" dev.bottleneckkit.bench.ABCalibration \
  "$results" "$n" "${selected[@]}" 2>&1 \
  | tee -a "${TMPDIR:-/tmp}/ab-calibration-console.log" \
  | tee >(grep --line-buffered -E '\[bottleneck-kit\] .*(A/B block [0-9]+ \(|A/B took|B \(.*against A)' >>"$work/blocks.log") \
  | grep --line-buffered -E '^\[calibration\]|^\[bottleneck-kit\] .*(B \(|ceiling:|capped by|moved)'
python3 bench/ab-calibration-table.py "$results"
