#!/usr/bin/env python3
"""The A/B guard's detection curve, from the results file bench/ab-calibration.sh appends to.

  bench/ab-calibration-table.py [docs/ab-calibration.tsv] [--all | --codes KIT,KIT]
  bench/ab-calibration-table.py [docs/ab-calibration.tsv] --sequential   the newest code's guards as they decided

A sequential guard (issue 87) stops when it knows, at its own bound: --sequential counts its verdicts as it gave them
(red, green, unresolved), its blocks, its time from its head's start, and its blocks' time from the first block.

A guard is red at a bound b when its verdict at b is: the cap moved, or the ceiling's or the knee's throughput interval
lies wholly below 1 - b, or the p99's wholly above 1 + b. For each kind the table gives the reds at b = 1, 2, 3 and 5 %
(for an A/A kind these are false reds), the median ratio, half-width and noise floor (one block's spread), the blocks a
guard took and its time. Guards of different code (the library's and the lab's trees, the column "kit") are never
pooled: the newest code's rows are shown, every code's with --all, the named codes' with --codes. Under the table,
each bound's false reds over every A/A guard with the one-sided 95 % upper bound on the false-red rate
(Clopper-Pearson), then whether the ceiling's 95 % interval holds the truth where the truth is known (an A/A's 1, a
thread cut's ratio of threads): how many intervals hold it, and the ratio's spread from guard to guard (each guard a
pair of fresh JVMs) against the standard error a guard's own interval stands on: its blocks' trimmed one (the noise
floor over the kept share of the blocks) and the spread between pairs of JVMs its half-width holds beyond that. (The
half-width over 1.96 overstates it: the blocks' term is multiplied by the trimmed statistic's point, 2.71 at 8 blocks,
which also carries the doubt in a spread measured on a few blocks; today's points, so the rows of code whose interval
had other points read roughly.) A spread from guard to guard well above the
standard error is noise no single guard sees: each pair of JVMs is offset from the next. Last, where
the blocks log beside the results file holds the guards' "A/B took" lines, where a guard's time went, by kind.
"""
import csv
import math
import re
import statistics
import sys
from pathlib import Path

from ab_common import SIM, blocks_log


BOUNDS = (0.01, 0.02, 0.03, 0.05)

# Each kind's true ceiling B/A where it is known: the same image, or a cut of Tomcat's threads on a route that holds
# each for 200 ms. A CPU route's rounds are not all of its request's work, so its true ratio is not known.
TRUTH = {"A/A capacity": 1.0, "A/A CPU": 1.0, "A/A CPU, one pair": 1.0, "capacity -3 %": 30 / 31,
         "capacity -5 %": 19 / 20, "capacity -10 %": 9 / 10}


def kit_of(row):
    """The code a row's guard ran: its kit (the library's and the lab's trees), or its commit in rows older than it."""
    return row.get("kit") or row.get("commit", "")


def red(row, bound):
    return (row["cap_moved"] == "true" or float(row["high"]) < 1 - bound or float(row["knee_high"]) < 1 - bound
            or float(row["p99_low"]) > 1 + bound)


def standard_error(row):
    """The standard error, on the log ratio, a guard's ceiling interval stands on: its blocks' trimmed one and the
    spread between pairs of JVMs its half-width holds beyond that (half² = (point × se)² + (1.96 × pairs)²)."""
    n = int(row["blocks"])
    kept = n - 2 * SIM.trimmed_count(n)
    blocks = math.log1p(float(row["noise"])) * math.sqrt(n) / kept
    half = (math.log(float(row["high"])) - math.log(float(row["low"]))) / 2
    pairs = max(0.0, half ** 2 - (SIM.point(n) * blocks) ** 2) / 1.96 ** 2
    return math.sqrt(blocks ** 2 + pairs)


def upper(k, n, confidence=0.95):
    """The one-sided upper bound on a rate seen k times in n (Clopper-Pearson), by bisection on the binomial."""
    if k >= n:
        return 1.0
    low, high = k / n, 1.0
    for _ in range(60):
        p = (low + high) / 2
        cdf = sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))
        if cdf > 1 - confidence:
            low = p
        else:
            high = p
    return high


