#!/usr/bin/env python3
"""What a shorter window would have read: replays a run's fixed loads on their first seconds.

    python3 bench/window-replay.py target/bottleneck-report/results.json [latencies=4] [at-least-s=3]

For every fixed load (sweeps are left out: their steps already last two cycles) it cuts the window to
`latencies` of the load's mean latency, at least `at-least-s` seconds, and prints the throughput of the
first seconds against the whole window's, both counted from the answers per second that results.json keeps.
That is a count of answers, not the lives the kit counts (a request's share of its life inside the window),
so a load whose answers come in waves can move here where the kit's figure would not: a load this script
flags is one a shorter window must be proven on first, not one known to break.

Also printed per load, two precision models a stopping rule could use, so that they can be compared:
  spread%   the spread between seconds over √seconds (what the budget uses today)
  renewal%  the latencies' coefficient of variation over √answers (needs `pip install hdrhistogram`)
"""
import json
import math
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: window-replay.py results.json [latencies=4] [at-least-s=3]")
    path = sys.argv[1]
    cycles = float(sys.argv[2]) if len(sys.argv) > 2 else 4.0
    at_least = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    try:
        from hdrh.histogram import HdrHistogram
    except ImportError:
        HdrHistogram = None
    with open(path) as file:
        results = json.load(file)
    print(f"{'':4} {'load':44} {'ans':>5} {'s':>3} {'cut':>3} {'rps':>7} {'cut rps':>7} {'moved':>7}"
          f" {'spread%':>7} {'renewal%':>8}")
    total = cut_total = moved = loads = 0
    for run in results["runs"]:
        measured = run.get("measured")
        if run.get("sweep") or not measured or len(measured.get("perSecond") or []) < 4:
            continue
        seconds = [answers for answers, _, _ in measured["perSecond"]]
        answers = sum(seconds)
        if answers == 0:
            continue
        n = len(seconds)
        mean_latency_s = (measured["latency_ms"].get("mean") or 0) / 1000
        cut = min(n, max(at_least, math.ceil(cycles * mean_latency_s)))
        whole = answers / n
        first = sum(seconds[:cut]) / cut
        spread = math.sqrt(sum((x - whole) ** 2 for x in seconds) / (n - 1)) / whole
        renewal = float("nan")
        if HdrHistogram and measured.get("latencyHistogram"):
            histogram = HdrHistogram.decode(measured["latencyHistogram"])
            if histogram.get_mean_value() > 0:
                renewal = histogram.get_stddev() / histogram.get_mean_value() / math.sqrt(answers)
        change = (first - whole) / whole
        loads += 1
        total += n
        cut_total += cut
        moved += abs(change) > 0.03
        name = (run.get("case") or run.get("title") or "")[:44]
        print(f"{run['scenario']:4} {name:44} {answers:5d} {n:3d} {cut:3d} {whole:7.2f} {first:7.2f}"
              f" {100 * change:+6.1f}% {100 * spread / math.sqrt(n):7.2f} {100 * renewal:8.2f}")
    print(f"\n{loads} fixed loads: windows {total} s, cut to {cut_total} s at {cycles:g} mean latencies"
          f" (at least {at_least} s); {moved} moved by more than 3 %")


if __name__ == "__main__":
    main()
