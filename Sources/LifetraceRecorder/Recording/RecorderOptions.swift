import LifetraceFormat

/// How a standalone recorder writes its trace; ignored under `lifetrace record`, whose supervisor
/// writes the trace.
public struct RecorderOptions: Sendable {
    /// Where the events go.
    public var output: RecorderOutput
    /// The longest time an event waits in memory before it is written (at most what a killed
    /// process loses).
    public var flushInterval: Duration
    /// The size of the rings (per thread) and of the name table.
    public var layout: RegionLayout
    /// The trace's metadata.
    public var metadata: TraceMetadata
    /// How a file output stores its chunks, and how leftovers of killed runs are read back when
    /// they are recovered at start. Nil (the default): zstd frames of raw blocks, written and
    /// read without libzstd (``RawBlockCodec``), which is what an app on a device without libzstd
    /// does. A process that links `LifetraceZstd` may give `ZstdCodec()` to compress.
    /// `lifetrace import` and `lifetrace recover` recompress a raw-block trace.
    public var codec: (any TraceCodec)?
    /// The launch facts to write (prewarm, background launch, declared background modes); nil
    /// (the default) reads what the platform reports (``LaunchFacts/current(environment:)``). The
    /// Linux app host passes its launch options here.
    public var launchFacts: LaunchFacts?
    /// When the main thread's stack is sampled (docs/RECORDING.md, "Stack samples"): by default
    /// after 50 ms busy, every 10 ms; nil turns sampling off. The environment variable
    /// ``StallSampling/environmentKey`` overrides it (`off`, or a threshold in milliseconds).
    /// Applies under `lifetrace record` too: the app samples itself.
    public var stallSampling: StallSampling? = StallSampling()

    /// Options; by default the trace goes to `lifetrace-PID.ltrace` in the working directory.
    public init(
        output: RecorderOutput = .file("lifetrace-\(ProcessIdentity.current).ltrace"),
        flushInterval: Duration = .milliseconds(100),
        layout: RegionLayout = RegionLayout(),
        metadata: TraceMetadata = TraceMetadata([("recorder", "LifetraceRecorder")])
    ) {
        self.output = output
        self.flushInterval = flushInterval
        self.layout = layout
        self.metadata = metadata
    }
}

/// The destination of a standalone recorder's events.
public enum RecorderOutput: Sendable {
    /// A binary trace file at this path.
    case file(String)
    /// Any sink, for example a writer the app configured itself.
    case sink(any TraceEventSink & Sendable)
}

/// The current process id, for default file names.
public enum ProcessIdentity {
    /// The process id of the calling process.
    public static var current: Int32 { getpid() }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecorderOutput {
    /// The sink this output writes to.
    func makeSink(metadata: TraceMetadata, codec: any TraceCodec) throws(RecorderError) -> any TraceEventSink {
        switch self {
        case .sink(let sink):
            return sink
        case .file(let path):
            do {
                return try TraceWriter(path: path, metadata: metadata, codec: codec)
            } catch {
                throw RecorderError(.writeFailed, path: path, errno: 0, detail: error.description)
            }
        }
    }
}
