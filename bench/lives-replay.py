#!/usr/bin/env python3
"""What shorter windows would have read, by the kit's own estimator: a run's budget.json replays.

    python3 bench/lives-replay.py target/bottleneck-report/budget.json [latencies=4] [at-least-s=3] [sweeps]

Every closed-loop window is replayed by the kit as it runs (`Measurement.replays`): its requests' lives
counted as if the window had ended after 2, 3, 4, 6 or 8 mean latencies (the answers in it reaching that
many times the users) or after 2 to 6 s. This script applies the rule "`latencies` mean latencies, at least
`at-least-s` seconds" to each window whose figure is a fixed load's (sweep steps, whose windows already end
by cycles, and warm-ups are left out unless `sweeps` is given), and prints the throughput and the mean
latency the shorter window would have read over the whole window's, and the seconds it would have saved.
Unlike bench/window-replay.py (answers per second, from results.json) this is the figure the kit reports.
"""
import json
import sys

SWEEP_STEP = (" users", " user")


def rule(window, latencies, at_least):
    """The replay the rule picks: the later of the latency end and the fixed floor; None: no cut."""
    by_latency = next((r for r in window["replays"] if r["latencies"] == latencies), None)
    if by_latency is None:
        return None
    if by_latency["seconds"] >= at_least:
        return by_latency
    floor = next((r for r in window["replays"] if r["latencies"] == 0 and abs(r["seconds"] - at_least) < 1e-6),
                 None)
    return floor  # None: the whole window is no longer than the floor


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: lives-replay.py budget.json [latencies=4] [at-least-s=3] [sweeps]")
    budget = json.load(open(sys.argv[1]))
    latencies = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    at_least = float(sys.argv[3]) if len(sys.argv) > 3 else 3
    sweeps = len(sys.argv) > 4 and sys.argv[4] == "sweeps"
    print(f"{'class':28} {'load':48} {'s':>5} {'cut s':>5} {'rps':>7} {'mean':>7}")
    whole = cut = 0.0
    rows = 0
    moved = []
    for owner, windows in budget["windows"].items():
        for window in windows:
            name = window["name"]
            if not sweeps and (name.endswith(SWEEP_STEP) or "warm-up" in name):
                continue
            if "replays" not in window:
                continue
            picked = rule(window, latencies, at_least)
            whole += window["seconds"]
            rows += 1
            if picked is None:
                cut += window["seconds"]
                continue
            cut += picked["seconds"]
            flag = "  <-- moved" if abs(picked["throughput"] - 1) > 0.03 else ""
            if flag:
                moved.append(f"{name} {100 * (picked['throughput'] - 1):+.1f} %")
            print(f"{owner[:28]:28} {name[:48]:48} {window['seconds']:5.1f} {picked['seconds']:5.1f}"
                  f" {100 * (picked['throughput'] - 1):+6.1f}% {100 * (picked['meanLatency'] - 1):+6.1f}%{flag}")
    print(f"\n{rows} windows: {whole:.0f} s whole, {cut:.0f} s by the rule ({latencies} mean latencies, at least"
          f" {at_least:g} s); {len(moved)} moved more than 3 %: {', '.join(moved) or 'none'}")


if __name__ == "__main__":
    main()
