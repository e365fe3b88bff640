#!/usr/bin/env python3
"""Decodes a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes screenshots) with the
standard library only, and prints JSON: width, height, the number of distinct colours, the share
of pixels that are not white, and for each colour given as #rrggbb on the command line how many
pixels match it within a small tolerance. Used by the browser test of the HTML report."""
import json
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG file")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    width, height, channels, rows = decode(path)
    targets = [tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in wanted]
    counts = [0] * len(targets)
    colours, coloured = set(), 0
    for row in rows:
        for x in range(0, len(row), channels):
            pixel = (row[x], row[x + 1], row[x + 2])
            colours.add(pixel)
            if pixel != (255, 255, 255):
                coloured += 1
            for index, target in enumerate(targets):
                if all(abs(pixel[k] - target[k]) <= 6 for k in range(3)):
                    counts[index] += 1
    print(json.dumps({
        "width": width, "height": height, "distinct": len(colours),
        "nonWhite": coloured / float(width * height),
        "counts": dict(zip(wanted, counts)),
    }))


main()
