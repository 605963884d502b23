#!/usr/bin/env python3
"""Two runs' figures side by side, and each run's figures against their models.

    python3 bench/compare-runs.py BEFORE/results.json AFTER/results.json

BEFORE and AFTER are `target/bottleneck-report/results.json` of two runs of the suite. Every fixed load is matched
by scenario, test and case, every sweep step by its sweep and users; the script prints the median change of a
throughput between the runs (how far a change of the code, or of how loads were scheduled, moved the figures), the
largest moves, and every fixed load or sweep verdict of AFTER whose measurement is more than 5 % from its model.
"""
import json
import statistics
import sys


def figures(path):
    runs = json.load(open(path))["runs"]
    loads, steps, models = {}, {}, []
    for run in runs:
        key = (run["scenario"], run["test"], run["case"])
        if run["kind"] == "load" and run.get("measured"):
            loads[key] = run["measured"]["rps"]
            if run.get("model") and run["model"].get("rps"):
                models.append((key, run["measured"]["rps"] / run["model"]["rps"]))
        elif run["kind"] == "sweep" and run.get("sweep"):
            for step in run["sweep"].get("steps", []):
                steps[key + (step.get("users"),)] = step.get("rps") or step.get("throughput")
            verdict = run["sweep"].get("verdict") or {}
            if verdict.get("modelRps") and verdict.get("ceilingRps"):
                models.append((key, verdict["ceilingRps"] / verdict["modelRps"]))
    return loads, steps, models


def changes(before, after):
    out = []
    for key, value in after.items():
        if key in before and before[key] and value:
            out.append((value / before[key] - 1, key))
    return out


def main(before_path, after_path):
    before_loads, before_steps, _ = figures(before_path)
    after_loads, after_steps, models = figures(after_path)
    for label, moved in (("fixed loads", changes(before_loads, after_loads)),
                         ("sweep steps", changes(before_steps, after_steps))):
        if not moved:
            print(f"{label}: none matched")
            continue
        median = statistics.median(abs(change) for change, _ in moved)
        print(f"{label}: {len(moved)} matched, median change {100 * median:.1f} %")
        for change, key in sorted(moved, key=lambda m: -abs(m[0]))[:5]:
            print(f"  {100 * change:+6.1f} %  {' / '.join(str(k) for k in key)}")
    off = [(ratio, key) for key, ratio in models if abs(max(ratio, 1 / ratio) - 1) > 0.05]
    print(f"models: {len(models)} in {after_path}, {len(off)} more than 5 % off")
    for ratio, key in off:
        print(f"  {ratio:.3f}  {' / '.join(key)}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: compare-runs.py BEFORE/results.json AFTER/results.json")
    main(sys.argv[1], sys.argv[2])
