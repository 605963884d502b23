#!/usr/bin/env python3
"""How a closed loop's throughput, counted by its requests' lives, spreads between runs.

    python3 bench/skewed-lives-sim.py [runs=4000]

Simulates ClosedLoopLoadTest's skewed server: every request takes 100 or 900 ms at random, users start
together, a 1 s warm-up, then a 3 s (or 9 s) window. A request counts the share of its life inside the window,
those still in flight at its end included, as the kit counts them. Prints each set-up's mean reading against
users / mean latency, its spread between runs, how many spreads away the test's 15 % bound is and the share of
runs that would fail it.
"""
import random
import statistics
import sys


def reading(users, warm_up, window):
    lives = 0.0
    end = warm_up + window
    for _ in range(users):
        t = 0.0
        while t < end:
            latency = 0.1 if random.random() < 0.5 else 0.9
            inside = max(0.0, min(t + latency, end) - max(t, warm_up))
            lives += inside / latency
            t += latency
    return lives / window


def main(runs):
    for users, window in ((40, 3.0), (200, 3.0), (40, 9.0)):
        readings = [reading(users, 1.0, window) for _ in range(runs)]
        mean, spread = statistics.mean(readings), statistics.pstdev(readings)
        model = users / 0.5
        failed = sum(1 for r in readings if abs(r / model - 1) > 0.15) / runs
        print(f"{users} users, {window:.0f} s: mean {mean:.1f} rps ({mean / model:.3f} of {model:.0f}), spread "
              f"{spread:.2f} ({100 * spread / mean:.1f} %), the 15 % bound {(1.15 * model - mean) / spread:.1f} "
              f"spreads above, {100 * failed:.2f} % of runs outside it")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
