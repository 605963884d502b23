#!/usr/bin/env python3
"""The table of bench/relay-probe.sh's results: for each run (two containers started once, named by the minute it
started) and each turn length, the blocks, their B/A ratio (geometric mean) and the spread of one block's ratio (the
standard deviation of the log ratios), twice: of the answers each side had in its own turns, which the drain at each
turn's start bends away from 1 the shorter the turns, and of each side's rate at full load (its answers once the
other side's last answer was in, over the time from then to its turn's end), and where a run has it, of that rate
with each side's requests counted by their lives (the guard's figure, since the probe runs on the kit's load in
turns). Then the 95 % half-width of the mean over the run's blocks (Student's t), of the last of these a run has.
Under the table, each turn length's block spread pooled over every run (each block's log ratio about its own run's
mean, of the last of these a run has). A
spread that falls with shorter turns is drift the turns average away; one that does not is noise of the service's own.

  bench/relay-probe-table.py [docs/relay-probe.tsv]
"""
import csv
import datetime
import math
import statistics
import sys

# Student's t, two-sided 95 %, by degrees of freedom (a run has few blocks).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20,
       12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13}


def summary(logs):
    """The geometric mean, one block's spread and the mean's 95 % half-width, of block log ratios."""
    n = len(logs)
    sd = statistics.stdev(logs) if n > 1 else float("nan")
    return math.exp(statistics.mean(logs)), sd, (T95.get(n - 1, 1.96) * sd / math.sqrt(n) if n > 1 else float("nan"))


def main(argv):
    path = argv[0] if argv else "docs/relay-probe.tsv"
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    print("| run (UTC) | head over base | turn | blocks | B/A, answers | a block ± | B/A at full load | a block ± "
          "| by lives | a block ± | mean ± (95 %) | answers a turn |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    pooled = {}
    runs = []
    for row in rows:
        if row["pair"] not in runs:
            runs.append(row["pair"])
    for run in runs:
        these = [r for r in rows if r["pair"] == run]
        started = datetime.datetime.fromtimestamp(int(run), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
        change = " / ".join(these[0][side].rsplit(":", 1)[-1].split("-")[0] for side in ("head", "base"))
        for turn in sorted({int(r["turn_ms"]) for r in these}):
            at = [r for r in these if int(r["turn_ms"]) == turn]
            # Each estimator's block log ratios, where every block of the run has it: the answers in own turns,
            # the rate at full load by whole answers, and by the requests' lives.
            columns = [[math.log(float(r[key])) for r in at] if all(r.get(key) for r in at) else None
                       for key in ("ratio", "rate_ratio", "lives_ratio")]
            cells = ""
            for logs in columns:
                if logs:
                    ratio, sd, half = summary(logs)
                    cells += f"| {ratio:.3f} | ±{100 * sd:.1f} % "
                else:
                    cells += "| — | — "
            answers, rates, lives = columns
            logs = lives or rates or answers
            squares, df, blocks = pooled.get(turn, (0.0, 0, 0))
            pooled[turn] = (squares + sum((x - statistics.mean(logs)) ** 2 for x in logs), df + len(logs) - 1,
                            blocks + len(logs))
            per_turn = statistics.mean((int(r["a_answers"]) + int(r["b_answers"])) / (2 * int(r["turns_each"]))
                                       for r in at)
            print(f"| {started} | {change} | {turn} ms | {len(at)} {cells}| ±{100 * half:.1f} % | {per_turn:.0f} |")
    print()
    print("Pooled over every run, one block's spread: " + "; ".join(
        f"{turn} ms ±{100 * math.sqrt(squares / df):.1f} % ({blocks} blocks)"
        for turn, (squares, df, blocks) in sorted(pooled.items()) if df) + ".")


if __name__ == "__main__":
    main(sys.argv[1:])
