#!/usr/bin/env python3
"""Reads the stack samples of a Perfetto trace with the official protos (PyPI package
`perfetto`) and prints them as JSON, one entry per `PerfSample` in file order:
{"ts", "pid", "tid", "frames": [function names, the outermost first]}, resolving every
callstack, frame, mapping and function name through the `interned_data` of the sample's own sequence
as Perfetto's importer does (an id is only valid after an interned_data entry on that
sequence, and a packet that clears the incremental state forgets them). Also lists the thread
tracks as [pid, tid] pairs. Used by the export tests as an independent reader.

Exit status: 0 read, 1 an id that does not resolve, 3 the `perfetto` package is missing.
"""
import json
import sys

try:
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace
except ImportError as error:
    print(f"perfetto package missing: {error}", file=sys.stderr)
    sys.exit(3)

SEQ_INCREMENTAL_STATE_CLEARED = 1


def main(path):
    trace = Trace()
    with open(path, "rb") as file:
        trace.ParseFromString(file.read())
    state = {}
    samples, threads = [], []
    for packet in trace.packet:
        if packet.HasField("track_descriptor") and packet.track_descriptor.HasField("thread"):
            thread = packet.track_descriptor.thread
            threads.append([thread.pid, thread.tid])
        sequence = packet.trusted_packet_sequence_id
        if packet.sequence_flags & SEQ_INCREMENTAL_STATE_CLEARED:
            state[sequence] = {"functions": {}, "frames": {}, "callstacks": {}, "mappings": {}}
        if packet.HasField("interned_data"):
            if sequence not in state:
                print(f"interned data on sequence {sequence} before its state was cleared", file=sys.stderr)
                return 1
            interned, known = packet.interned_data, state[sequence]
            for entry in interned.function_names:
                known["functions"][entry.iid] = entry.str.decode("utf-8")
            for entry in interned.mappings:
                known["mappings"][entry.iid] = entry
            for entry in interned.frames:
                known["frames"][entry.iid] = (entry.function_name_id, entry.mapping_id)
            for entry in interned.callstacks:
                known["callstacks"][entry.iid] = list(entry.frame_ids)
        if packet.HasField("perf_sample"):
            sample, known = packet.perf_sample, state.get(sequence)
            try:
                frames = []
                for frame in known["callstacks"][sample.callstack_iid]:
                    function, mapping = known["frames"][frame]
                    # Perfetto's importer drops a frame whose mapping it does not know.
                    known["mappings"][mapping]
                    frames.append(known["functions"][function])
            except (KeyError, TypeError) as error:
                print(f"sample at {packet.timestamp}: unknown interned id {error}", file=sys.stderr)
                return 1
            samples.append({"ts": packet.timestamp, "pid": sample.pid, "tid": sample.tid, "frames": frames})
    print(json.dumps({"threads": threads, "samples": samples}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
