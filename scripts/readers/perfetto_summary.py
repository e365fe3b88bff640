#!/usr/bin/env python3
"""Reads a Perfetto trace with the official protos (PyPI package `perfetto`) and prints, as
JSON, what it holds: tracks, slice and instant counts, event names, categories and the
violation instants with their annotations; with --slices, the names of the slices begun on
each track, in order; with --intervals, every slice as [track, category, name, start, end] (ns),
its begin and end paired on its track. With --stream it reads packet by packet in constant memory (for exports of
millions of events) and prints only the counts and the problems. Used by the export tests as an independent reader.

Exit status: 0 read, 1 the file is not a valid trace (unknown interned id, unbalanced slices),
3 the `perfetto` package is missing.
"""
import collections
import json
import sys

try:
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace, TrackEvent
except ImportError as error:
    print(f"perfetto package missing: {error}", file=sys.stderr)
    sys.exit(3)


def main(path, with_slices, with_intervals=False):
    trace = Trace()
    with open(path, "rb") as file:
        trace.ParseFromString(file.read())
    tracks = {}
    parents = {}
    names, categories, annotation_names = {}, {}, {}
    counts = collections.Counter()
    by_name = collections.Counter()
    by_category = collections.Counter()
    depth = collections.Counter()
    violations = []
    slices = collections.defaultdict(list)
    open_slices = collections.defaultdict(list)
    intervals = []
    sequences = set()
    problems = []
    for packet in trace.packet:
        sequences.add(packet.trusted_packet_sequence_id)
        if packet.HasField("interned_data"):
            for entry in packet.interned_data.event_names:
                names[entry.iid] = entry.name
            for entry in packet.interned_data.event_categories:
                categories[entry.iid] = entry.name
            for entry in packet.interned_data.debug_annotation_names:
                annotation_names[entry.iid] = entry.name
        if packet.HasField("track_descriptor"):
            descriptor = packet.track_descriptor
            kind = "process" if descriptor.HasField("process") else "thread" if descriptor.HasField("thread") else "lane"
            tracks[descriptor.uuid] = {"name": descriptor.name, "kind": kind}
            if descriptor.HasField("parent_uuid"):
                parents[descriptor.uuid] = descriptor.parent_uuid
            continue
        if not packet.HasField("track_event"):
            continue
        event = packet.track_event
        if event.track_uuid not in tracks:
            problems.append(f"event on undeclared track {event.track_uuid}")
        type_name = TrackEvent.Type.Name(event.type)
        counts[type_name] += 1
        if event.type == TrackEvent.TYPE_SLICE_END:
            depth[event.track_uuid] -= 1
            if depth[event.track_uuid] < 0:
                problems.append(f"slice end without begin on track {tracks.get(event.track_uuid)}")
            elif open_slices[event.track_uuid]:
                track_name, category, name, start = open_slices[event.track_uuid].pop()
                intervals.append([track_name, category, name, start, packet.timestamp])
            continue
        if event.type == TrackEvent.TYPE_SLICE_BEGIN:
            depth[event.track_uuid] += 1
        if event.name_iid not in names:
            problems.append(f"unknown name iid {event.name_iid}")
            continue
        name = names[event.name_iid]
        category = ",".join(categories.get(iid, "?") for iid in event.category_iids)
        if event.type == TrackEvent.TYPE_SLICE_BEGIN and event.track_uuid in tracks:
            slices[tracks[event.track_uuid]["name"]].append(name)
            open_slices[event.track_uuid].append((tracks[event.track_uuid]["name"], category, name, packet.timestamp))
        by_name[f"{type_name} {category} {name}"] += 1
        by_category[f"{type_name} {category}"] += 1
        if category == "violation":
            annotations = {}
            for annotation in event.debug_annotations:
                key = annotation_names.get(annotation.name_iid, "?")
                annotations[key] = annotation.string_value if annotation.HasField("string_value") else str(annotation.int_value)
            violations.append({"name": name, "ts": packet.timestamp, "annotations": annotations})
    for uuid, open_slices in depth.items():
        if open_slices != 0:
            problems.append(f"{open_slices} slices left open on track {tracks.get(uuid)}")
    for uuid, parent in parents.items():
        if parent not in tracks:
            problems.append(f"track {uuid} has undeclared parent {parent}")
    summary = {
        "packets": len(trace.packet),
        "sequences": sorted(sequences),
        "tracks": [track["kind"] + " " + track["name"] for track in tracks.values()],
        "types": dict(counts),
        "byCategory": dict(by_category),
        "byName": dict(by_name),
        "violations": violations,
        "problems": problems,
    }
    if with_slices:
        summary["slices"] = slices
    if with_intervals:
        summary["intervals"] = intervals
    json.dump(summary, sys.stdout, indent=1, sort_keys=True)
    print()
    return 1 if problems else 0


def read_varint(data, position):
    shift = value = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, position


def stream(path):
    """Counts packets one by one: each is field 1 (tag 0x0A) of Trace, length-prefixed."""
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import TracePacket
    import mmap
    counts = collections.Counter()
    names = set()
    depth = collections.Counter()
    problems = collections.Counter()
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        position = 0
        while position < len(data):
            tag, position = read_varint(data, position)
            if tag != 0x0A:
                problems[f"unexpected tag {tag}"] += 1
                break
            length, position = read_varint(data, position)
            packet = TracePacket.FromString(data[position:position + length])
            position += length
            for entry in packet.interned_data.event_names:
                names.add(entry.iid)
            if packet.HasField("track_descriptor"):
                counts["TRACK_DESCRIPTOR"] += 1
                continue
            event = packet.track_event
            counts[TrackEvent.Type.Name(event.type)] += 1
            if event.type == TrackEvent.TYPE_SLICE_BEGIN:
                depth[event.track_uuid] += 1
            elif event.type == TrackEvent.TYPE_SLICE_END:
                depth[event.track_uuid] -= 1
                if depth[event.track_uuid] < 0:
                    problems["slice end without begin"] += 1
            if event.type != TrackEvent.TYPE_SLICE_END and event.name_iid not in names:
                problems["unknown name iid"] += 1
    problems["tracks left with open slices"] = sum(1 for value in depth.values() if value)
    problems = {key: value for key, value in problems.items() if value}
    json.dump({"types": dict(counts), "problems": problems}, sys.stdout, sort_keys=True)
    print()
    return 1 if problems else 0


if __name__ == "__main__":
    if "--stream" in sys.argv[2:]:
        sys.exit(stream(sys.argv[1]))
    sys.exit(main(sys.argv[1], "--slices" in sys.argv[2:], "--intervals" in sys.argv[2:]))
