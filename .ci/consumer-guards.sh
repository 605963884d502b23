# Sourced by .ci/consumer-check.sh guards (in .ci/nightly): the guards a team copies, run as its workflow runs them,
# in a Spring Boot 3.5 project (Testcontainers 2.0) outside this tree.
#   - The README's guard against a copy of its own image (a pull request: green) and with -Dbottleneck.against=none
#     (a push to main: the sweeps asserted, the A/B assertion skipped with its line).
#   - Each seed guard of docs/guards.md on a demo image built with its fix (green) and on one built with its
#     regression (red), each red by the assertion on its mechanism, not by anything else.
# Uses what consumer-check.sh set: work, image, java_image, root, demo, generate, say.

project="$work/guards"
say "the guards' project (Spring Boot 3.5, Testcontainers 2.0) in $project"
generate boot-3.5-tc2 "$project"
rows=()

# Where a run's output goes: its name with anything but letters, digits, dots and dashes as _.
log() { printf '%s/%s.log' "$work" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9.-' '_')"; }

# One run of one copied class; its exit status, its output in $(log name).
run() { # name class image against
  local name=$1 class=$2 service=$3 against=${4:-}
  say "$name: $class on $service${against:+, against $against}"
  rm -rf "$project/target/failsafe-reports"
  SERVICE_IMAGE="$service" BOTTLENECK_AGAINST="$against" "$root/mvnw" -B -ntp -f "$project/pom.xml" verify \
    -Dit.test="$class" >"$(log "$name")" 2>&1
}

# The failure message Failsafe recorded for the class, on one line.
failure() { # class
  python3 - "$project/target/failsafe-reports/TEST-com.example.guards.$1.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    suite = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    sys.exit(0)
for case in suite.iter("testcase"):
    for failed in list(case.iter("failure")) + list(case.iter("error")):
        print(" ".join((failed.get("message") or failed.text or "").split())[:400])
PY
}

# What the run's report says of its load: the model, what was measured, the evidence.
measured() {
  awk -F' [|] ' '/^[|] S[0-9]+-guard / { printf "%s: expected %s, measured %s; %s", $4, $5, $6, $10; exit }' \
    "$project/target/bottleneck-report/summary.md" 2>/dev/null || true
}

passes() { # name class image [against]
  if run "$@"; then
    rows+=("$1: green, $(measured)")
  else
    say "error: $1 should pass and failed: $(failure "$2")"
    tail -n 40 "$(log "$1")" | sed 's/^/[consumer]   /'
    exit 1
  fi
}

fails_by() { # name class image expected-substring
  if run "$1" "$2" "$3"; then
    say "error: $1 should fail on its regression and passed"
    exit 1
  fi
  local message
  message=$(failure "$2")
  if [[ $message != *"$4"* ]]; then
    say "error: $1 failed, but not by its mechanism ('$4'): $message"
    tail -n 40 "$(log "$1")" | sed 's/^/[consumer]   /'
    exit 1
  fi
  rows+=("$1: red, ${message:0:200}; $(measured)")
}

# The README's guard, as the workflow runs it on a pull request (the base a copy of the head: no change) and on a
# push to main (no base).
docker tag "$image" "bottleneck-kit/demo-service:base-$$"
passes "guard, pull request" OrdersGuardIT "$image" "bottleneck-kit/demo-service:base-$$"
grep -E '^\[bottleneck-kit\] guard' "$(log "guard, pull request")" | sed 's/^/[consumer]   /' || true
grep -qE 'no change beyond 2 %' "$(log "guard, pull request")" \
  || { say "error: the guard against a copy of its image did not say 'no change beyond 2 %'"; exit 1; }
passes "guard, push to main" OrdersGuardIT "$image" none
grep -E 'not held against a base' "$(log "guard, push to main")" | sed 's/^/[consumer]   /' || true
[ "$(grep -c 'not held against a base: the run has none' "$(log "guard, push to main")")" = 2 ] \
  || { say "error: the guard without a base did not skip its A/B assertion with its line, once a route"; exit 1; }

# The demo images: the lab's caller as a team's service, each built with a seed's fix or its regression.
say "building the seed guards' demo images on $java_image"
mkdir -p "$work/seed"
cp target/lab-service/lab-service/target/lab-service.jar "$work/seed/app.jar"
cp target/jdbc-drivers/mysql-connector-j-*.jar "$work/seed/"
cp containers/lab-service/Dockerfile "$work/seed/Dockerfile"
docker build -q --build-arg "JAVA_IMAGE=$java_image" --build-arg CDS=false -t "$demo:base" "$work/seed" >/dev/null
variant() { # tag driver-version env...
  local tag=$1 driver=$2; shift 2
  { echo "FROM $demo:base"
    [ "$driver" = none ] || echo "COPY mysql-connector-j-$driver.jar /app/lib/"
    echo "ENV $*"
  } | docker build -q -t "$demo:$tag" -f - "$work/seed" >/dev/null
}
variant pooled none SPRING_PROFILES_ACTIVE=caller LAB_CALLER_POOL_MAXPERROUTE=50 LAB_CALLER_POOL_MAXTOTAL=100
variant five-per-route none SPRING_PROFILES_ACTIVE=caller
variant bulkhead none SPRING_PROFILES_ACTIVE=caller LAB_CALLER_POOL_MAXPERROUTE=500 LAB_CALLER_POOL_MAXTOTAL=500 \
  LAB_CALLER_BULKHEAD_MAXCONCURRENTCALLS=5
variant no-bulkhead none SPRING_PROFILES_ACTIVE=caller LAB_CALLER_POOL_MAXPERROUTE=500 LAB_CALLER_POOL_MAXTOTAL=500
variant driver-9 9.7.0 SPRING_PROFILES_ACTIVE=caller,db SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=16
variant driver-8 8.0.33 SPRING_PROFILES_ACTIVE=caller,db SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=16
variant pool-4 9.7.0 SPRING_PROFILES_ACTIVE=caller,db SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=4

passes "S1, pool sized" ClientPoolHoldsIT "$demo:pooled"
fails_by "S1, 5 per route" ClientPoolHoldsIT "$demo:five-per-route" "calls at the downstream at once"
passes "S3, Connector/J 9.7.0" NoPinnedCarriersIT "$demo:driver-9"
fails_by "S3, Connector/J 8.0.33" NoPinnedCarriersIT "$demo:driver-8" "carriers pinned by the driver"
passes "S4, Hikari 16" ConnectionPoolFitsIT "$demo:driver-9"
fails_by "S4, Hikari 4" ConnectionPoolFitsIT "$demo:pool-4" "requests waiting for a connection"
passes "S5, bulkhead 5" DownstreamNotFloodedIT "$demo:bulkhead"
fails_by "S5, no bulkhead" DownstreamNotFloodedIT "$demo:no-bulkhead" "calls at the downstream at once"

say "every guard as its workflow runs it:"
printf '[consumer]   %s\n' "${rows[@]}"
[ -z "${CI_FIGURE:-}" ] || echo "${#rows[@]} runs as expected (README guard with and without a base, 4 seed guards green and red)" >>"$CI_FIGURE"