TOOK = re.compile(r"\] (.*) #(\d+): A/B took (\d+) s: the base's start (\d+) s, warm-ups, the knee's search and "
                  r"settling (\d+) s, \d+ blocks (\d+) s")
VERDICT = re.compile(r"\] (.*) #(\d+): B \(.* against A \(")


def phases(rows, path):
    """Each row's "A/B took" line from the blocks log beside the results, matched in order: a guard's verdict line
    there follows its took line, and the rows were appended in the order the guards ended. Rows whose guard left no took
    line (the log kept none before) are left out."""
    ended, took = [], None
    for line in blocks_log(path).splitlines():
        if m := TOOK.search(line):
            took = (m[1], m[2], tuple(int(m[i]) for i in range(3, 7)))
        elif m := VERDICT.search(line):
            ended.append((m[1], m[2], took[2] if took and took[:2] == (m[1], m[2]) else None))
            took = None
    return {index: guard[2] for index, guard in in_order(rows, ended, lambda guard: guard[:2]).items() if guard[2]}


def in_order(rows, ended, key):
    """Each row's guard among `ended` (in the order the blocks log kept them, `key` giving a guard's kind and run), by
    row index: matched in order, since rows were appended as the guards ended; a guard the results file lacks (stopped
    before its row was written) is passed over."""
    found, at = {}, 0
    for index, row in enumerate(rows):
        for j in range(at, len(ended)):
            if key(ended[j]) == (row["kind"], row["run"]):
                found[index] = ended[j]
                at = j + 1
                break
    return found


