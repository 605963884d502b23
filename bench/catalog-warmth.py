#!/usr/bin/env python3
"""How warm each sweep of CatalogWarmthIT was: rows for docs/catalog-warmth.tsv, and that file as a table.

    python3 bench/catalog-warmth.py rows CODE RUN LOG [LOG ...] >> docs/catalog-warmth.tsv
    python3 bench/catalog-warmth.py table docs/catalog-warmth.tsv

`rows` reads the console of a run that swept the stock catalog (`.ci/nightly`'s log, or a consumer project's
`mvn verify -Dit.test=CatalogWarmthIT`) and prints one tab-separated row a sweep: CODE (what the kit was, say "before
issue 86 (3561a84)"), RUN (which run), the sweep, its ceiling, its cap, its model's rps, the warm-up's seconds and the
users its last rounds ran at, and the compilers' share of a core at the knee. `table` prints the rows as the figures
page's table, each sweep's ceiling also against the warm JVM's of the same run.
"""
import re
import sys

SWEEP = r"\[bottleneck-kit\] (catalog, [A-Za-z ]+?): "
WARMED = re.compile(SWEEP + r"warmed up in ([0-9.]+) s \(([^)]*)\)")
CAPPED = re.compile(SWEEP + r"capped at ([0-9.]+) rps from \d+ users?: (.*?) — .*= ([0-9.]+) rps")
KNEE = re.compile(SWEEP + r"warm: .*?at the (?:knee|last step) \((\d+) users?\) they took ([0-9.]+) of a core(: still "
                  r"warming)?(?:; the sweep took (\d+) s)?")
CAPS = [("Hikari pool", "Hikari pool"), ("machine's", "the machine's cores"), ("CPU", "CPU")]
COLUMNS = ["code", "run", "sweep", "ceiling", "cap", "model", "warm-up s", "last rounds at", "compilers at the knee",
           "sweep s"]


def rows(code, run, logs):
    sweeps = {}
    for log in logs:
        for line in open(log, errors="replace"):
            for pattern, keys in ((WARMED, ("warm-up", "users")), (CAPPED, ("ceiling", "cap", "model")),
                                  (KNEE, ("knee users", "compilers", "warming", "took"))):
                match = pattern.search(line)
                if match:
                    sweeps.setdefault(match.group(1), {}).update(zip(keys, match.groups()[1:]))
    for name, sweep in sweeps.items():
        cap = next((words for prefix, words in CAPS if sweep.get("cap", "").startswith(prefix)), sweep.get("cap", "?"))
        users = sweep.get("users", "")
        # "2, 4 users, the last rounds at 4", "2, 4, 8 users" (the last one round at its top) or "2 users"
        last = users.rsplit("the last rounds at ", 1)[-1] if "the last rounds at" in users else \
            users.split(" users")[0].split(", ")[-1]
        compilers = sweep.get("compilers", "?") + (" (still warming)" if sweep.get("warming") else "")
        print("\t".join([code, run, name, sweep.get("ceiling", "?"), cap, sweep.get("model", "?"),
                         sweep.get("warm-up", "?"), last, compilers, sweep.get("took") or "?"]))


def table(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip() and not line.startswith("#")]
    warm = {(row[0], row[1]): float(row[3]) for row in rows if row[2].endswith("again") and row[3] != "?"}
    print("| " + " | ".join(COLUMNS[:4]) + " | of the warm JVM's | " + " | ".join(COLUMNS[4:]) + " |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for row in rows:
        against = warm.get((row[0], row[1]))
        share = f"{float(row[3]) / against:.3f}" if against and row[3] != "?" else ""
        print("| " + " | ".join(row[:4]) + f" | {share} | " + " | ".join(row[4:]) + " |")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "rows":
        rows(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
