#!/usr/bin/env bash
# Soak: the full CI run N times, each from a fresh clone of this repository's HEAD, optionally with a busy
# loop on one core (a noisy neighbour), without reruns. Prints pass/fail and time per run, then, per scenario
# run, measured / model over all runs (from each run's summary.md).
#   bench/soak.sh [runs=3] [hog-runs=0]
# The last hog-runs of the runs have a CPU hog (one core spinning) for their whole length. Logs and reports
# stay under target/soak/<n>/. Needs what .ci/run needs; run it where CI runs.
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
HOG_RUNS=${2:-0}
root=$PWD
out="$root/target/soak"
rm -rf "$out"
mkdir -p "$out"
head=$(git rev-parse --short HEAD)
printf '[soak] %s runs of .ci/run from clean clones of %s, the last %s with a CPU hog on one core\n' "$RUNS" "$head" "$HOG_RUNS"

hog_pid=
stop_hog() { if [ -n "$hog_pid" ]; then kill "$hog_pid" 2>/dev/null; wait "$hog_pid" 2>/dev/null; hog_pid=; fi; }
trap stop_hog EXIT

passed=0
times=()
for run in $(seq 1 "$RUNS"); do
  dir="$out/$run"
  clone=$(mktemp -d "${TMPDIR:-/tmp}/bottleneck-kit-soak.XXXXXX")
  git clone -q "$root" "$clone/repo"
  hog=no
  if [ "$run" -gt $((RUNS - HOG_RUNS)) ]; then
    hog=yes
    ( while :; do :; done ) &
    hog_pid=$!
  fi
  started=$(date +%s)
  (cd "$clone/repo" && CI=true bash .ci/run) >"$dir.log" 2>&1
  status=$?
  took=$(($(date +%s) - started))
  stop_hog
  mkdir -p "$dir"
  cp -r "$clone/repo/target/bottleneck-report" "$dir/" 2>/dev/null
  cp -r "$clone/repo/target/failsafe-reports" "$dir/" 2>/dev/null
  rm -rf "$clone"
  times+=("$took")
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    verdict=green
  else
    verdict="FAILED (exit $status): $(grep -E '<<< (FAILURE|ERROR)!' "$dir.log" | grep -v 'Tests run' | head -3 | sed 's/.*dev.bottleneckkit.//' | tr '\n' ' ')"
  fi
  printf '[soak] run %d/%d, hog %s: %s in %d s\n' "$run" "$RUNS" "$hog" "$verdict" "$took"
done

sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' <<<"$sorted")
printf '\n[soak] %d of %d runs green, no reruns; .ci/run took min %s s, median %s s, max %s s\n' "$passed" "$RUNS" \
  "$(head -n 1 <<<"$sorted")" "$median" "$(tail -n 1 <<<"$sorted")"

# Per test class: seconds in every run (Failsafe's and Surefire's XML), longest first.
printf '\n%-62s %s\n' "test class" "seconds, per soak run"
for run_dir in "$out"/*/; do
  for xml in "$run_dir"failsafe-reports/TEST-*.xml; do
    [ -f "$xml" ] || continue
    sed -n 's/.*<testsuite [^>]*name="\([^"]*\)"[^>]*time="\([0-9.,]*\)".*/\1\t\2/p' "$xml" | head -n 1
  done
done | tr -d ',' | awk -F'\t' '{ if (!($1 in t)) order[++n] = $1; t[$1] = t[$1] " " int($2 + 0.5); sum[$1] += $2 }
  END { for (i = 1; i <= n; i++) printf "%-62s%s\n", substr(order[i], 1, 62), t[order[i]] }' | sort -k2 -rn

# Per scenario run: measured / model in every run (summary.md rows: | id | run | load | cap | expected | measured |).
printf '\n%-5s %-62s %s\n' id run "measured / model, per soak run"
for summary in "$out"/*/bottleneck-report/summary.md; do
  awk -F'|' 'NR > 4 && $4 !~ /sweep/ { gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); e = $6 + 0; m = $7 + 0;
    if (e > 0 && m > 0) printf "%s\t%s\t%.2f\n", $2, $3, m / e }' "$summary"
done | sort -t$'\t' -k1,1V -k2,2 | awk -F'\t' '
  { key = $1 "\t" $2; if (!(key in ratios)) order[++n] = key; ratios[key] = ratios[key] " " $3 }
  END { for (i = 1; i <= n; i++) { split(order[i], k, "\t"); printf "%-5s %-62s%s\n", k[1], substr(k[2], 1, 62), ratios[order[i]] } }'
[ "$passed" -eq "$RUNS" ]
