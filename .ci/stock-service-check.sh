#!/usr/bin/env bash
# Proof on services the kit did not build (stock starters, no kit code inside, no probe set up by hand):
#   containers/stock-service        Spring Boot 4.1: webmvc, restclient + httpclient5, jdbc + MySQL driver, actuator
#   containers/stock-service-vt     Spring Boot 3.5 at real speed: virtual threads, Connector/J 8.3 with millisecond
#                                   queries, a WebClient pool of 16 without meters, the JDK HttpClient (behind a
#                                   Resilience4j bulkhead, a rate limiter), a CPU route
#   containers/stock-service-jetty  Spring Boot 4.1 on Jetty, platform threads
#   containers/quarkus-service      Quarkus 3.33: REST, REST client, Agroal with MariaDB's driver, Micrometer's
#                                   Prometheus registry (the fulfilment service)
#   containers/catalog-service      Spring Boot 3.5: Thymeleaf pages over Spring Data JPA on virtual threads, pages
#                                   that cost the JIT much work before they run fast
#   containers/gateway-service      Spring Boot 4.1: WebFlux on Reactor Netty, one route calling a blocking client
# This script
#   1. builds their jars and images, as a team's pipeline would;
#   2. generates a consumer project outside the tree, as a team on Spring Boot 3.5 has it (Boot 3.5's parent, the one
#      kit dependency, Testcontainers set to 2.0.5), with the sweep tests of .ci/stock-service/ (MySQL, stand-in
#      downstreams, Toxiproxy);
#   3. runs `mvn verify` there and fails unless every sweep named its cap with its model: the HttpClient pool, Hikari (a
#      route that takes it twice a request by its uses × the hold of a use) and Tomcat's threads; pinned carriers, a
#      meterless connection pool, the downstream's threads and the machine's CPU; Jetty's worker pool; a Hikari pool
#      full because its uses wait for the service's one core, the CPU named as the root (twice the pool leaves the
#      ceiling at the cores' model, half a core lowers it as predicted); on Quarkus, Agroal, the worker pool, blocked
#      event loops and pinned carriers, each confirmed by its own setting; a Resilience4j bulkhead by its meters
#      (confirmed by its permits), a Resilience4j rate limiter by its waiters and its configured rate, WebFlux's event
#      loops held by a blocking call (each confirmed by its own setting); the catalog in two fresh JVMs and once more in the first, one cap and one ceiling
#      within 10 %, each sweep after a warm-up that waited for the JIT compilers to be quiet; prints each verdict and
#      how warm it was;
#   4. holds that run against a baseline run of the same service with a bigger Hikari pool (6 instead of 4) with the
#      kit's comparison (dev.bottleneckkit.baseline.Baseline): it must fail with the before / after lines, and the
#      run held against itself must pass;
#   5. runs the A/B guard (.ci/stock-service/guard/StockGuardIT.java, -Dbottleneck.against=main's image): the pull
#      request's image with the pool cut from 6 to 4, over three routes at one start of both images, must be red on
#      /stock alone, each route's line with its ratio, its interval and one block's spread; an image whose CPU-bound
#      /signature does 10 % more work a request must be red there at 2 % with the ceiling's interval; main's image against
#      itself green, "no change at this precision";
#   6. runs a few of the same tests against a remote engine, a Docker engine in a container of its own reached over TCP
#      (.ci/remote-engine.sh, as GitLab's docker:dind service): a test JVM killed mid-sweep whose containers the next
#      run removes, Hikari (confirmed), Tomcat's threads and HttpClient's pool named, the A/B guard red on /stock, and
#      nothing of the kit left on that engine; prints the figures beside the local run's
#      (target/stock-report/local-remote.md).
# Needs the kit in the local Maven repository (.ci/consumer-check.sh installs it), a Docker engine and JAVA_HOME.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { printf '[stock] %s\n' "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-stock.XXXXXX")
image="example/stock-service:ci-$$"
shop_image="example/shop-service:ci-$$"
reports_image="example/reports-service:ci-$$"
fulfilment_image="example/fulfilment-service:ci-$$"
catalog_image="example/catalog-service:ci-$$"
gateway_image="example/gateway-service:ci-$$"
cleanup() {
  docker image rm -f "$image" "$shop_image" "$reports_image" "$fulfilment_image" "$catalog_image" "$gateway_image" "example/stock-service:main-$$" \
    "example/stock-service:pr-$$" "example/stock-service:pr-signature-$$" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

version=$(./mvnw -B -ntp -q help:evaluate -Dexpression=project.version -DforceStdout)
case "${BOTTLENECK_IMAGES:-official}" in
  offline) java_image=bottleneck-kit/temurin:21-jre ;;
  *) java_image=eclipse-temurin:21-jre ;;
