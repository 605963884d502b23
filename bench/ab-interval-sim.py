#!/usr/bin/env python3
"""The A/B guard's interval, checked by simulation and by replaying real blocks (a benchmark that prints figures).

The guard's interval is the 20 % trimmed mean of the blocks' log ratios with the Tukey-McLaughlin standard error and
the statistic's own 97.5 % points (src/main/java/dev/bottleneckkit/sweep/internal/analysis/TrimmedInterval.java, whose POINTS this
script reads, so what is checked is what the kit uses).

  bench/ab-interval-sim.py --quantiles [--trials 400000]   the 97.5 % points under normal blocks, 5 to 16 blocks
  bench/ab-interval-sim.py [--trials 20000]                 coverage and half-width: Student's t against the trimmed
                                                            interval, on normal, heavy-tailed and paused blocks
  bench/ab-interval-sim.py --replay LOG...                  the same on the A/A and A/B blocks the logs printed
                                                            ("A/B block N: A x / B y rps at K users, A x / B y at C")
  bench/ab-interval-sim.py --sequential [--trials 200000]   the sequential guard's interval, valid at every look
                                                            (every even count of blocks from 4 to LOOKS_UP_TO): the
                                                            constant its points are widened by, and how its rule
                                                            decides (red, green within the bound, unresolved) by the
                                                            change, the noise and the blocks a budget allows
"""
import math
import random
import re
import sys
from pathlib import Path

JAVA = Path(__file__).resolve().parent.parent / "src/main/java/dev/bottleneckkit/sweep/internal/analysis/TrimmedInterval.java"
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086]


def points():
    text = JAVA.read_text()
    body = re.search(r"POINTS = \{([^}]*)\}", text).group(1)
    return [float(v) for v in body.replace("\n", " ").replace("\t", " ").split(",") if v.strip()]


POINTS = points()


def t975(df):
    return T975[df - 1] if df <= len(T975) else 1.96 + 2.4 / df


def trimmed_count(n):
    return int(math.floor(0.2 * n))


def early_point():
    return float(re.search(r"EARLY_POINT = ([\d.]+);", JAVA.read_text()).group(1))


EARLY_POINT = early_point()


def point(n):
    """TrimmedInterval.point: the early stop's own at 4 blocks, Student's below 5, else the trimmed statistic's."""
    if n == 4:
        return EARLY_POINT
    g = trimmed_count(n)
    if g == 0:
        return t975(n - 1)
    if n - 5 < len(POINTS):
        return POINTS[n - 5]
    return 1.05 * t975(n - 2 * g - 1)


def trimmed_stat(x):
    """(trimmed mean, its standard error)."""
    n = len(x)
    y = sorted(x)
    g = trimmed_count(n)
    h = n - 2 * g
    m = sum(y[g:n - g]) / h
    w = [y[max(g, min(n - 1 - g, i))] for i in range(n)]
    wm = sum(w) / n
    sw = math.sqrt(sum((v - wm) ** 2 for v in w) / (n - 1))
    return m, sw * math.sqrt(n) / h


def trimmed(x):
    m, se = trimmed_stat(x)
    return m - point(len(x)) * se, m + point(len(x)) * se


def interval(x):
    """The guard's fixed-count interval for its blocks (TrimmedInterval.of): below 5 blocks untrimmed, at its own point."""
    return trimmed(x) if trimmed_count(len(x)) > 0 else student(x, point(len(x)))


def student(x, t=None):
    n = len(x)
    m = sum(x) / n
    s = math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1))
    h = (t or t975(n - 1)) * s / math.sqrt(n)
    return m - h, m + h


def blocks(kind, n, sigma, rnd):
    if kind == "normal":
        return [rnd.gauss(0, sigma) for _ in range(n)]
    if kind == "heavy tails (t, 3 df)":
        return [sigma * rnd.gauss(0, 1) / math.sqrt(sum(rnd.gauss(0, 1) ** 2 for _ in range(3)) / 3) / math.sqrt(3)
                for _ in range(n)]
    if kind == "one block paused (8 sd)":
        x = [rnd.gauss(0, sigma) for _ in range(n)]
        x[rnd.randrange(n)] += rnd.choice((-1, 1)) * 8 * sigma
        return x
    if kind == "1 block in 10 paused":
        return [rnd.gauss(0, sigma) + (rnd.choice((-1, 1)) * 8 * sigma if rnd.random() < 0.1 else 0)
                for _ in range(n)]
    if kind == "skewed loads, A/A":
        return [sigma * (rnd.expovariate(1) - rnd.expovariate(1)) / math.sqrt(2) for _ in range(n)]
    raise ValueError(kind)