def sequential(rows, path):
    """The newest code's guards as they decided, a kind a line: red, green and unresolved at the guard's own bound,
    the blocks, the guard's seconds from its head's start, and its blocks' seconds from the first block."""
    newest = kit_of(rows[-1])
    took = phases(rows, path)
    order = []
    for row in rows:
        if kit_of(row) == newest and row["kind"] not in order:
            order.append(row["kind"])
    print(f"Kit `{newest}`, each guard as it decided (unresolved: the budget or the 16th block came first).")
    print()
    print("| kind | guards | red | green | unresolved | blocks, median (most) | guard s, median / most "
          "| blocks s, median / most |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in order:
        these = [(i, r) for i, r in enumerate(rows) if kit_of(r) == newest and r["kind"] == kind]
        verdicts = [r["verdict"] for _, r in these]
        blocks = [int(r["blocks"]) for _, r in these]
        secs = [int(r["seconds"]) for _, r in these]
        in_blocks = [took[i][3] for i, _ in these if i in took]
        blocks_cell = (f"{statistics.median(in_blocks):.0f} / {max(in_blocks)}" if in_blocks else "—")
        print(f"| {kind} | {len(these)} | {verdicts.count('regressed')} "
              f"| {verdicts.count('no-change') + verdicts.count('improved')} | {verdicts.count('unresolved')} "
              f"| {statistics.median(blocks):g} ({max(blocks)}) | {statistics.median(secs):.0f} / {max(secs)} "
              f"| {blocks_cell} |")


def main(argv):
    if "--sequential" in argv:
        path = next((a for a in argv if not a.startswith("--")), "docs/ab-calibration.tsv")
        sequential(list(csv.DictReader(open(path), delimiter="\t")), path)
        return
    options = {argv[argv.index("--codes") + 1] if "--codes" in argv else None}
    path = next((a for a in argv if not a.startswith("--") and a not in options), "docs/ab-calibration.tsv")
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    codes = []
    for row in rows:
        code = kit_of(row)
        if code not in codes:
            codes.append(code)
    named = argv[argv.index("--codes") + 1].split(",") if "--codes" in argv else None
    unknown = [c for c in named or [] if c not in codes]
    if unknown:
        sys.exit(f"--codes: no rows of {', '.join(unknown)} in {path}; its codes are {', '.join(codes)}")
    if "--all" in argv:
        shown = codes
    elif named:
        shown = [c for c in codes if c in named]
    else:
        shown = codes[-1:]
    first_commit = {}
    for row in rows:
        first_commit.setdefault(kit_of(row), row.get("commit", ""))
    order = []
    for row in rows:
        if row["kind"] not in order:
            order.append(row["kind"])

    def kinds_of(code):
        """The kinds one code's rows hold, the capacity route's first, each in the order the file first names it."""
        return sorted({r["kind"] for r in rows if kit_of(r) == code},
                      key=lambda kind: ("CPU" in kind, order.index(kind)))

    print("| kind | code (first commit) | guards | red at b = 1 % / 2 % / 3 % / 5 % | median B/A | median ± "
          "| median noise a block | blocks, median | guard s, median / p95 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for code in shown:
        for kind in kinds_of(code):
            these = [r for r in rows if r["kind"] == kind and kit_of(r) == code]
            n = len(these)
            reds = " / ".join(str(sum(red(r, b) for r in these)) for b in BOUNDS)
            ratio = statistics.median(float(r["ratio"]) for r in these)
            half = statistics.median((float(r["high"]) - float(r["low"])) / 2 for r in these)
            noise = statistics.median(float(r["noise"]) for r in these)
            blocks = statistics.median(int(r["blocks"]) for r in these)
            secs = sorted(int(r["seconds"]) for r in these)
            p95 = secs[min(n - 1, math.ceil(0.95 * n) - 1)]
            print(f"| {kind} | {code} ({first_commit[code]}) | {n} | {reds} | {ratio:.3f} | ±{100 * half:.1f} % "
                  f"| ±{100 * noise:.1f} % | {blocks:g} | {statistics.median(secs):.0f} / {p95} |")
    print()
    for code in shown:
        same = [r for r in rows if kit_of(r) == code]
        aa = [r for r in same if r["kind"].startswith("A/A")]
        if not aa:
            continue
        cells = []
        for b in BOUNDS:
            k = sum(red(r, b) for r in aa)
            cells.append(f"b = {100 * b:g} %: {k} of {len(aa)} (rate below {100 * upper(k, len(aa)):.1f} %)")
        secs = statistics.median(int(r["seconds"]) for r in same)
        print(f"code {code}: A/A false reds, every kind: " + "; ".join(cells)
              + f". A guard of one route: median {secs:.0f} s over {len(same)}.")
    print()
    for code in shown:
        for kind, truth in TRUTH.items():
            these = [r for r in rows if r["kind"] == kind and kit_of(r) == code]
            if len(these) < 3:
                continue
            held = sum(float(r["low"]) <= truth <= float(r["high"]) for r in these)
            spread = statistics.stdev(float(r["ratio"]) for r in these)
            error = statistics.median(math.expm1(standard_error(r)) for r in these)
            print(f"code {code}, {kind}: the ceiling's interval held the true {truth:.3f} in {held} of {len(these)};"
                  f" the ratio spread ±{100 * spread:.2f} % (sd) from guard to guard, a guard's interval stands on"
                  f" ±{100 * error:.2f} % (its standard error, median)")
    took = phases(rows, path)
    if not any(i in took for i, r in enumerate(rows) if kit_of(r) in shown):
        return
    print()
    print("| kind | code | guards timed | A/B took, median s | the base's start "
          "| warm-ups, the knee's search, settling | blocks (a second pair's start, warm-ups and settling with them) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for code in shown:
        for kind in kinds_of(code):
            timed = [took[i] for i, r in enumerate(rows)
                     if i in took and r["kind"] == kind and kit_of(r) == code]
            if timed:
                cells = " | ".join(f"{statistics.median(t[k] for t in timed):.0f}" for k in range(4))
                print(f"| {kind} | {code} | {len(timed)} | {cells} |")


if __name__ == "__main__":
    main(sys.argv[1:])
