#!/usr/bin/env python3
"""Writes the repeated-launch samples under Samples/launches/ (baseline and candidate runs of the
same app, the candidate with a slower didFinishLaunching and an occasional stall), used by the
summary and diff golden tests. Deterministic: rerunning gives the same files."""
import json
import os
import random

ROOT = os.path.join(os.path.dirname(__file__), "..", "Samples", "launches")


def run(rng, slowdown, stall):
    ms = 1_000_000
    events = []
    t = 0
    events.append({"ts": t, "type": "launch", "reason": "user", "pid": rng.randrange(1000, 9000)})
    t += rng.randrange(40, 60) * ms
    events.append({"ts": t, "type": "runloop.wake"})
    events.append({"ts": t, "type": "callback", "name": "willFinishLaunching", "dur": rng.randrange(2, 5) * ms})
    t += 6 * ms
    work = int(rng.randrange(120, 160) * slowdown) * ms
    events.append({"ts": t, "type": "callback.begin", "name": "didFinishLaunching"})
    events.append({"ts": t + ms, "type": "signpost.begin", "name": "openDatabase"})
    events.append({"ts": t + ms + work // 2, "type": "signpost.end", "name": "openDatabase"})
    t += work
    events.append({"ts": t, "type": "callback.end", "name": "didFinishLaunching"})
    t += ms
    events.append({"ts": t, "type": "callback.begin", "name": "sceneWillConnect", "scene": "main"})
    t += 3 * ms
    events.append({"ts": t, "type": "callback.end", "name": "sceneWillConnect", "scene": "main"})
    events.append({"ts": t, "type": "callback", "name": "sceneWillEnterForeground", "scene": "main", "dur": ms})
    t += 2 * ms
    events.append({"ts": t, "type": "state", "to": "active"})
    events.append({"ts": t, "type": "callback", "name": "sceneDidBecomeActive", "scene": "main", "dur": 2 * ms})
    t += 3 * ms
    events.append({"ts": t, "type": "runloop.sleep"})
    t += rng.randrange(10, 17) * ms
    events.append({"ts": t, "type": "frame", "first": True})
    for _ in range(4):
        t += 16 * ms
        events.append({"ts": t, "type": "runloop.wake"})
        busy = (300 if stall else rng.randrange(3, 9)) * ms
        stall = False
        events.append({"ts": t + ms, "type": "mark", "name": "feedRefresh"})
        t += busy
        events.append({"ts": t, "type": "runloop.sleep"})
        events.append({"ts": t + ms, "type": "frame"})
    t += 500 * ms
    events.append({"ts": t, "type": "state", "to": "inactive"})
    events.append({"ts": t, "type": "callback", "name": "sceneWillResignActive", "scene": "main", "dur": ms})
    t += 2 * ms
    events.append({"ts": t, "type": "state", "to": "background"})
    events.append({"ts": t, "type": "callback", "name": "sceneDidEnterBackground", "scene": "main", "dur": 2 * ms})
    t += 100 * ms
    events.append({"ts": t, "type": "state", "to": "suspended"})
    t += 1000 * ms
    events.append({"ts": t, "type": "exit", "signal": 9})
    return events


def write(side, index, events, seed):
    directory = os.path.join(ROOT, side)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, f"run-{index:02d}.jsonl"), "w") as out:
        meta = {"type": "meta", "app": "com.example.Notes", "build": side, "seed": str(seed)}
        out.write(json.dumps(meta, separators=(",", ":")) + "\n")
        for event in events:
            out.write(json.dumps(event, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    for index in range(1, 9):
        write("baseline", index, run(random.Random(index), 1.0, False), index)
        write("candidate", index, run(random.Random(100 + index), 1.25, index % 3 == 0), 100 + index)
