#!/usr/bin/env python3
"""What a CPU-bound guard would catch with more pairs of JVMs or more blocks, and what it would cost (a benchmark that
prints figures: a model, checked against the calibration's own guards).

  bench/ab-power.py [docs/ab-calibration.tsv] [--trials 4000]

The model is the guard's: each block's log ratio B/A is the true one, plus its pair of JVMs' offset (normal, sd
PAIR_SPREAD, read from PairRun.java), plus the block's own noise (normal, sd one block's spread). The interval is
ABComparison.figures' (the blocks' 20 % trimmed interval widened by the pair term, shrunk by the pairs measured); a
guard is red at b when the interval lies wholly below 1 - b. The blocks' noise is the calibration's, per code with 10
or more A/A CPU guards: the median noise floor of its one-pair A/A CPU guards (one pair, so no pairs' offset is in
it), or of its A/A CPU guards where it had no one-pair kind (the code before pairs). The true ratio of 5 % more work is
the median ratio of the newest code's "CPU +5 %" guards, both kinds pooled: the extra rounds are not all of a
request's work.

A guard with P pairs and n blocks costs the newest code's times, from its "A/B took" lines (medians): the base's start,
warm-ups, the knee's search and settling; a block on one pair (the one-pair guards' blocks time over their count); a
further pair (its start, warm-ups and settling: two pairs' blocks time less 8 one-pair blocks). An adaptive guard
("up to 4 while wider than ±X %") takes a further pair, and as many blocks on it, while its interval is wider than X.

The model has one figure, the ceiling's; a guard is also red on its knee's and its p99's, so its A/A false reds run
above the model's. First the model against the guards it models (their configuration, the noise of each kind's one-pair
guards), then the configurations.
"""
import csv
import math
import random
import statistics
import sys

from ab_common import PAIR_SPREAD, SIM, module

TABLE = module("table", "ab-calibration-table.py")
BOUNDS = (0.01, 0.02)
# pairs, blocks, and for an adaptive guard the half-width it adds pairs until and the most pairs it takes
CONFIGURATIONS = ((1, 8, None, None), (1, 16, None, None), (2, 8, None, None), (2, 12, None, None),
                  (3, 12, None, None), (4, 16, None, None), (2, 8, 0.03, 4), (2, 8, 0.025, 4))


def guard(truth, noise, pairs, blocks, rnd, target=None, most=None):
    """One simulated guard: `blocks` blocks on `pairs` pairs, taken in turn; with a `target` half-width, a further pair
    and as many blocks again on it while the interval is wider, up to `most` pairs. Its interval's centre and
    half-width (on the log ratio) and the pairs it took."""
    each = blocks // pairs
    logs = []
    while True:
        offset = rnd.gauss(0, PAIR_SPREAD)
        logs += [math.log(truth) + offset + rnd.gauss(0, noise) for _ in range(each)]
        taken = len(logs) // each
        if taken < pairs:
            continue
        low, high = SIM.trimmed(sorted(logs))
        half = math.hypot((high - low) / 2, 1.96 * PAIR_SPREAD / math.sqrt(taken))
        if target is None or half <= target or taken >= most:
            return (low + high) / 2, half, taken


def red_share(truth, noise, pairs, blocks, bound, trials, rnd, target=None, most=None):
    """The share of simulated guards red at `bound`, and the pairs they took on average."""
    red = taken = 0
    for _ in range(trials):
        centre, half, pairs_taken = guard(truth, noise, pairs, blocks, rnd, target, most)
        red += centre + half < math.log(1 - bound)
        taken += pairs_taken
    return red / trials, taken / trials


