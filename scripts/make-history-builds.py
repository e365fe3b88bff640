#!/usr/bin/env python3
"""Writes the runs of a series of builds of one app for the history demo and tests: OUT/build-NN/
run-MM.jsonl, each run a cold launch as in Samples/launches (scripts/make-launch-samples.py, the
same generator), with didFinishLaunching slower by SLOWDOWN from build REGRESSION on (0: none).
Deterministic: each build and run has its own seed, so rerunning gives the same files.

    scripts/make-history-builds.py OUT --builds 12 --runs 8 --regression 8 --slowdown 1.3
"""
import argparse
import importlib.util
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("launch_samples", os.path.join(HERE, "make-launch-samples.py"))
launch_samples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(launch_samples)

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--builds", type=int, default=12)
parser.add_argument("--runs", type=int, default=8)
parser.add_argument("--regression", type=int, default=0, help="the first slower build (from 1), 0 for none")
parser.add_argument("--slowdown", type=float, default=1.3)
arguments = parser.parse_args()

for build in range(1, arguments.builds + 1):
    directory = os.path.join(arguments.out, f"build-{build:02d}")
    os.makedirs(directory, exist_ok=True)
    slowdown = arguments.slowdown if arguments.regression and build >= arguments.regression else 1.0
    for index in range(1, arguments.runs + 1):
        seed = build * 1000 + index
        events = launch_samples.run(random.Random(seed), slowdown, False)
        meta = {"type": "meta", "app": "com.example.Notes", "appVersion": f"1.{build} ({100 + build})",
                "os": "iOS 17.5", "device": "iPhone15,2", "seed": str(seed)}
        with open(os.path.join(directory, f"run-{index:02d}.jsonl"), "w") as out:
            out.write(json.dumps(meta, separators=(",", ":")) + "\n")
            for event in events:
                out.write(json.dumps(event, separators=(",", ":")) + "\n")