STUDENT = "Student's t"
KINDS = ["normal", "heavy tails (t, 3 df)", "one block paused (8 sd)", "1 block in 10 paused", "skewed loads, A/A"]


def quantiles(trials):
    rnd = random.Random(7)
    print("| blocks | trimmed at each end | 97.5 % point | Student's t at kept - 1 df |")
    print("|---:|---:|---:|---:|")
    for n in range(5, 17):
        stats = []
        for _ in range(trials):
            m, se = trimmed_stat([rnd.gauss(0, 1) for _ in range(n)])
            stats.append(abs(m / se))
        stats.sort()
        g = trimmed_count(n)
        print(f"| {n} | {g} | {stats[int(0.95 * trials)]:.3f} | {t975(n - 2 * g - 1):.3f} |", flush=True)


def cover(sample, trials, rnd, cut=0.07, bound=0.05):
    """Per interval: coverage of the truth, the top below the truth (a red at a bound of 0, nominally 2.5 %),
    the median half-width, and the share of guards that find a cut of `cut` at `bound`."""
    rows = {STUDENT: [0, 0, [], 0], "trimmed": [0, 0, [], 0]}
    for _ in range(trials):
        x = sample(rnd)
        for name, interval in ((STUDENT, student), ("trimmed", trimmed)):
            low, high = interval(x)
            row = rows[name]
            row[0] += low <= 0 <= high
            row[1] += high < 0
            row[2].append((math.exp(high) - math.exp(low)) / 2)
            row[3] += math.exp(high + math.log(1 - cut)) < 1 - bound
    return {name: (c / trials, below / trials, sorted(w)[trials // 2], found / trials)
            for name, (c, below, w, found) in rows.items()}


def simulate(trials):
    rnd = random.Random(11)
    print(f"{trials} simulated guards a row, a block's log ratio spread by 1 %; each column Student's t / trimmed")
    print()
    print("| blocks | blocks' noise | covers the truth | top below the truth (nominal 0.025) | half-width "
          "| a 7 % cut found at 5 % |")
    print("|---:|---|---:|---:|---:|---:|")
    for n in (6, 8):
        for kind in KINDS:
            r = cover(lambda g: blocks(kind, n, 0.01, g), trials, rnd)
            s, t = r[STUDENT], r["trimmed"]
            print(f"| {n} | {kind} | {s[0]:.3f} / {t[0]:.3f} | {s[1]:.3f} / {t[1]:.3f} "
                  f"| ±{100 * s[2]:.2f} % / ±{100 * t[2]:.2f} % | {s[3]:.3f} / {t[3]:.3f} |", flush=True)


BLOCK = re.compile(r"(?P<name>[^\]]*?): A/B block \d+(?: \([AB] first\))?(?:, pair \d+)?: A (?P<ak>[\d.]+) / B (?P<bk>[\d.]+) rps "
                   r"at \d+ users, A (?P<ac>[\d.]+) / B (?P<bc>[\d.]+) at \d+")


def replay(paths, trials):
    runs = []
    for path in paths:
        current = None
        for line in Path(path).read_text(errors="replace").splitlines():
            match = BLOCK.search(line)
            if match:
                if current is None:
                    current = []
                    runs.append(current)
                current.append(math.log(float(match["bc"]) / float(match["ac"])))
            elif current is not None and "against A (" in line:
                current = None
    runs = [run for run in runs if len(run) >= 3]
    residuals = []
    for run in runs:
        mean = sum(run) / len(run)
        scale = math.sqrt(len(run) / (len(run) - 1))
        residuals += [(v - mean) * scale for v in run]
    sd = math.sqrt(sum(v * v for v in residuals) / max(1, len(residuals) - 1))
    print(f"{len(runs)} guards' ceilings in {len(paths)} logs: {len(residuals)} blocks, their log ratios less their "
          f"guard's mean (A/B runs keep only their noise), standard deviation {100 * sd:.2f} %")
    print("each replayed guard draws its blocks from these with a random sign (A/A is symmetric)")
    print()
    rnd = random.Random(13)
    print("| blocks | covers the truth | top below the truth (nominal 0.025) | half-width | a 7 % cut found at 5 % |")
    print("|---:|---:|---:|---:|---:|")
    for n in (6, 8):
        r = cover(lambda g: [g.choice((-1, 1)) * g.choice(residuals) for _ in range(n)], trials, rnd)
        s, t = r[STUDENT], r["trimmed"]
        print(f"| {n} | {s[0]:.3f} / {t[0]:.3f} | {s[1]:.3f} / {t[1]:.3f} | ±{100 * s[2]:.2f} % / ±{100 * t[2]:.2f} % "
              f"| {s[3]:.3f} / {t[3]:.3f} |")


LOOKS_UP_TO = 16


def looks():
    """The counts of blocks at which the sequential guard looks: every even count from 4 (A first as often as B)."""
    return list(range(4, LOOKS_UP_TO + 1, 2))


def fixed_point(n):
    """The fixed-count 97.5 % point at n blocks: Student's below 5 (nothing trimmed), else the trimmed statistic's."""
    return t975(n - 1) if trimmed_count(n) == 0 else POINTS[n - 5]


def sequential_constant(trials, rnd):
    """The Pocock-shaped widening of the fixed-count points: under normal blocks, the 95th percentile over guards of
    the largest |trimmed mean / its standard error| / point at any look. Intervals at c times each point then cover
    the truth at every look at once in 95 % of guards (repeated confidence intervals, Jennison & Turnbull 1989)."""
    worst = []
    for _ in range(trials):
        x = [rnd.gauss(0, 1) for _ in range(LOOKS_UP_TO)]
        most = 0
        for n in looks():
            m, se = trimmed_stat(x[:n]) if trimmed_count(n) else (sum(x[:n]) / n, math.sqrt(
                sum((v - sum(x[:n]) / n) ** 2 for v in x[:n]) / (n - 1)) / math.sqrt(n))
            most = max(most, abs(m / se) / fixed_point(n))
        worst.append(most)
    worst.sort()
    return worst[int(0.95 * trials)]


def sequential_interval(x, c):
    n = len(x)
    if trimmed_count(n):
        m, se = trimmed_stat(x)
    else:
        m = sum(x) / n
        se = math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1)) / math.sqrt(n)
    h = c * fixed_point(n) * se
    return m - h, m + h


