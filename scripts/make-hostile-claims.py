#!/usr/bin/env python3
"""Writes the small traces that claim a lot (docs/PERFORMANCE.md, "What a small input can claim").

Each is written as JSONL to standard output; `lifetrace import` turns it into a binary trace of a
few kilobytes, since zstd compresses a million near-identical events to almost nothing:

    scripts/make-hostile-claims.py launches 1000000 | lifetrace import - -o launches.ltrace

kinds:
  launches N   N `launch` events: N lifetimes
  stalls N     one lifetime with N main-thread stalls (300 ms run-loop wakes)
  threads N    one lifetime with an open signpost on each of N threads
  scenes N     one lifetime with N scenes, each moved to inactive by a `state` event
  dropped N    one lifetime with N `dropped` events of 2^62 lost events each
"""

import sys


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kind, count = sys.argv[1], int(sys.argv[2])
    out = sys.stdout
    write = out.write
    if kind == "launches":
        for index in range(count):
            write('{"ts":%d,"type":"launch"}\n' % (1000 + index * 1000))
        return
    write('{"ts":1000,"type":"launch"}\n')
    time = 2000
    if kind == "stalls":
        for _ in range(count):
            write('{"ts":%d,"type":"runloop.wake"}\n' % time)
            write('{"ts":%d,"type":"runloop.sleep"}\n' % (time + 300_000_000))
            time += 300_001_000
    elif kind == "threads":
        for index in range(count):
            write('{"ts":%d,"type":"signpost.begin","name":"s","thread":%d}\n' % (time + index, index + 1))
    elif kind == "scenes":
        for index in range(count):
            write('{"ts":%d,"type":"state","to":"inactive","scene":"s%d"}\n' % (time + index, index))
    elif kind == "dropped":
        for index in range(count):
            write('{"ts":%d,"type":"dropped","count":%d}\n' % (time + index, 1 << 62))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
