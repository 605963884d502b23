#!/usr/bin/env python3
"""The table .ci/run and .ci/nightly end with: one row a check, its verdict, its figure and its seconds.

    summary.py tests PREFIX REPORTS_DIR RESULTS.json >> ROWS.tsv   # a row per test of a Maven run
    summary.py table ROWS.tsv                                      # the table (Markdown), exit 1 if a row failed

A row of ROWS.tsv is: check, verdict (pass or FAIL), figure, seconds, tab-separated. The scripts write their own rows;
`tests` adds one per test case from Failsafe's reports (TEST-*.xml: its time and whether it failed), its figure the
verdict lines the test's sweeps wrote to results.json (what capped each and its model, or an A/B guard's ratios).
"""
import glob
import json
import sys
import xml.etree.ElementTree as ET


def sweep_figure(sweep):
    """One sweep in a few words: its ceiling and cap with the model, or each A/B figure's ratio."""
    ab = sweep.get("comparison") or {}
    figures = [f for f in ab.get("figures", []) if f["name"] == "ceiling"] or ab.get("figures", [])[:1]
    if figures:
        f = figures[0]
        return (f"{sweep['name']}: {f['name']} B/A {f['ratio']:.3f} ({f['low']:.3f}–{f['high']:.3f}), {f['change']}"
                f"{', regressed' if ab.get('regressed') and f['change'] != 'regressed' else ''}, {ab['took_s']:.0f} s")
    verdict = sweep.get("verdict") or {}
    resource = (verdict.get("resource") or "none").lower().replace("_", " ")
    ceiling, model = sweep.get("ceilingRps"), verdict.get("modelRps")
    if ceiling is None:
        return f"{sweep['name']}: no cap"
    text = f"{sweep['name']}: {ceiling:.1f} rps, {resource}"
    if model:
        text += f", model {model:.1f} ({ceiling / model:.2f})"
    confirmation = sweep.get("confirmation")
    if confirmation:
        text += f"; {'confirmed' if confirmation['confirmed'] else 'not confirmed'} by {confirmation['knob']}"
    return text


def figures_by_test(results):
    by_test = {}
    try:
        runs = json.load(open(results))["runs"]
    except (OSError, ValueError, KeyError):
        return by_test
    for run in runs:
        method = run.get("test", "").split("(")[0]
        if run.get("sweep"):
            by_test.setdefault(method, []).append(sweep_figure(run["sweep"]))
        elif run.get("measured") and run["measured"].get("rps") is not None:
            model = (run.get("model") or {}).get("rps")
            text = f"{run['case']}: {run['measured']['rps']:.1f} rps"
            by_test.setdefault(method, []).append(text + (f", model {model:.1f}" if model else ""))
    return by_test


def tests(prefix, reports, results):
    figures = figures_by_test(results)
    for path in sorted(glob.glob(f"{reports}/TEST-*.xml")):
        for case in ET.parse(path).getroot().iter("testcase"):
            cls = case.get("classname", "").rsplit(".", 1)[-1]
            name = case.get("name", "").split("(")[0]
            failed = case.find("failure") is not None or case.find("error") is not None
            skipped = case.find("skipped") is not None
            verdict = "FAIL" if failed else "skipped" if skipped else "pass"
            figure = "; ".join(figures.get(name, []))
            print(f"{prefix}{cls}#{name}\t{verdict}\t{figure}\t{float(case.get('time', 0)):.0f}")


def table(rows_path):
    rows = [line.rstrip("\n").split("\t") for line in open(rows_path) if line.strip()]
    print("| check | verdict | figure | s |")
    print("|---|---|---|---:|")
    failed = 0
    for check, verdict, figure, seconds in (r + [""] * (4 - len(r)) for r in rows):
        failed += verdict == "FAIL"
        print(f"| {check} | {'**FAIL**' if verdict == 'FAIL' else verdict} | {figure.replace('|', '/')} | {seconds} |")
    print(f"\n{len(rows)} checks, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "tests":
        tests(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        sys.exit(table(sys.argv[2]))
    else:
        sys.exit(__doc__)
