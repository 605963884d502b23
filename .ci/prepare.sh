# Sourced by .ci/run (the gate) and .ci/nightly (the whole proof): brings a bare Debian machine (no Docker engine, no
# registry) to where the checks run, and keeps the summary both end with.
#   prepare            a JDK 21+ (Temurin 25 when present), debootstrap, a Docker engine (stopped at exit if this
#                      script started it), the offline images (containers/offline/build.sh, idempotent)
#   check NAME CMD...  runs CMD to its end whatever the checks before it did, and adds its row to the summary: NAME,
#                      pass or FAIL, its figure (the last line CMD wrote to $CI_FIGURE) and its seconds; CMD may add
#                      rows of its own to $CI_ROWS (the stock services add one a test)
#   finish             prints the summary (.ci/summary.py) and exits 1 if a check failed
# shellcheck shell=bash
ci_started=$SECONDS
say() { printf '\n[%s] %s (%d s)\n' "$CI_NAME" "$*" "$((SECONDS - ci_started))"; }

prepare() {
  # A JDK 21+: the machine's default java is 17.
  if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
    for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64; do
      if [ -x "$candidate/bin/java" ]; then export JAVA_HOME=$candidate; break; fi
    done
  fi
  [ -n "${JAVA_HOME:-}" ] || { echo "[$CI_NAME] error: no JDK 21+ found; set JAVA_HOME" >&2; exit 1; }
  export PATH="$JAVA_HOME/bin:$PATH"
  say "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -n 1)"

  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema

  say "Docker engine"
  local engine
  engine=$(bash .ci/docker-engine.sh start)
  if [ "$engine" = started ]; then trap 'bash .ci/docker-engine.sh stop' EXIT; fi

  say "offline images"
  bash containers/offline/build.sh

  # This machine has /.dockerenv, so Testcontainers would look for a gateway with a pulled image; and no Ryuk image
  # exists here (the kit reaps what a killed run leaves, by label).
  export TESTCONTAINERS_HOST_OVERRIDE=localhost
  export TESTCONTAINERS_RYUK_DISABLED=true
  export BOTTLENECK_IMAGES=offline

  mkdir -p target/ci
  export CI_ROWS=$PWD/target/ci/$CI_NAME-checks.tsv CI_FIGURE=$PWD/target/ci/figure
  : >"$CI_ROWS"
}

check() {
  local name=$1 started=$SECONDS status=0
  shift
  say "$name"
  : >"$CI_FIGURE"
  # In the background and waited for: a function run in an `||` list would run with errexit off.
  "$@" &
  wait $! || status=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$([ "$status" -eq 0 ] && echo pass || echo FAIL)" \
    "$(tail -n 1 "$CI_FIGURE" | tr '\t' ' ')" "$((SECONDS - started))" >>"$CI_ROWS"
  [ "$status" -eq 0 ] || say "FAILED: $name (exit $status)"
  return 0
}

finish() {
  local left status=0
  left=$(docker ps -aq --filter label=dev.bottleneckkit | wc -l)
  printf '%s\t%s\t%s\t%s\n' "nothing of the kit left on the engine" "$([ "$left" -eq 0 ] && echo pass || echo FAIL)" \
    "$left containers" 0 >>"$CI_ROWS"
  [ "$left" -eq 0 ] || docker ps -a --filter label=dev.bottleneckkit >&2
  say "summary ($CI_ROWS)"
  python3 .ci/summary.py table "$CI_ROWS" | tee "target/ci/$CI_NAME-summary.md" || status=$?
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { printf '\n## %s\n\n' "$CI_NAME"; cat "target/ci/$CI_NAME-summary.md"; } >>"$GITHUB_STEP_SUMMARY"
  fi
  say "done: $([ "$status" -eq 0 ] && echo green || echo red) in $SECONDS s"
  exit "$status"
}