esac

build_image() { # directory image
  say "building $1 and its image $2 on $java_image"
  cp -r "$1" "$work/$(basename "$1")"
  "$root/mvnw" -B -ntp -q -f "$work/$(basename "$1")/pom.xml" package -DskipTests
  docker build -q --build-arg "JAVA_IMAGE=$java_image" -t "$2" -f "$work/$(basename "$1")/Dockerfile" \
    "$work/$(basename "$1")/target" >/dev/null
}

project="$work/guards"
mkdir -p "$project/src/test/java/com/example/guards"
cp .ci/stock-service/*IT.java "$project/src/test/java/com/example/guards/"
cat >"$project/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.5.9</version>
    <relativePath/>
  </parent>
  <groupId>com.example</groupId>
  <artifactId>stock-guards</artifactId>
  <version>1.0.0</version>
  <properties>
    <java.version>21</java.version>
    <!-- Spring Boot 3.5 manages Testcontainers 1.21; the kit's JVM probes and KitContainers need 2.0. -->
    <testcontainers.version>2.0.5</testcontainers.version>
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

# Every stock test, the guard's too, compiles against the kit before the images are built: they compile nowhere else.
say "compiling the stock tests against bottleneck-kit $version"
cp -r "$project" "$work/compile-check"
cp .ci/stock-service/guard/StockGuardIT.java "$work/compile-check/src/test/java/com/example/guards/"
"$root/mvnw" -B -ntp -q -f "$work/compile-check/pom.xml" test-compile >"$work/compile-check.log" 2>&1 \
  || { grep -E 'ERROR' "$work/compile-check.log" | head -n 20; say "error: the stock tests do not compile"; exit 1; }

build_image containers/stock-service "$image"
build_image containers/stock-service-vt "$shop_image"
build_image containers/stock-service-jetty "$reports_image"
build_image containers/quarkus-service "$fulfilment_image"
build_image containers/catalog-service "$catalog_image"
build_image containers/gateway-service "$gateway_image"

# The baseline first, as main's last run would have left it: the same service with a Hikari pool of 6.
say "baseline: the /stock sweep with a Hikari pool of 6 (STOCK_HIKARI_POOL=6)"
STOCK_IMAGE="$image" STOCK_HIKARI_POOL=6 "$root/mvnw" -B -ntp -q -f "$project/pom.xml" verify \
  -Dit.test='StockServiceCapsIT#theStockRouteIsCappedByHikari' >"$work/baseline.log" 2>&1 \
  || { tail -n 40 "$work/baseline.log"; say "error: the baseline run failed"; exit 1; }
cp "$project/target/bottleneck-report/results.json" "$work/baseline.json"

say "mvn verify in the consumer project (STOCK_IMAGE=$image SHOP_IMAGE=$shop_image REPORTS_IMAGE=$reports_image" \
  "FULFILMENT_IMAGE=$fulfilment_image CATALOG_IMAGE=$catalog_image GATEWAY_IMAGE=$gateway_image)"
STOCK_IMAGE="$image" SHOP_IMAGE="$shop_image" REPORTS_IMAGE="$reports_image" FULFILMENT_IMAGE="$fulfilment_image" \
  CATALOG_IMAGE="$catalog_image" GATEWAY_IMAGE="$gateway_image" "$root/mvnw" -B -ntp -f "$project/pom.xml" verify | tee "$work/verify.log" || {
  # The red run's report, its thread dumps and logs, kept: the work directory goes with this script.
  rm -rf "$root/target/stock-report/failed" && mkdir -p "$root/target/stock-report" \
    && cp -r "$project/target/bottleneck-report" "$root/target/stock-report/failed" || true
  say "error: mvn verify failed in the consumer project; its report: target/stock-report/failed/index.html"
  exit 1
}
for guards in 'Tests run: 9, .* StockServiceCapsIT' 'Tests run: 10, .* ShopServiceCapsIT' 'Tests run: 1, .* ReportsServiceCapsIT' \
    'Tests run: 2, .* LedgerRootIT' 'Tests run: 4, .* FulfilmentServiceCapsIT' 'Tests run: 1, .* CatalogWarmthIT' \
    'Tests run: 2, .* GatewayServiceCapsIT'; do
  grep -qE "${guards/, .*/, Failures: 0, Errors: 0, Skipped: 0, .* in com.example.guards.}${guards##* }" "$work/verify.log" \
    || { say "error: not every sweep of ${guards##* } passed"; exit 1; }
done
# The console a team reads: each sweep's steps and verdict in mvn verify's own output, no SLF4J set-up.
grep -qE '^\[bottleneck-kit\] stock /price: +8 users' "$work/verify.log" && grep -qE '^\[bottleneck-kit\] shop /order: capped at' "$work/verify.log" \
  || { say "error: the sweeps' progress and verdict lines are not in mvn verify's output"; exit 1; }
python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema
python3 .ci/results-schema-check.py "$project/target/bottleneck-report/results.json" | sed 's/^/[stock] /'
# Kept beside the suite's own report, for bench/figures.py (docs/figures.md).
mkdir -p "$root/target/stock-report" && cp "$project/target/bottleneck-report/results.json" "$root/target/stock-report/"
say "how warm each catalog sweep was:"
grep -E '^\[bottleneck-kit\] catalog, .*: (warmed up|warm:|capped at)' "$work/verify.log" | sed 's/^/[stock]   /'
say "every sweep named its cap (target/bottleneck-report/summary.md):"
sed 's/^/[stock]   /' "$project/target/bottleneck-report/summary.md"

# The pull-request guard on real figures: the change (pool 4) against the baseline (pool 6) must fail with the
# before / after lines; the change against itself must pass.
kit_jar="$HOME/.m2/repository/dev/bottleneckkit/bottleneck-kit/$version/bottleneck-kit-$version.jar"
head_json="$project/target/bottleneck-report/results.json"
say "the change against the baseline (java -cp bottleneck-kit.jar dev.bottleneckkit.baseline.BaselineCommand BASE HEAD)"
set +e
java -cp "$kit_jar" dev.bottleneckkit.baseline.BaselineCommand "$work/baseline.json" "$head_json" >"$work/compare.md"
regressed=$?
java -cp "$kit_jar" dev.bottleneckkit.baseline.BaselineCommand "$head_json" "$head_json" >"$work/self.md"
itself=$?
set -e
sed 's/^/[stock]   /' "$work/compare.md"
[ "$regressed" -eq 1 ] && grep -q 'stock /stock | ceiling | .* | \*\*regressed\*\*' "$work/compare.md" \
  || { say "error: a Hikari pool cut from 6 to 4 was not reported as a regression (exit $regressed)"; exit 1; }
[ "$itself" -eq 0 ] || { cat "$work/self.md"; say "error: the change against itself reported a regression"; exit 1; }
say "the change against itself: $(head -n 3 "$work/self.md" | tail -n 1)"

# The A/B guard in one job: main's image and the pull request's, measured side by side by the same guard, which names
# neither (-Dbottleneck.against names the base). Main's image sets a Hikari pool of 6; the pull request's image cuts
# it to 4 and must be red with the ratio, its interval and its verdict in the console; the same image against itself
# must be green, "no change at this precision".
main_image="example/stock-service:main-$$"
pr_image="example/stock-service:pr-$$"
for pool in 6 4; do
  tag=$([ "$pool" = 6 ] && echo "$main_image" || echo "$pr_image")
  printf 'FROM %s\nENV SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=%s\n' "$image" "$pool" | docker build -q -t "$tag" - >/dev/null
done
# A CPU-bound route's regression: the price list's signature 10 % costlier (220 rounds of SHA-256 against 200).
signature_image="example/stock-service:pr-signature-$$"
printf 'FROM %s\nENV STOCK_SIGNATURE_ROUNDS=220\n' "$main_image" | docker build -q -t "$signature_image" - >/dev/null
cp .ci/stock-service/guard/StockGuardIT.java "$project/src/test/java/com/example/guards/"
ab() { # test-method head-image log
  local started=$SECONDS
  STOCK_IMAGE="$2" "$root/mvnw" -B -ntp -f "$project/pom.xml" verify -Dit.test="StockGuardIT#$1" \
    -Dbottleneck.against="$main_image" >"$3" 2>&1
  local status=$?
  say "A/B guard ($1) with $2 against $main_image: exit $status in $((SECONDS - started)) s"
  grep -E '^\[bottleneck-kit\] guard[ :]' "$3" | grep -vE ': A/B block |: A/B +[0-9]+ users?|: +[0-9]+ users? ' \
    | sed 's/^/[stock]   /'
  return $status
}
set +e
# Three routes at one start of both images: /stock takes the pool and must be red; /label and /report do not and
# must read no change, each with its ratio, its interval and what one block could resolve.
ab theServicesRoutesHaveNotRegressedAgainstMain "$pr_image" "$work/ab-regressed.log"
cut=$?
# The red run's report, kept for a person to look at (target/stock-report/ab/index.html).
rm -rf "$root/target/stock-report/ab" && cp -r "$project/target/bottleneck-report" "$root/target/stock-report/ab" || true
# A CPU-bound route, where both images share the cores and each has its own JIT: 10 % more work a request must be red
# at the test's bound of 2 %, with a throughput figure's interval, the ceiling's or the knee's (the assertion's lines
# are read at its own bound). Either may be the one a noisy run resolves: beside a neighbour holding a core, the
# ceiling's step has the fewer cores to share and its blocks spread the wider.
ab theSignatureRouteHasNotRegressedAgainstMain "$signature_image" "$work/ab-signature.log"
signature=$?
ab theStockRouteHasNotRegressedAgainstMain "$main_image" "$work/ab-same.log"
same=$?
set -e
[ "$cut" -ne 0 ] && grep -q 'ceiling: .* B/A 0\.[0-9]* (.*, 95 %), a block ±[0-9.]* %: regressed' "$work/ab-regressed.log" \
  && grep -q 'regressed against example/stock-service:main-.* beyond 5 %' "$work/ab-regressed.log" \
  && grep -qE '^\[bottleneck-kit\] guard: guard /stock +0\.[0-9]+ \(.*\) +±[0-9.]+ % +regressed$' "$work/ab-regressed.log" \
  && grep -qE '^\[bottleneck-kit\] guard: guard /label +[01]\.[0-9]+ \(.*\) +±[0-9.]+ % +no change at this precision' "$work/ab-regressed.log" \
  && grep -qE '^\[bottleneck-kit\] guard: guard /report +[01]\.[0-9]+ \(.*\) +±[0-9.]+ % +no change at this precision' "$work/ab-regressed.log" \
  || { tail -n 60 "$work/ab-regressed.log"; say "error: a Hikari pool cut from 6 to 4 in the head image was not red on /stock alone"; exit 1; }
[ "$signature" -ne 0 ] && grep -q 'regressed against example/stock-service:main-.* beyond 2 %' "$work/ab-signature.log" \
  && grep -qE '(ceiling|throughput at the knee): .* B/A 0\.[0-9]+ \(.*, 95 %\), a block ±[0-9.]+ %: regressed' "$work/ab-signature.log" \
  || { tail -n 60 "$work/ab-signature.log"; say "error: 10 % more work a request on /signature was not red with its interval"; exit 1; }
[ "$same" -eq 0 ] && grep -q 'the same image' "$work/ab-same.log" && grep -q 'no change at this precision' "$work/ab-same.log" \
  || { tail -n 60 "$work/ab-same.log"; say "error: main's image against itself was not green with no change"; exit 1; }

# 6. The same on a remote engine: a Docker engine in a container of its own, reached over TCP only, as GitLab's
# docker:dind service is (.ci/remote-engine.sh). The consumer project is the same; only DOCKER_HOST differs, and the
# published ports are on the engine's address, not this host's loopback. First a test JVM killed mid-sweep, whose
# containers the next run on that engine removes; then three sweeps naming Hikari (confirmed by its setting), Tomcat's
# threads and HttpClient's pool, and the A/B guard red on /stock; then nothing of the kit may be left on the engine.
# The figures go side by side with the local run's.
say "remote engine: starting a Docker engine in a container and loading the images into it"
started=$SECONDS
trap 'bash "$root/.ci/remote-engine.sh" stop; cleanup' EXIT
remote_host=$(bash .ci/remote-engine.sh start "$image" "$main_image" "$pr_image")
remote="$work/remote"
cp -r "$project" "$remote" && rm -rf "$remote/target"
on_remote() { # log maven-arguments...: the consumer project's verify against the remote engine
  local log=$1; shift
  env -u TESTCONTAINERS_HOST_OVERRIDE DOCKER_HOST="$remote_host" "$root/mvnw" -B -ntp -f "$remote/pom.xml" verify "$@" >"$log" 2>&1
}
remote_kit() { docker -H "$remote_host" "$@" --filter label=dev.bottleneckkit -q | wc -l; }
set -m
STOCK_IMAGE="$image" on_remote "$work/remote-killed.log" -Dit.test='StockServiceCapsIT#theReportRouteIsCappedByTomcatsThreads' &
killed=$!
for _ in $(seq 1 240); do grep -q 'sweeping http' "$work/remote-killed.log" 2>/dev/null && break; sleep 0.5; done
left=$(remote_kit ps)
{ kill -9 -- "-$killed"; wait "$killed"; } 2>/dev/null || true
set +m
say "remote engine: kill -9 of a test JVM mid-sweep left $left kit containers running there"
set +e
STOCK_IMAGE="$image" on_remote "$work/remote.log" \
  -Dit.test='StockServiceCapsIT#theStockRouteIsCappedByHikari+theReportRouteIsCappedByTomcatsThreads+thePriceRouteIsCappedByHttpClientsDefaultPool'
sweeps=$?
cp "$remote/target/bottleneck-report/results.json" "$work/remote-sweeps.json" 2>/dev/null
STOCK_IMAGE="$pr_image" on_remote "$work/remote-ab.log" -Dit.test='StockGuardIT#theStockRouteHasNotRegressedAgainstMain' \
  -Dbottleneck.against="$main_image"
guard=$?
set -e
remaining="$(remote_kit ps -a) containers, $(remote_kit network ls) networks"
grep -hE 'left behind on .* by earlier runs' "$work/remote.log" | sed 's/^/[stock]   /' || true
grep -E '^\[bottleneck-kit\] stock /[a-z]+: (sweeping|capped at|confirmed)' "$work/remote.log" | sed 's/^/[stock]   /'
grep -E '^\[bottleneck-kit\] guard[ :].*(ceiling: |regressed against)' "$work/remote-ab.log" | sed 's/^/[stock]   /'
say "remote engine: sweeps exit $sweeps, guard exit $guard, left on the engine: $remaining ($((SECONDS - started)) s in all)"
[ "$sweeps" -eq 0 ] && grep -q 'in com.example.guards.StockServiceCapsIT' "$work/remote.log" \
  && grep -qE '^\[bottleneck-kit\] stock /stock: sweeping http://[0-9.]+:[0-9]+/stock' "$work/remote.log" \
  || { tail -n 60 "$work/remote.log"; say "error: the sweeps on the remote engine failed"; exit 1; }
[ "$guard" -ne 0 ] && grep -q 'ceiling: .* B/A 0\.[0-9]* (.*, 95 %), a block ±[0-9.]* %: regressed' "$work/remote-ab.log" \
  || { tail -n 60 "$work/remote-ab.log"; say "error: the A/B guard on the remote engine was not red on /stock"; exit 1; }
[ "$left" -gt 0 ] && grep -qE 'removed [1-9][0-9]* containers?, .* left behind on tcp://' "$work/remote.log" \
  || { say "error: what the killed test JVM left on the remote engine ($left containers) was not removed by the next run"; exit 1; }
[ "$remaining" = "0 containers, 0 networks" ] \
  || { docker -H "$remote_host" ps -a >&2; say "error: the kit left $remaining on the remote engine"; exit 1; }
say "the same sweeps and guard on the local engine and on the remote one:"
python3 .ci/local-remote-table.py "$root/target/stock-report/results.json" "$work/remote-sweeps.json" \
  "$root/target/stock-report/ab/results.json" "$remote/target/bottleneck-report/results.json" | tee "$root/target/stock-report/local-remote.md" \
  | sed 's/^/[stock]   /'
