#!/usr/bin/env bash
# Proof that what the README and docs/ tell a team to copy works in a project outside this repository:
#   1. installs the kit into the local Maven repository (./mvnw install, no tests);
#   2. builds the lab's downstream as a plain image (10 Tomcat threads the tests are not told of), which the
#      consumer knows only by name, port and route;
#   3. generates throwaway projects outside the source tree, one per stack teams have (plain Maven, a Spring
#      Boot 3.5 parent, a Spring Boot 4.1 parent): a pom.xml with the one kit dependency plus Failsafe, and every
#      file copied byte for byte from between the docs' markers: the README's first test (consumer-sweep) and
#      guard (consumer-guard), docs/scenarios.md's fixed load (consumer-scenario), and docs/guards.md's seed
#      guards (seed-s1, -s3, -s4, -s5) and a team's own assertion class (consumer-assert);
#   4. runs `mvn verify` of the first test and the fixed load in each, and fails unless both ran and passed and
#      every copied file compiled.
# `consumer-check.sh guards` (.ci/nightly) runs the rest in the Boot 3.5 project: the README's guard against a copy
# of its image (a pull request: green) and with -Dbottleneck.against=none (a push to main: the A/B assertion
# skipped with its line), and each seed guard on a demo image built with its fix (green) and on one built with its
# regression (red, by the assertion on its mechanism).
# Removes the projects and the images afterwards, also on failure. Needs a Docker engine and JAVA_HOME (21+).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=${1:-gate}
say() { printf '[consumer] %s\n' "$*"; }
case "$mode" in
  gate | guards) ;;
  *) echo "usage: $0 [gate|guards]: gate runs the copied first test and fixed load, guards the guards" >&2; exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-consumer.XXXXXX")
image="bottleneck-kit/demo-service:consumer-$$"
demo="bottleneck-kit/demo-seed-$$"
cleanup() {
  { echo "$image"; echo "bottleneck-kit/demo-service:base-$$"; docker image ls -q "$demo" 2>/dev/null; } \
    | xargs -r docker image rm -f >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

say "installing the kit into the local repository"
./mvnw -B -ntp -q install -DskipTests
version=$(./mvnw -B -ntp -q help:evaluate -Dexpression=project.version -DforceStdout)

case "${BOTTLENECK_IMAGES:-official}" in
  offline) java_image=bottleneck-kit/temurin:21-jre ;;
  *) java_image=eclipse-temurin:21-jre ;;
esac
say "building $image (the lab's downstream on $java_image, as any team's service image)"
mkdir -p "$work/image"
cp target/lab-service/lab-service/target/lab-service.jar "$work/image/app.jar"
# A team's service as far as the guards know it: GET /orders/{id} holds its request thread 300 ms on one of 10
# Tomcat threads (the first test is not told: it finds them), and its meters are Prometheus text only
# (/actuator/prometheus; Actuator's JSON metrics endpoint is turned off, over HTTP and JMX), as on a service scraped
# by Prometheus.
{ cat containers/lab-service/Dockerfile
  echo 'ENV SPRING_PROFILES_ACTIVE=downstream LAB_DOWNSTREAM_LATENCY=300ms MANAGEMENT_ENDPOINT_METRICS_ACCESS=none' \
    'MANAGEMENT_PROMETHEUS_METRICS_EXPORT_ENABLED=true SERVER_TOMCAT_THREADS_MAX=10'
} \
  >"$work/image/Dockerfile"
docker build -q --build-arg "JAVA_IMAGE=$java_image" --build-arg CDS=false -t "$image" "$work/image" >/dev/null

# One project per stack teams have: no parent (plain Maven), Spring Boot 3.5's parent (JUnit 5 and
# Testcontainers 1.21 managed), Spring Boot 4.1's parent. CONSUMERS=plain limits the check to some of them.
generate() { # flavour dir
  local flavour=$1 project=$2 parent="" failsafe_version="<version>3.5.6</version>" managed=""
  case "$flavour" in
    boot-3.5) parent="<parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.5.9</version><relativePath/></parent>"
      failsafe_version=""
      # Boot 3.5 manages Testcontainers 1.21 and JUnit 5.12 where the kit is built on 2.0 and 6: the project
      # keeps its own, as a team's would.
      managed="" ;;
    boot-3.5-tc2) parent="<parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.5.9</version><relativePath/></parent>"
      failsafe_version=""
      # The probes and KitContainers (the seed guards' MySQL, Toxiproxy and network) need Testcontainers 2.0.
      managed="<testcontainers.version>2.0.5</testcontainers.version>" ;;
    boot-4.1) parent="<parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>4.1.1</version><relativePath/></parent>"
      failsafe_version="" ;;
  esac
  mkdir -p "$project/src/test/java/com/example/guards"
  for copied in "${!copies[@]}"; do
    # Testcontainers 1.21 (Boot 3.5's) has no KitContainers: the seed guards need 2.0 (boot-3.5-tc2).
    if [ "$flavour" = boot-3.5 ] && [[ $copied == seed-* ]]; then continue; fi
    copy "$copied" "$project/src/test/java/com/example/guards/${copies[$copied]}.java"
  done
  cat >"$project/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  $parent
  <groupId>com.example</groupId>
  <artifactId>orders-guards-$flavour</artifactId>
  <version>1.0.0</version>

  <properties>
    <maven.compiler.release>21</maven.compiler.release>
    <java.version>21</java.version>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    $managed
  </properties>

  <dependencies>
    <dependency>
      <groupId>dev.bottleneckkit</groupId>
      <artifactId>bottleneck-kit</artifactId>
      <version>$version</version>
      <scope>test</scope>
    </dependency>
  </dependencies>

  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-failsafe-plugin</artifactId>
        $failsafe_version
        <executions>
          <execution>
            <goals>
              <goal>integration-test</goal>
              <goal>verify</goal>
            </goals>
          </execution>
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
POM
}