def decide(x, c, bound):
    """red (its interval wholly below 1 - bound), green (wholly within ±bound), improved, or None: one more block."""
    low, high = (math.exp(v) for v in sequential_interval(x, c))
    if high < 1 - bound:
        return "red"
    if low > 1 + bound:
        return "improved"
    if low > 1 - bound and high < 1 + bound:
        return "green"
    return None


def sequential(trials):
    rnd = random.Random(23)
    c = sequential_constant(trials, rnd)
    print(f"the constant: {c:.3f} ({trials} guards of normal blocks, looks at {looks()} blocks); the points widened:")
    print()
    print("| blocks | fixed-count point | sequential point |")
    print("|---:|---:|---:|")
    for n in looks():
        print(f"| {n} | {fixed_point(n):.3f} | {c * fixed_point(n):.3f} |")
    print()
    guards = max(2000, trials // 50)
    print(f"how the rule decides, {guards} guards a row, at most 8 / {LOOKS_UP_TO} blocks (what a budget allows): red,"
          " green (within the bound), unresolved, and the median blocks of the decided; blocks alone, without the"
          " pairs of JVMs' term")
    print()
    print("| bound | a block's noise | B/A | blocks' kind | red | green | unresolved | median blocks |")
    print("|---:|---:|---:|---|---:|---:|---:|---:|")
    for bound in (0.02, 0.05):
        for sigma in (0.002, 0.006, 0.011, 0.02):
            for ratio in (1.0, 0.97, 0.95, 0.9, 0.5):
                for kind in ("normal", "one block paused (8 sd)"):
                    cells = []
                    for most in (8, LOOKS_UP_TO):
                        counts = {"red": 0, "green": 0, "improved": 0, None: 0}
                        taken = []
                        for _ in range(guards):
                            x = [v + math.log(ratio) for v in blocks(kind, most, sigma, rnd)]
                            answer = None
                            for n in looks():
                                if n > most:
                                    break
                                answer = decide(x[:n], c, bound)
                                if answer:
                                    taken.append(n)
                                    break
                            counts[answer] += 1
                        taken.sort()
                        cells.append((counts["red"] / guards, counts["green"] / guards, counts[None] / guards,
                                      taken[len(taken) // 2] if taken else 0))
                    a, b = cells
                    print(f"| {100 * bound:.0f} % | {100 * sigma:.1f} % | {ratio:.2f} | {kind} | {a[0]:.3f} / {b[0]:.3f}"
                          f" | {a[1]:.3f} / {b[1]:.3f} | {a[2]:.3f} / {b[2]:.3f} | {a[3]} / {b[3]} |", flush=True)


def main(argv):
    trials = int(argv[argv.index("--trials") + 1]) if "--trials" in argv else None
    if "--quantiles" in argv:
        quantiles(trials or 400000)
    elif "--sequential" in argv:
        sequential(trials or 200000)
    elif "--replay" in argv:
        paths = [a for a in argv[argv.index("--replay") + 1:] if not a.startswith("--") and not a.isdigit()]
        replay(paths, trials or 20000)
    else:
        simulate(trials or 20000)


if __name__ == "__main__":
    main(sys.argv[1:])
