#!/usr/bin/env python3
"""What a sequential guard of a CPU-bound route catches within a budget on this machine, and what budget it would need
(a benchmark that prints figures: a model, checked against the calibration's own guards).

  bench/ab-power.py [docs/ab-calibration.tsv] [--trials 4000]

The newest code's CPU guards give the model its figures, each read from them, none chosen:
- a block's noise: the ceiling's log B/A of each block about its own pair of JVMs' mean, pooled over the guards (the
  blocks log beside the results file; a pair's own offset is not in it);
- the pairs' offset: PAIR_SPREAD, the spread PairRun.java names and the guard's interval holds;
- the time: the guards' "A/B took" lines, the base's start and the warm-ups, the knee's search and settling before the
  first block, then the blocks' seconds against their count (a least-squares line: the second pair's start, warm-ups
  and settling fall in the first blocks' time);
- each change's true B/A: an A/A's 1, 2× work's 0.5; 5 % and 10 % more SHA-256 rounds, the median B/A of every
  calibrated guard of that kind (every code: the lab's route is the same, and its rounds are not all of a request's
  work).

A simulated guard runs as PairRun does: its blocks shared by two pairs (two blocks each in turn), a look at every even
count from 4 (Block.decide: red when the interval lies wholly below 1 - b, green when within ±b), its interval
Block.atALook's (the trimmed interval at WIDEN times the fixed count's point, with WIDEN times the pairs' term), and
two more blocks while they end before the budget does (which runs from both images' start), up to LOOKS_UP_TO. The
model has the ceiling's figure only; a guard is also red on its knee's, so it runs a little below the guards.
"""
import csv
import math
import random
import re
import statistics
import sys

from ab_common import PAIR_SPREAD, SIM, blocks_log, module

TABLE = module("table", "ab-calibration-table.py")
BLOCK_JAVA = SIM.JAVA.parent / "Block.java"
WIDEN = float(re.search(r"static final double WIDEN = ([\d.]+);", BLOCK_JAVA.read_text())[1])
LOOKS_UP_TO = int(re.search(r"static final int LOOKS_UP_TO = (\d+);", BLOCK_JAVA.read_text())[1])
BOUND = 0.02
BUDGETS = (300, 360, 480, 600, 900)
KINDS = (("A/A CPU", None), ("CPU +5 % work", None), ("CPU +10 % work", None), ("CPU 2× work", 0.5))
BLOCK = re.compile(r"\] (.+?) #(\d+): A/B block \d+ \((?:A|B) first\), pair (\d): A [\d.]+ / B [\d.]+ rps at \d+ "
                   r"users, A ([\d.]+) / B ([\d.]+) at \d+")
VERDICT = re.compile(r"\] (.+?) #(\d+): B \(.* against A \(")


def guards_blocks(rows, path):
    """Each row's blocks on two pairs (pair, ceiling's log B/A), by row index, matched in order as the table does."""
    ended, current = [], []
    for line in blocks_log(path).splitlines():
        if m := BLOCK.search(line):
            current.append((m[1], m[2], int(m[3]), math.log(float(m[5]) / float(m[4]))))
        elif m := VERDICT.search(line):
            ended.append((m[1], m[2], [(pair, ratio) for kind, run, pair, ratio in current
                                       if (kind, run) == (m[1], m[2])]))
            current = []
    found = TABLE.in_order(rows, ended, lambda guard: guard[:2])
    return {index: guard[2] for index, guard in found.items() if guard[2]}


def within_pairs(blocks_by_guard):
    """A block's noise: the pooled sd of the blocks about their own pair's mean (a pair's n blocks give n - 1)."""
    squares = freedom = 0
    for blocks in blocks_by_guard:
        for pair in {p for p, _ in blocks}:
            these = [r for p, r in blocks if p == pair]
            if len(these) > 1:
                mean = statistics.mean(these)
                squares += sum((r - mean) ** 2 for r in these)
                freedom += len(these) - 1
    return math.sqrt(squares / freedom) if freedom else float("nan"), freedom


