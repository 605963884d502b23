#!/usr/bin/env python3
"""What a CPU-bound guard's last blocks buy, replayed from the calibration's blocks (a benchmark that prints figures).

  bench/ab-fewer-blocks.py [docs/ab-calibration.tsv] [--codes KIT,KIT]

For the guards in 500 ms turns (the CPU route's), it takes each guard's blocks from the blocks log beside the results
file, matched to the results' rows in order (a guard's verdict line follows its blocks), and replays the throughput
intervals (the ceiling's and the knee's; the log keeps no p99) as if the guard had stopped after its first 4, 6 or all
blocks: the trimmed interval of ABComparison.figures with the spread between pairs of JVMs (today's PAIR_SPREAD, also
on older code's blocks, shrunk by the pairs those blocks came from). The newest code's guards unless --codes names
others. For each kind and each count it prints the reds at b = 1 and 2 % (a throughput interval wholly below 1 - b; for
an A/A kind these are false reds), the median half-width of the ceiling's interval, and the time a guard would have
saved: the blocks left out at the guard's own time a block (its "A/B took" line's blocks over their count; on two pairs
that time holds the second pair's start and warm-ups too). A replay at all blocks reproduces the guards' own
throughput intervals; its reds leave out the p99's and a moved cap.
"""
import csv
import math
import re
import statistics
import sys
from pathlib import Path

from ab_common import PAIR_SPREAD, SIM, blocks_log, module

TABLE = module("table", "ab-calibration-table.py")
BLOCK = re.compile(r"\] (.*?) #(\d+): A/B block (\d+) \((?:A|B) first\)(?:, pair (\d))?: A ([\d.]+) / B ([\d.]+) rps "
                   r"at \d+ users?, A ([\d.]+) / B ([\d.]+) at(.*)")
COUNTS = (4, 6, None)
BOUNDS = (0.01, 0.02)


def guards(log):
    """Each guard's blocks and its took line, in the order the guards ended."""
    ended, blocks, took = [], [], None
    for line in log.splitlines():
        if m := BLOCK.search(line):
            if int(m[3]) == 1:
                blocks = []
            a_knee, b_knee, a_ceiling, b_ceiling = map(float, m.group(5, 6, 7, 8))
            blocks.append({"pair": int(m[4] or 1), "turns": "turns" in m[9], "knee": math.log(b_knee / a_knee),
                           "ceiling": math.log(b_ceiling / a_ceiling)})
        elif m := TABLE.TOOK.search(line):
            took = int(m[6]) / max(1, len(blocks))
        elif m := TABLE.VERDICT.search(line):
            ended.append({"kind": m[1], "run": m[2], "blocks": blocks, "block_s": took})
            blocks, took = [], None
    return ended


def interval(blocks, figure):
    """The replayed 95 % interval of B / A, as ABComparison.figures makes it, and its half-width as the table's."""
    low, high = SIM.interval([b[figure] for b in blocks])
    shares = [sum(1 for b in blocks if b["pair"] == p) / len(blocks) for p in {b["pair"] for b in blocks}]
    pairs = PAIR_SPREAD * math.sqrt(sum(s * s for s in shares))
    half = math.hypot((high - low) / 2, 1.96 * pairs)
    low, high = math.exp((low + high) / 2 - half), math.exp((low + high) / 2 + half)
    return low, high, (high - low) / 2


def main(argv):
    path = Path(next((a for a in argv[1:] if not a.startswith("--") and "," not in a), "docs/ab-calibration.tsv"))
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    ended = guards(blocks_log(path))
    matched = [(rows[index], guard)
               for index, guard in TABLE.in_order(rows, ended, lambda guard: (guard["kind"], guard["run"])).items()
               if guard["blocks"] and all(b["turns"] for b in guard["blocks"])]
    codes = argv[argv.index("--codes") + 1].split(",") if "--codes" in argv else [TABLE.kit_of(rows[-1])]
    print("| kind | code | guards | blocks | red at 1 % / 2 % | median ± (ceiling) | a guard saves, median s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for code in codes:
        of = [(r, g) for r, g in matched if TABLE.kit_of(r) == code]
        for kind in dict.fromkeys(r["kind"] for r, _ in of):
            mine = [g for r, g in of if r["kind"] == kind]
            for count in COUNTS:
                kept = [g["blocks"][:count] if count else g["blocks"] for g in mine]
                if count and any(len(g["blocks"]) < count for g in mine):
                    continue
                reds = [sum(1 for b in kept if any(interval(b, f)[1] < 1 - bound for f in ("ceiling", "knee")))
                        for bound in BOUNDS]
                half = statistics.median(interval(b, "ceiling")[2] for b in kept)
                saved = [(len(g["blocks"]) - len(b)) * g["block_s"] for g, b in zip(mine, kept) if g["block_s"]]
                spared = f"{statistics.median(saved):.0f}" if saved else "—"
                print(f"| {kind} | {code} | {len(mine)} | {count or 'all'} | {reds[0]} / {reds[1]} | "
                      f"±{100 * half:.1f} % | {spared} |")


if __name__ == "__main__":
    main(sys.argv)
