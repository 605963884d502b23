#!/usr/bin/env bash
# Runs tests alone, one Maven invocation each, to prove that none leans on another's state:
#   .ci/run-alone.sh MemoryPerWaitingRequestIT#underAMemoryLimitThatFitsOnlyVirtualThreadsThePlatformServiceIsKilled
#   .ci/run-alone.sh PhasesTest SweepResultAssertTest
# A name ending in IT (a class, or CLASS#method) runs through Failsafe (-Pscenarios: no unit tests); any other
# through Surefire. Prints one line per test with its result and seconds, and exits 1 if any failed.
# Needs what ./mvnw verify needs (a Docker engine for an IT); passes -Dbottleneck.images through from
# BOTTLENECK_IMAGES.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 TEST[#method]..." >&2; exit 2; }
images=()
[ -n "${BOTTLENECK_IMAGES:-}" ] && images=("-Dbottleneck.images=$BOTTLENECK_IMAGES")
failed=0
for test in "$@"; do
  started=$SECONDS
  log=$(mktemp)
  case "${test%%#*}" in
    *IT) ./mvnw -B -ntp -Pscenarios verify -Dit.test="$test" "${images[@]}" >"$log" 2>&1 ;;
    *)   ./mvnw -B -ntp test -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1 ;;
  esac
  status=$?
  ran=$(grep -oE 'Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -n 1)
  if [ "$status" -eq 0 ] && [ -n "$ran" ] && ! grep -q 'Tests run: 0,' <<<"$ran"; then
    printf '[alone] %-100s passed (%s) in %d s\n' "$test" "$ran" "$((SECONDS - started))"
  else
    printf '[alone] %-100s FAILED (%s) in %d s; its log: %s\n' "$test" "${ran:-no test ran}" "$((SECONDS - started))" "$log"
    failed=1
    continue
  fi
  rm -f "$log"
done
exit "$failed"
