#!/usr/bin/env bash
# Proof on services the kit did not build (stock starters, no kit code inside, no probe set up by hand):
#   containers/stock-service        Spring Boot 4.1: webmvc, restclient + httpclient5, jdbc + MySQL driver, actuator
#   containers/stock-service-vt     Spring Boot 3.5 at real speed: virtual threads, Connector/J 8.0.33 with
#                                   millisecond queries (also 15 ms away behind Toxiproxy), a WebClient pool of 16
#                                   without meters, the JDK HttpClient (behind a Resilience4j bulkhead, a rate limiter),
#                                   a CPU route
#   containers/stock-service-jetty  Spring Boot 4.1 on Jetty, platform threads
#   containers/quarkus-service      Quarkus 3.33: REST, REST client, Agroal with MariaDB's driver, Micrometer's
#                                   Prometheus registry, SmallRye Fault Tolerance (the fulfilment service)
#   containers/catalog-service      Spring Boot 3.5: Thymeleaf pages over Spring Data JPA on virtual threads, pages
#                                   that cost the JIT much work before they run fast
#   containers/gateway-service      Spring Boot 4.1: WebFlux on Reactor Netty, one route calling a blocking client
# The tests of .ci/stock-service/ run from a consumer project generated outside the tree, as a team on Spring Boot 3.5
# has it (Boot 3.5's parent, the one kit dependency, Testcontainers set to 2.0.5), against images built as a team's
# pipeline builds them. Two parts:
#
#   stock-service-check.sh gate     what a pull request to the kit can break and unit tests cannot show (.ci/run):
#     - every stock test, the guard's too, compiles against the kit (they compile nowhere else);
#     - one sweep per server family names its cap with its model and is confirmed by its own setting: Tomcat's
#       threads, Jetty's worker pool, Quarkus' worker pool, WebFlux's event loops (the server's own pool is what the
#       probes, the thread dumps and the meters of each family must still read);
#     - the project's own kind (kinds/RenderersKind.java, registered in META-INF/services) names /label's renderers
#       where its requests wait, with no declaration in the test, and is confirmed by the setting it names;
#     - the A/B guard on three routes at one start of both images (main's Hikari pool of 6, the pull request's 4):
#       red on /stock alone, each route's line with its ratio, interval, blocks and time; main's image against itself
#       green, "no change beyond 2 %" (the guard's two-image start, its sequential blocks and its interval end to end,
#       at the default bound);
#   stock-service-check.sh nightly  the rest of the proof (.ci/nightly):
#     - every other sweep and confirmation of the six services: HttpClient's pool, Hikari (confirmed, the smallest
#       pool for a target, at the hold of a use, twice a request), a team's own pool, renderers and executor, pinned
#       carriers (also with the database a network away), a meterless connection pool, the downstream, bulkheads and
#       rate limiters (one that refuses), the common pool, a dispatcher of the team's own, the CPU,
#       a pool full because its uses wait for the core (the CPU named the root), Agroal, blocked event loops, the
#       reactive route; the catalog in two fresh JVMs and once more in the first (one cap, one ceiling);
#     - that run held against a baseline with a bigger Hikari pool (6 instead of 4) by the kit's comparison
#       (dev.bottleneckkit.baseline.BaselineCommand): it must fail with the before / after lines, itself must pass;
#     - the A/B guard on the CPU-bound /signature: an image doing 10 % more work a request red at 2 %;
#     - a few of the same on a remote engine, a Docker engine in a container reached over TCP (.ci/remote-engine.sh,
#       as GitLab's docker:dind): a test JVM killed mid-sweep whose containers the next run removes, Hikari, Tomcat's
#       threads and HttpClient's pool named, the guard red on /stock, nothing of the kit left there; the figures beside
#       the local run's (target/stock-report/local-remote.md).
# Each check adds a row to $CI_ROWS (check, verdict, figure, seconds; .ci/summary.py prints them) and the script goes
# on to the next; it exits 1 if any failed. Needs the kit in the local Maven repository (.ci/consumer-check.sh installs
# it), a Docker engine and JAVA_HOME.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=${1:-}
case "$mode" in
  gate | nightly) ;;
  *) echo "usage: stock-service-check.sh gate|nightly" >&2; exit 2 ;;
