#!/usr/bin/env python3
"""Every fixed load of a run against its physical ceiling plus the counting error the kit states.

    python3 bench/physics-check.py target/bottleneck-report/results.json [more results.json ...]

A fixed load whose model is a ceiling (K units held W each: K / W requests per second) can never serve more; the
kit counts throughput by the requests' lives inside a window of T seconds, which can read above K / W by the lives
of the requests still waiting when the window ends. The stated bound, as QueueCeilingTest holds six queues to it:

    measured / (K / W)  <=  1 + max(3 %, (users - K) / (3 * K / W * T))

The bound is for a window that opens on the queue in its stride (after a warm-up of a mean latency or more): one
that opens on an idle queue credits the lives of the requests still waiting at its end with none begun before its
start to balance them (S9's virtual threads, 8 users one at a time on one carrier, no warm-up: 1.08 and 1.13 of
the core's ceiling). Such a window is marked "cold".

Prints one line per fixed load with a ceiling model (closed loops; an open loop offered less than the ceiling is
bounded by its offer, and so listed against the lower of the two), then every sweep's "capped" verdict with its
model's rps against the ceiling (held to 10 %), and exits 1 when any fixed load reads above its bound or any
verdict's model lies more than 10 % from its ceiling.
"""
import json
import sys

FLOOR = 0.03

VERDICT_MODEL = 0.10


def verdicts(paths):
    """(sweep, resource, ceiling, model) of every capped verdict."""
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for run in data.get("runs", []):
            sweep = run.get("sweep") or {}
            verdict = sweep.get("verdict") or {}
            if verdict.get("modelRps") and verdict.get("ceilingRps"):
                yield sweep["name"], verdict["resource"], verdict["ceilingRps"], verdict["modelRps"]


def runs(path):
    with open(path) as f:
        data = json.load(f)
    for run in data.get("runs", []):
        model = run.get("model") or {}
        if run.get("kind") != "load" or "limit" not in model or not model.get("rps"):
            continue
        yield run, model


def main(paths):
    over = 0
    rows = []
    for path in paths:
        for run, model in runs(path):
            load = run["load"]
            users, window = load["users"], load["window_s"]
            physical = model["rps"]
            offered = load.get("offeredRps")
            ceiling = min(physical, offered) if offered else physical
            measured = run["measured"]["rps"]
            if not window or not ceiling:
                continue
            queued = max(0, users - model["limit"]) if not offered else 0
            error = max(FLOOR, queued / (3 * ceiling * window))
            ratio = measured / ceiling
            ok = ratio <= 1 + error
            over += 0 if ok else 1
            cold = queued > 0 and load.get("warmUp_s", 0) * 1000 < run["measured"]["latency_ms"]["mean"]
            rows.append((run["scenario"], run["case"], model["resource"], users, window, ceiling, measured,
                         ratio, 1 + error, ok, cold))
    print("| scenario | load | resource | users | window s | ceiling rps | measured rps | ratio | allowed | |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s, name, resource, users, window, ceiling, measured, ratio, allowed, ok, cold in rows:
        flags = ", ".join(flag for flag in ("" if ok else "ABOVE", "cold" if cold else "") if flag)
        print(f"| {s} | {name} | {resource} | {users} | {window:.1f} | {ceiling:.2f} | {measured:.2f} | {ratio:.3f} |"
              f" {allowed:.3f} | {flags} |")
    highest = max(rows, key=lambda r: r[7]) if rows else None
    print(f"\n{len(rows)} fixed loads with a ceiling model, {over} above their bound"
          + (f"; the highest ratio {highest[7]:.3f} ({highest[0]} {highest[1]}, allowed {highest[8]:.3f})"
             if highest else ""))
    far = 0
    print("\n| sweep | verdict | ceiling rps | model rps | model / ceiling | |")
    print("|---|---|---|---|---|---|")
    rows = list(verdicts(paths))
    for name, resource, ceiling, model in rows:
        ok = abs(model / ceiling - 1) <= VERDICT_MODEL
        far += 0 if ok else 1
        print(f"| {name} | {resource} | {ceiling:.2f} | {model:.2f} | {model / ceiling:.3f} | {'' if ok else 'FAR'} |")
    print(f"\n{len(rows)} capped verdicts, {far} with a model more than {VERDICT_MODEL:.0%} from the ceiling")
    return 1 if over or far else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