def main(argv):
    trials = int(argv[argv.index("--trials") + 1]) if "--trials" in argv else 4000
    path = next((a for a in argv[1:] if not a.startswith("--") and not a.isdigit()), "docs/ab-calibration.tsv")
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    newest = TABLE.kit_of(rows[-1])
    mine = [r for r in rows if TABLE.kit_of(r) == newest]
    truth = statistics.median(float(r["ratio"]) for r in mine if r["kind"].startswith("CPU +5 %"))
    took = TABLE.phases(rows, path)
    timed = {kind: [took[i] for i, r in enumerate(rows) if i in took and r in mine and r["kind"] == kind]
             for kind in ("A/A CPU", "A/A CPU, one pair", "CPU +5 % work", "CPU +5 % work, one pair")}
    setup = statistics.median(t[1] + t[2] for kind in timed for t in timed[kind])
    one = [t[3] / int(r["blocks"]) for i, r in enumerate(rows) if i in took and r in mine
           and r["kind"].endswith("one pair") and r["kind"].startswith(("A/A CPU", "CPU +5 %")) and (t := took[i])]
    block = statistics.median(one)
    two = statistics.median(t[3] for kind in ("A/A CPU", "CPU +5 % work") for t in timed[kind])
    pair = two - 8 * block
    days = {}
    for r in rows:
        if r["kind"] in ("A/A CPU, one pair", "A/A CPU"):
            days.setdefault(TABLE.kit_of(r), {}).setdefault(r["kind"], []).append(float(r["noise"]))
    noise = {code: statistics.median(kinds.get("A/A CPU, one pair") or kinds["A/A CPU"])
             for code, kinds in days.items() if len(kinds.get("A/A CPU, one pair") or kinds["A/A CPU"]) >= 10}
    rnd = random.Random(11)
    print(f"Code {newest}: a CPU +5 % head's true B/A taken as {truth:.3f} (the median of its guards); the pairs'"
          f" offset ±{100 * PAIR_SPREAD:.1f} % (PAIR_SPREAD); a guard's time {setup:.0f} s before its blocks, a block"
          f" {block:.1f} s, a further pair {pair:.0f} s. {trials} simulated guards a cell.")
    print()
    print("**The model against the guards it models** (code " + newest + "; each kind's noise a block is its one-pair"
          " guards' median, which holds no pairs' offset):")
    print()
    print("| kind | guards | noise a block | red at 1 % / 2 %, the guards | the model |")
    print("|---|---:|---:|---:|---:|")
    for kind, pairs in (("A/A CPU", 2), ("CPU +5 % work", 2), ("A/A CPU, one pair", 1),
                        ("CPU +5 % work, one pair", 1)):
        these = [r for r in mine if r["kind"] == kind]
        one = kind if kind.endswith("one pair") else kind + ", one pair"
        spread = statistics.median(float(r["noise"]) for r in mine if r["kind"] == one)
        seen = " / ".join(str(sum(TABLE.red(r, b) for r in these)) for b in BOUNDS)
        ratio = 1.0 if kind.startswith("A/A") else truth
        model = " / ".join(f"{len(these) * red_share(ratio, spread, pairs, 8, b, trials, rnd)[0]:.1f}"
                           for b in BOUNDS)
        print(f"| {kind} | {len(these)} | ±{100 * spread:.1f} % | {seen} | {model} |")
    print()
    print("**Configurations** (red at b = 1 % / 2 %; A/A false reds and a +5 % head caught, per 100 guards):")
    print()
    print("| pairs | blocks | guard s (A/A; +5 %) | noise a block (code) | A/A false reds | +5 % caught |")
    print("|---|---:|---:|---|---:|---:|")
    for code, spread in sorted(noise.items(), key=lambda item: item[1]):
        for pairs, blocks, target, most in CONFIGURATIONS:
            cells, seconds = [], []
            for ratio in (1.0, truth):
                shares = [red_share(ratio, spread, pairs, blocks, b, trials, rnd, target, most) for b in BOUNDS]
                cells.append(" / ".join(f"{100 * share:.0f}" for share, _ in shares))
                taken = statistics.mean(taken for _, taken in shares)
                seconds.append(setup + taken * blocks / pairs * block + (taken - 1) * pair)
            name = f"{pairs}" if target is None else f"{pairs}, up to {most} while wider than ±{100 * target:g} %"
            print(f"| {name} | {blocks // pairs} a pair | {seconds[0]:.0f}; {seconds[1]:.0f} |"
                  f" ±{100 * spread:.1f} % ({code}) | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main(sys.argv)