# What a team copies, by marker, to the class it is.
declare -A copies=([consumer-sweep]=OrdersRouteCapIT [consumer-guard]=OrdersGuardIT [consumer-scenario]=TomcatThreadsCapIT
  [consumer-assert]=OrdersSweepAssert [seed-s1]=ClientPoolHoldsIT [seed-s3]=NoPinnedCarriersIT
  [seed-s4]=ConnectionPoolFitsIT [seed-s5]=DownstreamNotFloodedIT)
copy() {
  sed -n "/<!-- $1:start -->/,/<!-- $1:end -->/p" README.md docs/scenarios.md docs/guards.md | sed '1,2d;$d' | sed '$d' >"$2"
  [ -s "$2" ] || { say "error: no <!-- $1:start --> block in README.md or docs/"; exit 1; }
}

if [ "$mode" = guards ]; then
  # shellcheck source=.ci/consumer-guards.sh
  . .ci/consumer-guards.sh
  exit 0
fi

for flavour in ${CONSUMERS:-plain boot-3.5 boot-4.1}; do
  project="$work/$flavour"
  say "consumer project '$flavour' in $project"
  generate "$flavour" "$project"
  (cd "$project" && find . -type f | sort | while read -r f; do printf '[consumer]   %-60s %4d lines\n' "$f" "$(wc -l <"$f")"; done)
  say "dependency tree of '$flavour' (the kit and what it brings that the project manages)"
  "$root/mvnw" -B -ntp -f "$project/pom.xml" dependency:tree -Dverbose=false 2>/dev/null \
    | grep -E '^\[INFO\] (com\.example|[+\\]-|.*(testcontainers:jar|junit-jupiter-api|bottleneck-kit))' \
    | sed 's/^/[consumer]   /' || true
  say "mvn verify in '$flavour' (SERVICE_IMAGE=$image)"
  SERVICE_IMAGE="$image" "$root/mvnw" -B -ntp -f "$project/pom.xml" verify -Dit.test=TomcatThreadsCapIT,OrdersRouteCapIT \
    | tee "$work/verify-$flavour.log"
  for copied in TomcatThreadsCapIT OrdersRouteCapIT; do
    grep -q "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, .* in com.example.guards.$copied" "$work/verify-$flavour.log" \
      || { say "error: the copied $copied did not run and pass in '$flavour'"; exit 1; }
  done
  for copied in "$project"/src/test/java/com/example/guards/*.java; do
    copied=$(basename "$copied" .java)
    [ -f "$project/target/test-classes/com/example/guards/$copied.class" ] \
      || { say "error: the copied $copied did not compile in '$flavour'"; exit 1; }
  done
  # The console a team reads in its own mvn verify: the sweep's steps and its verdict, no SLF4J set-up needed.
  grep -qE '^\[bottleneck-kit\] sweep /orders/42: +16 users' "$work/verify-$flavour.log" \
    && grep -qE '^\[bottleneck-kit\] sweep /orders/42: capped at .* Tomcat threads' "$work/verify-$flavour.log" \
    || { say "error: the sweep's progress and verdict lines are not in '$flavour''s mvn verify output"; exit 1; }
  grep -qE '^\[bottleneck-kit\] sweep /orders/42: meters: read from /actuator/prometheus \(Prometheus text\)' \
    "$work/verify-$flavour.log" \
    || { say "error: the sweep did not read the service's meters from /actuator/prometheus in '$flavour'"; exit 1; }
  # One class at a time and no schedule asked for: the run kept no time table, and the report shows none.
  if [ -f "$project/target/bottleneck-report/budget.json" ] \
    || grep -q '^## Where the time went' "$project/target/bottleneck-report/summary.md"; then
    say "error: '$flavour''s report carries the suite's time budget, which it never asked for"; exit 1
  fi
  # The figure for .ci/run's summary: each project's verdict, the README's first example.
  [ -z "${CI_FIGURE:-}" ] || grep -m 1 -oE 'capped at [0-9.]+ rps .*' "$work/verify-$flavour.log" \
    | sed -E "s/^capped at ([0-9.]+ rps).* — (.*)$/$flavour \1 (\2)/" | tr '\n' ' ' >>"$CI_FIGURE"
  say "'$flavour': the console showed every step and the verdict:"
  grep -E '^\[bottleneck-kit\] sweep /orders/42' "$work/verify-$flavour.log" | sed 's/^/[consumer]   /'
  say "'$flavour': the copied scenarios ran and passed; their report (target/bottleneck-report/summary.md):"
  sed 's/^/[consumer]   /' "$project/target/bottleneck-report/summary.md"
done
