#!/usr/bin/env bash
# Calibration of the A/B guard (a benchmark that prints figures, not a test): N runs each as A/A (the same image
# twice), as A/B with the head's capacity cut by a fifth, and as A/B with it cut by a tenth, on the lab's /orders/{id}
# route (a 200 ms hold on 10 Tomcat threads; the heads run 8 and 9). Prints each run's verdict, then the A/A false
# regressions, the detections, the median half-width of the ceiling's 95 % interval, and the wall time of one guard.
#   bench/ab-calibration.sh [N=10]
# Needs a Docker engine and the images of the selected set (BOTTLENECK_IMAGES=offline after containers/offline/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
n=${1:-10}
case "${BOTTLENECK_IMAGES:-official}" in
  offline) java_image=bottleneck-kit/temurin:21-jre ;;
  *) java_image=eclipse-temurin:21-jre ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-calibration.XXXXXX")
tag="bottleneck-kit/ab-orders"
cleanup() { docker image rm -f "$tag:base-$$" "$tag:minus20-$$" "$tag:minus10-$$" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

./mvnw -B -q -f containers/lab-service/pom.xml -DskipTests package
cp containers/lab-service/target/lab-service.jar "$work/app.jar"
for variant in base:10 minus20:8 minus10:9; do
  { cat containers/lab-service/Dockerfile
    echo "ENV SPRING_PROFILES_ACTIVE=downstream LAB_DOWNSTREAM_LATENCY=200ms SERVER_TOMCAT_THREADS_MAX=${variant#*:}"
  } >"$work/Dockerfile"
  docker build -q --build-arg "JAVA_IMAGE=$java_image" --build-arg CDS=false -t "$tag:${variant%%:*}-$$" -f "$work/Dockerfile" "$work" >/dev/null
done
./mvnw -B -q -DskipTests test-compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >/dev/null
java ${BOTTLENECK_IMAGES:+-Dbottleneck.images=$BOTTLENECK_IMAGES} \
  -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" dev.bottleneckkit.bench.ABCalibration "$n" \
  "$tag:base-$$" "$tag:minus20-$$" "$tag:minus10-$$" /orders/42 2>&1 \
  | grep -E '^\[calibration\]|^\[bottleneck-kit\] .*(B \(|ceiling:|capped by|moved)'
