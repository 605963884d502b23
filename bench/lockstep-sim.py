#!/usr/bin/env python3
"""A closed loop against a small pool with a pending timeout: the lives estimator's error
when the users start at once, and when they join over the warm-up's first half.

The pool: 5 connections held 505 ms (+/- 3 ms), 4 ms of the caller's own before and after,
acquisitions that wait 500 ms at most (S6's WebClient caller). A sweep's step: warm-up 1.03 s
(two W1), a window that ends once every user answered three times in it (ForCycles(2)), at
least 1 s and at most 6 s. The long-run rate comes from one 400 s run.

    python3 bench/lockstep-sim.py [runs]

Printed (200 runs): users started at once read up to 6.7 % above the long run at 16 users
(mean +2.5 %), 5.7 % at 8; joined over 0.515 s, up to 1.2 % (mean +0.4 %) and 0.9 %.
"""
import heapq
import random
import statistics
import sys


def run(seed, users=16, conns=5, hold=0.505, jitter=0.003, before=0.004, after=0.004, timeout=0.5,
        warm=1.03, ramp=0.0, cycles=2, longest=6.0, shortest=1.0, horizon=None):
    rnd = random.Random(seed)
    events, seq = [], [0]

    def push(t, kind, data):
        seq[0] += 1
        heapq.heappush(events, (t, seq[0], kind, data))

    free, pending, lives = conns, [], []
    start, end = warm, warm + longest if horizon is None else horizon
    answered, ready, ended = [0] * users, 0, False
    began = {}
    for u in range(users):
        push(ramp * u / users + rnd.random() * 0.001, 'send', u)
    while events:
        t, _, kind, data = heapq.heappop(events)
        if t > (end + 3 if horizon is None else horizon):
            break
        if kind == 'send':
            if horizon is None and t >= end:
                continue
            began[data] = t
            push(t + before, 'acquire', data)
        elif kind == 'acquire':
            if free > 0:
                free -= 1
                push(t + hold + rnd.gauss(0, jitter), 'release', data)
            else:
                waiter = [data, True]
                pending.append(waiter)
                push(t + timeout, 'timeout', waiter)
        elif kind == 'timeout':
            if data[1]:
                data[1] = False
                pending.remove(data)
                push(t + after, 'done', (data[0], False))
        elif kind == 'release':
            push(t + after, 'done', (data, True))
            if pending:
                waiter = pending.pop(0)
                waiter[1] = False
                push(t + hold + rnd.gauss(0, jitter), 'release', waiter[0])
            else:
                free += 1
        elif kind == 'done':
            u, ok = data
            s = began[u]
            if t > start and s < end:
                lives.append((s, t, ok))
            if horizon is None and start < t <= end and not ended:
                answered[u] += 1
                if answered[u] == cycles + 1:
                    ready += 1
                    if ready == users:
                        end, ended = max(t, start + shortest), True
            push(t + 0.0005, 'send', u)
    shares = sum((min(e, end) - max(s, start)) / (e - s) for s, e, ok in lives if ok and min(e, end) > max(s, start))
    return shares / (end - start)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for users in (8, 16):
        longrun = run(1, users=users, warm=5, horizon=400)
        print(f"{users} users, long run {longrun:.2f} rps")
        for ramp, what in ((0.0, "at once"), (0.515, "joined over 0.515 s")):
            read = [run(seed, users=users, ramp=ramp) for seed in range(runs)]
            print(f"  {what:>20}: mean {100 * (statistics.mean(read) / longrun - 1):+.1f} %,"
                  f" highest {100 * (max(read) / longrun - 1):+.1f} %, lowest {100 * (min(read) / longrun - 1):+.1f} %")


if __name__ == "__main__":
    main()
