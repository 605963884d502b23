#!/usr/bin/env python3
"""The table of bench/relay-probe.sh's results: for each run (two containers started once) and each turn length, the
blocks, their B/A ratio (geometric mean), the spread of one block's ratio (the standard deviation of the log ratios)
and the 95 % half-width of the mean over the run's blocks (Student's t). A spread that falls with shorter turns is
drift the turns average away; one that does not is noise of the service's own.

  bench/relay-probe-table.py [docs/relay-probe.tsv]
"""
import csv
import math
import statistics
import sys

# Student's t, two-sided 95 %, by degrees of freedom (a run has few blocks).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20,
       12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13}


def main(argv):
    path = argv[0] if argv else "docs/relay-probe.tsv"
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    print("| run | head over base | turn | blocks | B/A | a block ± | mean ± (95 %) | answers a turn |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    runs = []
    for row in rows:
        if row["pair"] not in runs:
            runs.append(row["pair"])
    for run in runs:
        these = [r for r in rows if r["pair"] == run]
        change = these[0]["head"].rsplit(":", 1)[-1].split("-")[0] + " / " + these[0]["base"].rsplit(":", 1)[-1].split("-")[0]
        for turn in sorted({int(r["turn_ms"]) for r in these}):
            at = [r for r in these if int(r["turn_ms"]) == turn]
            logs = [math.log(float(r["ratio"])) for r in at]
            n = len(logs)
            sd = statistics.stdev(logs) if n > 1 else float("nan")
            half = T95.get(n - 1, 1.96) * sd / math.sqrt(n) if n > 1 else float("nan")
            per_turn = statistics.mean((int(r["a_answers"]) + int(r["b_answers"])) / (2 * int(r["turns_each"]))
                                       for r in at)
            print(f"| {run} | {change} | {turn} ms | {n} | {math.exp(statistics.mean(logs)):.3f} "
                  f"| ±{100 * sd:.1f} % | ±{100 * half:.1f} % | {per_turn:.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
