#!/usr/bin/env python3
"""Where a CPU-bound guard's noise sits, from the blocks log bench/ab-calibration.sh writes (a benchmark that prints
figures): by block position, and from guard to guard.

  bench/ab-block-position.py [docs/ab-calibration-blocks.log]

For the guards in 500 ms turns, one pair of JVMs and two apart, it prints each block position's mean deviation from its
guard's median: of the ceiling's and the knee's log ratio B / A (a block's noise), and of both sides' level (the mean
log of the four rates: a JVM still getting faster reads low). Then, for the A/A guards on one pair, the spread of the
guards' mean ratio from guard to guard with the first 0 to 3 blocks left out, against the spread their own blocks
explain (the root mean square of each guard's standard error): if leaving the first blocks out took the excess away,
the excess would be their warming; if it stays, each pair of JVMs has an offset of its own.
"""
import math
import re
import statistics
import sys

BLOCK = re.compile(r"\] (.*?): A/B block (\d+) \((A|B) first\)(?:, pair (\d))?: A ([\d.]+) / B ([\d.]+) rps at \d+ "
                   r"users?, A ([\d.]+) / B ([\d.]+) at(.*)")


def guards(path):
    found, current = [], None
    for line in open(path):
        m = BLOCK.search(line)
        if not m:
            continue
        if current is None or int(m.group(2)) == 1:
            current = {"name": m.group(1), "turns": "turns" in m.group(9), "blocks": []}
            found.append(current)
        a_knee, b_knee, a_ceiling, b_ceiling = map(float, m.group(5, 6, 7, 8))
        current["blocks"].append({"pair": int(m.group(4) or 1), "knee": math.log(b_knee / a_knee),
                                  "ceiling": math.log(b_ceiling / a_ceiling),
                                  "level": math.log(a_knee * b_knee * a_ceiling * b_ceiling) / 4})
    return [g for g in found if g["turns"] and "CPU" in g["name"]]


def by_position(selected, label):
    print(f"{label}: {len(selected)} guards; mean |deviation| / mean deviation from the guard's median, % by block")
    for figure in ("ceiling", "knee", "level"):
        at = {}
        for g in selected:
            median = statistics.median(b[figure] for b in g["blocks"])
            for i, b in enumerate(g["blocks"]):
                at.setdefault(i, []).append(100 * (b[figure] - median))
        cells = [f"{i + 1}: {statistics.mean(abs(x) for x in v):.1f} / {statistics.mean(v):+.1f}"
                 for i, v in sorted(at.items())]
        print(f"  {figure:<8} " + "   ".join(cells))


def guard_to_guard(aa):
    print(f"A/A guards on one pair: {len(aa)}; the guards' mean B / A with the first blocks left out")
    for figure in ("ceiling", "knee"):
        for dropped in range(4):
            kept = [[b[figure] for b in g["blocks"][dropped:]] for g in aa if len(g["blocks"]) > dropped + 2]
            means = [statistics.mean(k) for k in kept]
            errors = [statistics.stdev(k) / math.sqrt(len(k)) for k in kept]
            spread = statistics.pstdev(means)
            explained = math.sqrt(statistics.mean(e * e for e in errors))
            excess = math.sqrt(max(0.0, spread ** 2 - explained ** 2))
            print(f"  {figure:<8} first {dropped} left out: from guard to guard ±{100 * spread:.2f} %, their blocks "
                  f"explain ±{100 * explained:.2f} %, the excess ±{100 * excess:.2f} %")


def main(argv):
    every = guards(argv[1] if len(argv) > 1 else "docs/ab-calibration-blocks.log")
    one = [g for g in every if len({b["pair"] for b in g["blocks"]}) == 1]
    two = [g for g in every if len({b["pair"] for b in g["blocks"]}) == 2]
    by_position(one, "one pair of JVMs")
    by_position(two, "two pairs of JVMs (blocks 3-4 and 7-8 on the second)")
    guard_to_guard([g for g in one if g["name"].startswith("A/A")])


if __name__ == "__main__":
    main(sys.argv)
