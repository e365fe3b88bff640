import LifetraceFormat

/// A timeline file format: receives tracks and records in the order the replay produces them
/// and writes them out as they come.
///
/// Records of one track come in time order for begins and ends; complete slices and instants of
/// the analysis (stalls, launch windows, violations) may come after later records of other tracks,
/// when the analysis has found them. Both formats that conform sort by time when they load.
public protocol TimelineRecordWriter {
    /// Writes what comes before any track (the file's header); `metadata` is the trace's.
    mutating func start(metadata: TraceMetadata) throws(ExportError)
    /// Declares a track; it comes before any record on it.
    mutating func declare(_ track: TimelineTrack) throws(ExportError)
    /// Writes one record; `names` resolves its symbols.
    mutating func write(_ record: TimelineRecord, names: SymbolTable) throws(ExportError)
    /// Writes what ends the file and moves it into place.
    mutating func finish() throws(ExportError)
}