def line(points):
    """The least-squares line through (blocks, seconds): (seconds at 0 blocks, seconds a block)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if len(set(xs)) < 2:
        return 0.0, statistics.mean(y / x for x, y in points)
    slope = statistics.covariance(xs, ys) / statistics.variance(xs)
    return statistics.mean(ys) - slope * statistics.mean(xs), slope


def at_a_look(logs):
    """Block.atALook's interval on the log scale: the trimmed one at WIDEN times the fixed point, the pairs' term."""
    n = len(logs)
    if SIM.trimmed_count(n):
        centre, error = SIM.trimmed_stat(logs)
    else:
        centre = statistics.mean(logs)
        error = statistics.stdev(logs) / math.sqrt(n)
    half = math.hypot(WIDEN * SIM.fixed_point(n) * error, WIDEN * 1.96 * PAIR_SPREAD / math.sqrt(2))
    return centre - half, centre + half


def guard(truth, noise, budget, before, first, each, rnd):
    """One simulated guard: its answer and its seconds from both starts."""
    offsets = [rnd.gauss(0, PAIR_SPREAD) for _ in range(2)]
    logs = []
    while True:
        pair = (len(logs) // 2) % 2
        logs.append(math.log(truth) + offsets[pair] + rnd.gauss(0, noise))
        n = len(logs)
        seconds = before + first + each * n
        if n >= 4 and n % 2 == 0:
            low, high = at_a_look(logs)
            if high < math.log(1 - BOUND):
                return "red", seconds
            if low > math.log(1 - BOUND) and high < math.log(1 + BOUND):
                return "green", seconds
            if low > math.log(1 + BOUND):
                return "improved", seconds
            if n >= LOOKS_UP_TO or seconds + 2 * each > budget:
                return "unresolved", seconds


def shares(truth, noise, budget, before, first, each, trials, rnd):
    answers = [guard(truth, noise, budget, before, first, each, rnd) for _ in range(trials)]
    count = {a: sum(1 for answer, _ in answers if answer == a) for a in ("red", "green", "unresolved", "improved")}
    return count, statistics.median(seconds for _, seconds in answers)


def main(argv):
    trials = int(argv[argv.index("--trials") + 1]) if "--trials" in argv else 4000
    path = next((a for a in argv[1:] if not a.startswith("--") and not a.isdigit()), "docs/ab-calibration.tsv")
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    newest = TABLE.kit_of(rows[-1])
    cpu = [i for i, r in enumerate(rows)
           if TABLE.kit_of(r) == newest and r["kind"] in dict(KINDS)]
    if not cpu:
        print(f"Code {newest} has no CPU guards on two pairs: nothing to model.")
        return
    took = TABLE.phases(rows, path)
    blocks = guards_blocks(rows, path)
    used = [blocks[i] for i in cpu if i in blocks]
    noise, freedom = within_pairs(used)
    timed = [(int(rows[i]["blocks"]), took[i]) for i in cpu if i in took]
    after_start = statistics.median(t[2] for _, t in timed)
    first, each = line([(n, t[3]) for n, t in timed])
    truths = {}
    for kind, known in KINDS:
        these = [float(r["ratio"]) for r in rows if r["kind"] == kind]
        truths[kind] = (known, "its nominal") if known else (
            (1.0, "an A/A's") if kind.startswith("A/A") else
            (statistics.median(these), f"the median of its {len(these)} calibrated guards, every code"))
    rnd = random.Random(11)
    print(f"Code {newest}, {len(cpu)} CPU guards on two pairs. A block's noise ±{100 * math.expm1(noise):.1f} % (the"
          f" ceiling's B/A about its own pair's mean, {freedom} degrees of freedom, the blocks of {len(used)} guards); the"
          f" pairs' offset ±{100 * PAIR_SPREAD:.1f} % (PAIR_SPREAD). Time from both starts: {after_start:.0f} s of"
          f" warm-ups, the knee's search and settling (median), then {first:.0f} s + {each:.1f} s a block (the"
          f" blocks' seconds of {len(timed)} guards against their count). Bound {100 * BOUND:g} %, {trials} simulated"
          " guards a cell.")
    print()
    print("**The model against the guards** (each kind's guards at the budget they ran with):")
    print()
    print("| kind | true B/A | guards | red / green / unresolved, the guards | the model | guard s, median: guards |"
          " model |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, _ in KINDS:
        these = [rows[i] for i in cpu if rows[i]["kind"] == kind]
        if not these:
            continue
        truth, _ = truths[kind]
        budget = 360 if kind.startswith("CPU +5 %") else 300
        seen = [sum(1 for r in these if r["verdict"] == v) for v in ("regressed", "no-change", "unresolved")]
        count, seconds = shares(truth, noise, budget, after_start, first, each, trials, rnd)
        model = " / ".join(f"{len(these) * count[a] / trials:.1f}" for a in ("red", "green", "unresolved"))
        print(f"| {kind} ({budget // 60} min) | {truth:.3f} | {len(these)} | {' / '.join(map(str, seen))} | {model}"
              f" | {statistics.median(int(r['seconds']) for r in these):.0f} | {seconds:.0f} |")
    print()
    print("True B/A: " + "; ".join(f"{kind}, {truth:.3f} ({why})" for kind, (truth, why) in truths.items()) + ".")
    print()
    print("**What a budget buys at this noise** (per 100 guards: red / green / unresolved; median seconds from both"
          " starts):")
    budgets(truths, noise, (after_start, first, each), trials, rnd)
    quiet = 0.02
    print(f"**The same at ±{100 * quiet:g} % a block** (a quieter machine's noise):")
    budgets(truths, math.log1p(quiet), (after_start, first, each), trials, rnd)


def budgets(truths, noise, timing, trials, rnd):
    """A table of each kind's answers at each of BUDGETS, at `noise` a block, and a blank line after it."""
    print()
    print("| kind | " + " | ".join(f"{b // 60} min" for b in BUDGETS) + " |")
    print("|---|" + "---:|" * len(BUDGETS))
    for kind, _ in KINDS:
        truth, _ = truths[kind]
        cells = []
        for budget in BUDGETS:
            count, seconds = shares(truth, noise, budget, *timing, trials, rnd)
            cells.append(" / ".join(f"{100 * count[a] / trials:.0f}" for a in ("red", "green", "unresolved"))
                         + f", {seconds:.0f} s")
        print(f"| {kind} | " + " | ".join(cells) + " |")
    print()


if __name__ == "__main__":
    main(sys.argv)
