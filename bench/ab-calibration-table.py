#!/usr/bin/env python3
"""The A/B guard's detection curve, from the results file bench/ab-calibration.sh appends to.

  bench/ab-calibration-table.py docs/ab-calibration.tsv

For each kind (on each commit, where the file holds guards of more than one): the guards run, the reds at the default bound of 5 % (an interval wholly below 0.95 or the cap moved),
the share of guards whose ceiling's interval lies wholly below 1 - b at tighter bounds b (what a team would see at
that bound), the median ratio, the median half-width and noise floor (one block's spread), and the guard's time.
"""
import csv
import statistics
import sys


def main(path):
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    # Guards of different code are never pooled: with more than one commit in the file, a kind is a kind on a commit.
    commits = {row.get("commit", "") for row in rows}
    key = (lambda row: f'{row["kind"]} on {row.get("commit", "")}') if len(commits) > 1 else (lambda row: row["kind"])
    order = []
    for row in rows:
        if row["kind"] not in order:
            order.append(row["kind"])
    kinds = []
    for row in sorted(rows, key=lambda row: ("CPU" in row["kind"], order.index(row["kind"]))):
        if key(row) not in kinds:
            kinds.append(key(row))
    print("| kind | guards | red at 5 % | of them by: ceiling / knee / p99 / cap moved | ceiling's top below 1 - b,"
          " b = 1 % / 2 % / 3 % | median B/A | median ± | median noise a block | guard s, median / p95 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind in kinds:
        these = [r for r in rows if key(r) == kind]
        n = len(these)
        red = sum(r["verdict"] == "regressed" for r in these)
        figures = [r.get("red_figures") or "" for r in these]
        by = [sum(name in f.split(",") for f in figures) for name in
              ("ceiling", "throughput at the knee", "p99 at the knee")]
        moved = sum(r["cap_moved"] == "true" for r in these)
        below = [sum(float(r["high"]) < 1 - b for r in these) for b in (0.01, 0.02, 0.03)]
        ratio = statistics.median(float(r["ratio"]) for r in these)
        half = statistics.median((float(r["high"]) - float(r["low"])) / 2 for r in these)
        noise = statistics.median(float(r["noise"]) for r in these)
        secs = sorted(int(r["seconds"]) for r in these)
        p95 = secs[min(n - 1, int(0.95 * n))]
        print(f"| {kind} | {n} | {red} | {by[0]} / {by[1]} / {by[2]} / {moved} | {below[0]} / {below[1]} / {below[2]}"
              f" | {ratio:.3f} | ±{100 * half:.1f} % | ±{100 * noise:.1f} % | {statistics.median(secs):.0f} / {p95} |")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/ab-calibration.tsv")
