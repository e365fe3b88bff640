import LifetraceAnalysis

extension TraceRow {
    /// The trace row's `stallSamples` (docs/JSON.md, "Trace row"): per stall that had stack
    /// samples, its start, duration and sample count, and the app's own function most samples
    /// were in, flat enough for a table: `blame` (the line the other reports end a stall's
    /// message with), `function`, `location`, `blameSamples`, each null when no sample had an
    /// app frame.
    ///
    /// On the trace row rather than the lifetime rows: samples are kept beside the events and are
    /// known whole only once the whole trace is read, after the lifetime rows are written.
    public var stallSamplesJSON: JSONValue {
        .array(stallProfiles.map { profile in
            .object([
                JSONMember("ts", .int(profile.start)),
                JSONMember("dur", .int(profile.duration)),
                JSONMember("samples", .int(Int64(profile.sampleCount))),
                JSONMember("blame", .optional(profile.blameLine)),
                JSONMember("function", .optional(profile.blame?.frame.function)),
                JSONMember("location", .optional(profile.blame?.frame.location)),
                JSONMember("leaf", .optional(profile.blameLeaf?.frame.function)),
                JSONMember("blameSamples", .optional(profile.blame.map { Int64($0.samples) })),
            ])
        })
    }
}
