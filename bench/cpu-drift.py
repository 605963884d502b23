#!/usr/bin/env python3
"""How a machine's cores drift: each core, pinned, runs chained SHA-256 for a while and counts its rounds every
quarter second; the table gives each core's spread over quarter seconds and over 3 s windows (an A/B block's), the
spread of one core's 3 s window against the other's taken at the same time, and their correlation. Then both cores
together, as a JVM that fills them sees them: their spread over windows of 3 to 24 s (whether a longer window averages
the drift away), and the ratio of each 3 s window to the next (what A and B loaded in turn meet). A benchmark that
prints figures, not a test; run it with nothing else on the machine.

    bench/cpu-drift.py [SECONDS=60]

On a route the CPU caps, an A/B block's ratio carries this drift: A and B loaded in turn meet the machine's speed of
their own seconds. Loaded at once (a duet), each JVM keeps mostly to a core of its own, and the ratio carries one
core's drift against the other's, the table's last line, which is worse where the cores drift each on its own.
"""
import hashlib
import os
import statistics
import sys
import time
from multiprocessing import Process, Queue

QUARTER = 0.25
LONGER = (3, 6, 12, 24)


def count(core, seconds, out):
    os.sched_setaffinity(0, {core})
    end = time.time() + seconds
    rounds, chain = [], b"x" * 64
    while time.time() < end:
        began, n = time.time(), 0
        while time.time() - began < QUARTER:
            for _ in range(200):
                chain = hashlib.sha256(chain).digest()
            n += 200
        rounds.append(n)
    out.put((core, rounds))


def spread(values):
    return 100 * statistics.stdev(values) / statistics.mean(values)


def windows(values, quarters):
    return [sum(values[i:i + quarters]) for i in range(0, len(values) - quarters + 1, quarters)]


def main(argv):
    seconds = float(argv[0]) if argv else 60
    cores = sorted(os.sched_getaffinity(0))[:2]
    out = Queue()
    workers = [Process(target=count, args=(core, seconds, out)) for core in cores]
    for worker in workers:
        worker.start()
    counted = dict(out.get() for _ in workers)
    for worker in workers:
        worker.join()
    n = min(len(r) for r in counted.values())
    print(f"| core | rounds a second | spread, {QUARTER:g} s | spread, 3 s windows |")
    print("|---|---:|---:|---:|")
    for core in cores:
        rounds = counted[core][:n]
        print(f"| {core} | {statistics.mean(rounds) / QUARTER:,.0f} | ±{spread(rounds):.1f} % "
              f"| ±{spread(windows(rounds, int(3 / QUARTER))):.1f} % |")
    if len(cores) == 2:
        a, b = (windows(counted[core][:n], int(3 / QUARTER)) for core in cores)
        print()
        print(f"One core's 3 s window over the other's at the same time: ±{spread([x / y for x, y in zip(a, b)]):.1f} %;"
              f" correlation of the two cores' quarter seconds "
              f"{statistics.correlation(counted[cores[0]][:n], counted[cores[1]][:n]):.2f}.")
    both = [sum(rounds) for rounds in zip(*(counted[core][:n] for core in cores))]
    print()
    print("| both cores | " + " | ".join(f"{s} s windows" for s in LONGER) + " | a 3 s window over the next |")
    print("|---|" + "---:|" * (len(LONGER) + 1))
    longer = {s: windows(both, int(s / QUARTER)) for s in LONGER}
    turns = longer[3]
    print("| spread | " + " | ".join(f"±{spread(longer[s]):.1f} %" for s in LONGER)
          + f" | ±{spread([b / a for a, b in zip(turns[::2], turns[1::2])]):.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])