esac
say() { printf '[stock] %s\n' "$*"; }
rows=${CI_ROWS:-/dev/null}
failed=0
# row CHECK STATUS FIGURE STARTED: one row of the summary; a status other than 0 fails the script at its end.
row() {
  local verdict=pass
  [ "$2" -eq 0 ] || { verdict=FAIL; failed=1; }
  printf '%s\t%s\t%s\t%s\n' "stock: $1" "$verdict" "$3" "$((SECONDS - $4))" >>"$rows"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-stock.XXXXXX")
tag="ci-$$"
image="example/stock-service:$tag"
shop_image="example/shop-service:$tag"
reports_image="example/reports-service:$tag"
fulfilment_image="example/fulfilment-service:$tag"
catalog_image="example/catalog-service:$tag"
gateway_image="example/gateway-service:$tag"
main_image="example/stock-service:main-$$"
pr_image="example/stock-service:pr-$$"
signature_image="example/stock-service:pr-signature-$$"
cleanup() {
  docker image rm -f "$image" "$shop_image" "$reports_image" "$fulfilment_image" "$catalog_image" "$gateway_image" \
    "$main_image" "$pr_image" "$signature_image" >/dev/null 2>&1 || true
  # Each mvn verify's whole console, kept beside the reports: a red check's steps are read there afterwards.
  mkdir -p "$root/target/stock-report/console" && cp "$work"/*.log "$root/target/stock-report/console/" 2>/dev/null || true
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
cp .ci/stock-service/*IT.java .ci/stock-service/kinds/*.java "$project/src/test/java/com/example/guards/"
# The team's own kind, registered once for every sweep of the project (java.util.ServiceLoader).
mkdir -p "$project/src/test/resources" && cp -r .ci/stock-service/kinds/META-INF "$project/src/test/resources/"
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
python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema

# sweeps CHECK IT-TEST LOG [ENV=VALUE...]: the consumer project's mvn verify of IT-TEST (Failsafe's it.test), a row a
# test (its time, its sweeps' figures) and the run's report kept under target/stock-report/CHECK.
sweeps() {
  local check=$1 tests=$2 log=$3 started=$SECONDS status=0
  shift 3
  rm -rf "$project/target/failsafe-reports" "$project/target/bottleneck-report"
  # The whole output to the log; each class, each sweep's start and verdict to the console as they come.
  env "$@" "$root/mvnw" -B -ntp -f "$project/pom.xml" verify -Dit.test="$tests" 2>&1 | tee "$log" \
    | grep --line-buffered -E '^\[INFO\] (Running|Tests run:.* in) com|^\[bottleneck-kit\] [a-z]+ /[a-z-]+(, [^:]+)?: (sweeping|capped at|confirmed|not confirmed|no cap|requests waited|no request waited|the headline|other processes)' \
    | sed -u 's/^/[stock]   /'
  status=${PIPESTATUS[0]}  # sweeps runs in an `||` list: errexit is off here, and a red run is read from Maven's status
  local tested
  tested=$(python3 .ci/summary.py tests "stock: " "$project/target/failsafe-reports" \
    "$project/target/bottleneck-report/results.json")
  if [ -n "$tested" ]; then printf '%s\n' "$tested" >>"$rows"; else row "$check: no test ran" 1 "" "$started"; fi
  if [ "$status" -ne 0 ] || [ -z "$tested" ] || cut -f 2 <<<"$tested" | grep -qx FAIL; then
    rm -rf "$root/target/stock-report/$check-failed" && mkdir -p "$root/target/stock-report" \
      && cp -r "$project/target/bottleneck-report" "$root/target/stock-report/$check-failed" || true
    tail -n 60 "$log"
    say "error: $check failed (exit $status); its report: target/stock-report/$check-failed/index.html"
    failed=1
    return 1
  fi
  python3 .ci/results-schema-check.py "$project/target/bottleneck-report/results.json" | sed 's/^/[stock] /'
  rm -rf "$root/target/stock-report/$check" && mkdir -p "$root/target/stock-report" \
    && cp -r "$project/target/bottleneck-report" "$root/target/stock-report/$check"
  say "$check: every sweep named its cap ($((SECONDS - started)) s; target/stock-report/$check/summary.md)"
}

# ab CHECK TEST-METHOD HEAD-IMAGE LOG: the A/B guard StockGuardIT#TEST-METHOD with HEAD-IMAGE against main's image.
ab() {
  local started=$SECONDS status=0
  STOCK_IMAGE="$3" "$root/mvnw" -B -ntp -f "$project/pom.xml" verify -Dit.test="StockGuardIT#$2" \
    -Dbottleneck.against="$main_image" >"$4" 2>&1 || status=$?
  say "A/B guard ($2) with $3 against $main_image: exit $status in $((SECONDS - started)) s"
  grep -E '^\[bottleneck-kit\] guard[ :]' "$4" | grep -vE ': A/B block |: A/B +[0-9]+ users?|: +[0-9]+ users? ' \
    | sed 's/^/[stock]   /'
  rm -rf "$root/target/stock-report/$1" && mkdir -p "$root/target/stock-report" \
    && cp -r "$project/target/bottleneck-report" "$root/target/stock-report/$1" || true
  return $status
}

# guard_figure LOG ROUTE: a guard line's ratio, interval and verdict, with its blocks and time, for the summary.
guard_figure() {
  local figure
  figure=$(grep -E "^\[bottleneck-kit\] guard(: guard)? $2[ :]" "$1" \
    | grep -oE '(B/A )?[01]\.[0-9]+ \([01]\.[0-9]+.[01]\.[0-9]+[^)]*\).*' | head -n 1 | tr -s ' ' || true)
  printf '%s%s\n' "$figure" "$(guard_took "$1" "$2")"
}

# guard_took LOG ROUTE: " (4 blocks in 79 s)", from the route's "A/B took" line.
guard_took() {
  grep -E "^\[bottleneck-kit\] guard $2: A/B took" "$1" | head -n 1 \
    | sed -E 's/.*A\/B took ([0-9]+) s: .*, ([0-9]+) blocks [0-9]+ s$/ (\2 blocks in \1 s)/' || true
}

# Two images of main and the pull request: main's sets a Hikari pool of 6, the pull request's cuts it to 4.
guard_images() {
  for pool in 6 4; do
    local tag
    tag=$([ "$pool" = 6 ] && echo "$main_image" || echo "$pr_image")
    printf 'FROM %s\nENV SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=%s\n' "$image" "$pool" | docker build -q -t "$tag" - >/dev/null
  done
  cp .ci/stock-service/guard/StockGuardIT.java "$project/src/test/java/com/example/guards/"
}

gate() {
  local started=$SECONDS status=0
  say "compiling every stock test, the guard's too, against bottleneck-kit $version"
  cp -r "$project" "$work/compile-check"
  cp .ci/stock-service/guard/StockGuardIT.java "$work/compile-check/src/test/java/com/example/guards/"
  "$root/mvnw" -B -ntp -q -f "$work/compile-check/pom.xml" test-compile >"$work/compile-check.log" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { grep -E 'ERROR' "$work/compile-check.log" | head -n 20; say "error: the stock tests do not compile"; }
  row "every stock test compiles" "$status" "$(ls .ci/stock-service/*IT.java .ci/stock-service/guard/*IT.java | wc -l) classes" "$started"
  [ "$status" -eq 0 ] || return 1

  started=$SECONDS
  build_image containers/stock-service "$image"
  build_image containers/stock-service-jetty "$reports_image"
  build_image containers/quarkus-service "$fulfilment_image"
  build_image containers/gateway-service "$gateway_image"
  row "images of the Tomcat, Jetty, Quarkus and WebFlux services" 0 "" "$started"

  # One sweep a server family, each naming the server's own pool with its model, three confirmed by its setting.
  sweeps families 'StockServiceCapsIT#theReportRouteIsCappedByTomcatsThreads+theLabelRouteIsNamedByTheTeamsOwnKind,ReportsServiceCapsIT,FulfilmentServiceCapsIT#theRateRouteIsCappedByTheWorkerPool,GatewayServiceCapsIT#theBlockingRouteIsCappedByTheEventLoops' \
    "$work/families.log" STOCK_IMAGE="$image" REPORTS_IMAGE="$reports_image" FULFILMENT_IMAGE="$fulfilment_image" \
    GATEWAY_IMAGE="$gateway_image" || true
  # The console a team reads: each sweep's steps and verdict in mvn verify's own output, no SLF4J set-up.
  grep -qE '^\[bottleneck-kit\] stock /report: +8 users' "$work/families.log" \
    && grep -qE '^\[bottleneck-kit\] reports /report: capped at' "$work/families.log" \
    || { say "error: the sweeps' progress and verdict lines are not in mvn verify's output"; failed=1; }

  # The A/B guard in one job: main's image and the pull request's, measured side by side by the same guard, which
  # names neither (-Dbottleneck.against names the base).
  guard_images
  started=$SECONDS status=0
  ab ab-three-routes theServicesRoutesHaveNotRegressedAgainstMain "$pr_image" "$work/ab-regressed.log" && status=1 || true
  grep -q 'ceiling: .* B/A 0\.[0-9]* (.*, 95 %), a block ±[0-9.]* %: regressed' "$work/ab-regressed.log" \
    && grep -q 'regressed against example/stock-service:main-.* beyond 2 %' "$work/ab-regressed.log" \
    && grep -qE '^\[bottleneck-kit\] guard: guard /stock +0\.[0-9]+ \(.*\) +±[0-9.]+ % +[0-9]+ +[0-9]+ s +regressed$' "$work/ab-regressed.log" \
    && grep -qE '^\[bottleneck-kit\] guard: guard /label +[01]\.[0-9]+ \(.*\) +±[0-9.]+ % +[0-9]+ +[0-9]+ s +no change beyond 2 %' "$work/ab-regressed.log" \
    && grep -qE '^\[bottleneck-kit\] guard: guard /report +[01]\.[0-9]+ \(.*\) +±[0-9.]+ % +[0-9]+ +[0-9]+ s +no change beyond 2 %' "$work/ab-regressed.log" \
    || { tail -n 60 "$work/ab-regressed.log"; say "error: a Hikari pool cut from 6 to 4 in the head image was not red on /stock alone"; status=1; }
  row "A/B guard, Hikari 6 → 4 over /stock, /label, /report: red on /stock alone" "$status" \
    "/stock $(guard_figure "$work/ab-regressed.log" /stock); /label $(guard_figure "$work/ab-regressed.log" /label)" "$started"

  started=$SECONDS status=0
  ab ab-same theStockRouteHasNotRegressedAgainstMain "$main_image" "$work/ab-same.log" || status=$?
  grep -q 'the same image' "$work/ab-same.log" && grep -q 'no change beyond 2 %' "$work/ab-same.log" \
    || { tail -n 60 "$work/ab-same.log"; say "error: main's image against itself was not green with no change"; status=1; }
  row "A/A guard, main's image against itself: green" "$status" \
    "$(grep -oE 'ceiling: .* B/A [^:]*' "$work/ab-same.log" | head -n 1)$(guard_took "$work/ab-same.log" /stock)" "$started"
}

nightly() {
  local started=$SECONDS status=0
  build_image containers/stock-service "$image"
  build_image containers/stock-service-vt "$shop_image"
  build_image containers/stock-service-jetty "$reports_image"
  build_image containers/quarkus-service "$fulfilment_image"
  build_image containers/catalog-service "$catalog_image"
  build_image containers/gateway-service "$gateway_image"
  row "images of the six services" 0 "" "$started"

  # The baseline first, as main's last run would have left it: the same service with a Hikari pool of 6.
  started=$SECONDS status=0
  say "baseline: the /stock sweep with a Hikari pool of 6 (STOCK_HIKARI_POOL=6)"
  STOCK_IMAGE="$image" STOCK_HIKARI_POOL=6 "$root/mvnw" -B -ntp -q -f "$project/pom.xml" verify \
    -Dit.test='StockServiceCapsIT#theStockRouteIsCappedByHikari' >"$work/baseline.log" 2>&1 || status=$?
  [ "$status" -eq 0 ] && cp "$project/target/bottleneck-report/results.json" "$work/baseline.json" \
    || { tail -n 40 "$work/baseline.log"; say "error: the baseline run failed"; }
  row "baseline: /stock with Hikari 6" "$status" "$(python3 .ci/summary.py tests '' "$project/target/failsafe-reports" \
    "$project/target/bottleneck-report/results.json" | cut -f 3)" "$started"

  # Every sweep the gate does not run: its four (Tomcat, Jetty, Quarkus' workers, WebFlux's loops) are left out.
  say "mvn verify in the consumer project: every other sweep of the six services"
  sweeps sweeps '*IT,!StockServiceCapsIT#theReportRouteIsCappedByTomcatsThreads,!ReportsServiceCapsIT,!FulfilmentServiceCapsIT#theRateRouteIsCappedByTheWorkerPool,!GatewayServiceCapsIT#theBlockingRouteIsCappedByTheEventLoops' \
    "$work/verify.log" STOCK_IMAGE="$image" SHOP_IMAGE="$shop_image" FULFILMENT_IMAGE="$fulfilment_image" \
    CATALOG_IMAGE="$catalog_image" GATEWAY_IMAGE="$gateway_image" || true
  grep -qE '^\[bottleneck-kit\] stock /price: +8 users' "$work/verify.log" && grep -qE '^\[bottleneck-kit\] shop /order: capped at' "$work/verify.log" \
    || { say "error: the sweeps' progress and verdict lines are not in mvn verify's output"; failed=1; }
  # Kept beside the suite's own report, for bench/figures.py (docs/figures.md).
  cp "$root/target/stock-report/sweeps/results.json" "$root/target/stock-report/results.json" 2>/dev/null || true
  say "how warm each catalog sweep was:"
  grep -E '^\[bottleneck-kit\] catalog, .*: (warmed up|warm:|capped at)' "$work/verify.log" | sed 's/^/[stock]   /' || true

  # The pull-request guard on real figures: the change (pool 4) against the baseline (pool 6) must fail with the
  # before / after lines; the change against itself must pass.
  started=$SECONDS status=0
  local kit_jar="$HOME/.m2/repository/dev/bottleneckkit/bottleneck-kit/$version/bottleneck-kit-$version.jar"
  local head_json="$root/target/stock-report/results.json" regressed=0 itself=0
  say "the change against the baseline (java -cp bottleneck-kit.jar dev.bottleneckkit.baseline.BaselineCommand BASE HEAD)"
  java -cp "$kit_jar" dev.bottleneckkit.baseline.BaselineCommand "$work/baseline.json" "$head_json" >"$work/compare.md" || regressed=$?
  java -cp "$kit_jar" dev.bottleneckkit.baseline.BaselineCommand "$head_json" "$head_json" >"$work/self.md" || itself=$?
  sed 's/^/[stock]   /' "$work/compare.md"
  [ "$regressed" -eq 1 ] && grep -q 'stock /stock | ceiling | .* | \*\*regressed\*\*' "$work/compare.md" \
    || { say "error: a Hikari pool cut from 6 to 4 was not reported as a regression (exit $regressed)"; status=1; }
  [ "$itself" -eq 0 ] || { cat "$work/self.md"; say "error: the change against itself reported a regression"; status=1; }
  row "baseline comparison: Hikari 6 → 4 regressed, itself not" "$status" \
    "$(grep -m 1 'stock /stock | ceiling' "$work/compare.md" | awk -F' *[|] *' '{print $3, $4 ": " $5 " → " $6 " (" $7 ")"}')" \
    "$started"

  # A CPU-bound route's regression: the price list's signature 10 % costlier (220 rounds of SHA-256 against 200), red
  # at the test's bound of 2 %, with the ceiling's or the knee's interval (the assertion's lines are read at its own
  # bound). Either may be the one a noisy run resolves.
  guard_images
  printf 'FROM %s\nENV STOCK_SIGNATURE_ROUNDS=220\n' "$main_image" | docker build -q -t "$signature_image" - >/dev/null
  started=$SECONDS status=0
  ab ab-signature theSignatureRouteHasNotRegressedAgainstMain "$signature_image" "$work/ab-signature.log" && status=1 || true
  grep -q 'regressed against example/stock-service:main-.* beyond 2 %' "$work/ab-signature.log" \
    && grep -qE '(ceiling|throughput at the knee): .* B/A 0\.[0-9]+ \(.*, 95 %\), a block ±[0-9.]+ %: regressed' "$work/ab-signature.log" \
    || { tail -n 60 "$work/ab-signature.log"; say "error: 10 % more work a request on /signature was not red with its interval"; status=1; }
  row "A/B guard, /signature 10 % more work: red at 2 %" "$status" \
    "$(grep -oE '(ceiling|throughput at the knee): .* B/A [^:]*' "$work/ab-signature.log" | head -n 1)$(guard_took "$work/ab-signature.log" /signature)" \
    "$started"

  remote
}

# The same on a remote engine: a Docker engine in a container of its own, reached over TCP only, as GitLab's docker:dind
# service is (.ci/remote-engine.sh). The consumer project is the same; only DOCKER_HOST differs, and the published
# ports are on the engine's address, not this host's loopback. First a test JVM killed mid-sweep, whose containers the
# next run on that engine removes; then three sweeps naming Hikari (confirmed by its setting), Tomcat's threads and
# HttpClient's pool, and the A/B guard red on /stock; then nothing of the kit may be left on the engine. The figures go
# side by side with the local run's.
remote() {
  local started=$SECONDS status=0 sweeps=0 guard=0
  say "remote engine: starting a Docker engine in a container and loading the images into it"
  trap 'bash "$root/.ci/remote-engine.sh" stop; cleanup' EXIT
  local remote_host remote="$work/remote"
  remote_host=$(bash .ci/remote-engine.sh start "$image" "$main_image" "$pr_image")
  cp -r "$project" "$remote" && rm -rf "$remote/target"
  on_remote() { # log maven-arguments...: the consumer project's verify against the remote engine
    local log=$1; shift
    env -u TESTCONTAINERS_HOST_OVERRIDE DOCKER_HOST="$remote_host" "$root/mvnw" -B -ntp -f "$remote/pom.xml" verify "$@" >"$log" 2>&1
  }
  remote_kit() { docker -H "$remote_host" "$@" --filter label=dev.bottleneckkit -q | wc -l; }
  set -m
  STOCK_IMAGE="$image" on_remote "$work/remote-killed.log" -Dit.test='StockServiceCapsIT#theReportRouteIsCappedByTomcatsThreads' &
  local killed=$!
  for _ in $(seq 1 240); do grep -q 'sweeping http' "$work/remote-killed.log" 2>/dev/null && break; sleep 0.5; done
  local left
  left=$(remote_kit ps)
  { kill -9 -- "-$killed"; wait "$killed"; } 2>/dev/null || true
  set +m
  say "remote engine: kill -9 of a test JVM mid-sweep left $left kit containers running there"
  STOCK_IMAGE="$image" on_remote "$work/remote.log" \
    -Dit.test='StockServiceCapsIT#theStockRouteIsCappedByHikari+theReportRouteIsCappedByTomcatsThreads+thePriceRouteIsCappedByHttpClientsDefaultPool' \
    || sweeps=$?
  cp "$remote/target/bottleneck-report/results.json" "$work/remote-sweeps.json" 2>/dev/null || true
  STOCK_IMAGE="$pr_image" on_remote "$work/remote-ab.log" -Dit.test='StockGuardIT#theStockRouteHasNotRegressedAgainstMain' \
    -Dbottleneck.against="$main_image" || guard=$?
  local remaining
  remaining="$(remote_kit ps -a) containers, $(remote_kit network ls) networks"
  grep -hE 'left behind on .* by earlier runs' "$work/remote.log" | sed 's/^/[stock]   /' || true
  grep -E '^\[bottleneck-kit\] stock /[a-z]+: (sweeping|capped at|confirmed)' "$work/remote.log" | sed 's/^/[stock]   /' || true
  grep -E '^\[bottleneck-kit\] guard[ :].*(ceiling: |regressed against)' "$work/remote-ab.log" | sed 's/^/[stock]   /' || true
  say "remote engine: sweeps exit $sweeps, guard exit $guard, left on the engine: $remaining ($((SECONDS - started)) s in all)"
  [ "$sweeps" -eq 0 ] && grep -q 'in com.example.guards.StockServiceCapsIT' "$work/remote.log" \
    && grep -qE '^\[bottleneck-kit\] stock /stock: sweeping http://[0-9.]+:[0-9]+/stock' "$work/remote.log" \
    || { tail -n 60 "$work/remote.log"; say "error: the sweeps on the remote engine failed"; status=1; }
  [ "$guard" -ne 0 ] && grep -q 'ceiling: .* B/A 0\.[0-9]* (.*, 95 %), a block ±[0-9.]* %: regressed' "$work/remote-ab.log" \
    || { tail -n 60 "$work/remote-ab.log"; say "error: the A/B guard on the remote engine was not red on /stock"; status=1; }
  [ "$left" -gt 0 ] && grep -qE 'removed [1-9][0-9]* containers?, .* left behind on tcp://' "$work/remote.log" \
    || { say "error: what the killed test JVM left on the remote engine ($left containers) was not removed by the next run"; status=1; }
  [ "$remaining" = "0 containers, 0 networks" ] \
    || { docker -H "$remote_host" ps -a >&2; say "error: the kit left $remaining on the remote engine"; status=1; }
  say "the same sweeps and guard on the local engine and on the remote one:"
  python3 .ci/local-remote-table.py "$root/target/stock-report/results.json" "$work/remote-sweeps.json" \
    "$root/target/stock-report/ab-three-routes/results.json" "$remote/target/bottleneck-report/results.json" \
    | tee "$root/target/stock-report/local-remote.md" | sed 's/^/[stock]   /' || true
  row "remote engine: a killed JVM's $left containers removed, 3 sweeps, the guard red, nothing left" "$status" \
    "$(grep -oE 'ceiling: .* B/A [^:]*' "$work/remote-ab.log" | head -n 1)" "$started"
}

"$mode"
exit "$failed"
