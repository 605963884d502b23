#!/usr/bin/env python3
"""The same sweeps and guard on the local engine and on a remote one, side by side (Markdown).

usage: local-remote-table.py LOCAL_RESULTS REMOTE_RESULTS [LOCAL_GUARD REMOTE_GUARD]

Each *_RESULTS is a results.json the kit wrote; a sweep is matched by its name. For each: the cap named, the ceiling
and its model, and the CPU split at the knee (the service's cores and the machine's, as each engine gave them: the
host's cgroups and /proc/stat locally, each container's own cgroup through the engine remotely). The guards' files
give each route's ceiling B/A with its interval. A sweep or guard the local file lacks (.ci/run measured it, not
.ci/nightly) shows the remote side alone.
"""
import json
import os
import sys


def sweeps(path):
    """Every sweep of a results.json by its name; none where the file is not there."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {run["sweep"]["name"]: run["sweep"] for run in json.load(f)["runs"] if run.get("sweep")}


def knee(sweep):
    steps = [s for s in sweep["steps"] if s["users"] == sweep.get("kneeUsers")]
    return steps[0] if steps else sweep["steps"][-1]


def cell(sweep):
    verdict = sweep.get("verdict") or {}
    step = knee(sweep)
    model = verdict.get("modelRps")
    return {
        "cap": verdict.get("resource", "none"),
        "ceiling": f"{sweep['ceilingRps']:.1f}",
        "model": f"{model:.1f}" if model else "none",
        "within": f"{(sweep['ceilingRps'] / model - 1) * 100:+.1f} %" if model else "",
        "cpu": f"{step.get('serviceCores', 0):.2f} / {step.get('machineCores', 0):.2f}",
    }


def main(argv):
    if len(argv) not in (3, 5):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    local, remote = sweeps(argv[1]), sweeps(argv[2])
    print("| sweep | engine | cap named | ceiling rps | model rps | ceiling against model "
          "| cores at the knee: service / machine |")
    print("|---|---|---|---|---|---|---|")
    for name in remote:
        for engine, sweep in (("local", local.get(name)), ("remote", remote[name])):
            if sweep is None:
                print(f"| {name} | local | not in this run | | | | |")
                continue
            c = cell(sweep)
            print(f"| {name} | {engine} | {c['cap']} | {c['ceiling']} | {c['model']} | {c['within']} | {c['cpu']} |")
    if len(argv) == 5:
        print()
        print("| guard | engine | cap named in the head | ceiling B/A (95 %) | one block's spread | outcome |")
        print("|---|---|---|---|---|---|")
        local_guard, remote_guard = sweeps(argv[3]), sweeps(argv[4])
        for name in remote_guard:
            for engine, sweep in (("local", local_guard.get(name)), ("remote", remote_guard[name])):
                comparison = (sweep or {}).get("comparison")
                if not comparison:
                    print(f"| {name} | {engine} | not in this run | | | |")
                    continue
                ceiling = next(f for f in comparison["figures"] if f["name"] == "ceiling")
                print(f"| {name} | {engine} | {comparison['headCap']} | {ceiling['ratio']:.3f} "
                      f"({ceiling['low']:.3f}–{ceiling['high']:.3f}) | ±{ceiling['noise'] * 100:.1f} % "
                      f"| {ceiling['change']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
