import LifetraceFormat
import LifetraceZstd

/// Binary traces whose stack samples are built to make a reader's or the stall pass's memory or
/// time grow with what a small file claims (docs/RELIABILITY.md): each holds one launch whose
/// main thread stays busy 2 s (a `launch-stall`), and the samples inside that stall.
public enum HostileStackTraces {
    /// The stall's start and end (ns); every sample lies between them.
    public static let busy: ClosedRange<Int64> = 2_000_000...2_002_000_000

    /// `stacks` samples, each of its own stack of `depth` frames that no other stack shares (not
    /// even the outermost), so that every frame is a node of its own; addresses in no image.
    /// 4,000 stacks of 1,024 frames compress to about 17 KB.
    public static func distinctFrames(path: String, stacks: Int = 4000, depth: Int = 1024) throws {
        try write(path: path) { writer in
            for stack in 0..<stacks {
                let first = 0x5555_0000_0000 + UInt64(stack * depth) * 16
                let frames = (0..<depth).map { first + UInt64($0) * 16 }
                try writer.appendSample(timestamp: sampleTime(stack, of: stacks), thread: .main, frames: frames)
            }
        }
    }

    /// `stacks` samples of two frames, each of a distinct innermost frame (the outermost in one
    /// image, the innermost in none): a node and a sample per stack.
    public static func distinctStacks(path: String, stacks: Int) throws {
        try write(path: path) { writer in
            try writer.appendImage(LoadedImage(timestamp: busy.lowerBound, path: "/app/Hostile", buildID: "", base: 0x4000_0000, size: 0x1000))
            for stack in 0..<stacks {
                let frames: [UInt64] = [0x4000_0010, 0x7F00_0000_0000 + UInt64(stack) * 4]
                try writer.appendSample(timestamp: sampleTime(stack, of: stacks), thread: .main, frames: frames)
            }
        }
    }

    /// `samples` samples of `stacks` distinct stacks of `depth` frames taken in turn, the frames
    /// in one image: a table of `stacks * depth` frames that every sample refers to.
    public static func repeatedDeepStacks(path: String, stacks: Int = 64, depth: Int = 1024, samples: Int = 1 << 15) throws {
        try write(path: path) { writer in
            try writer.appendImage(LoadedImage(timestamp: busy.lowerBound, path: "/app/Hostile", buildID: "", base: 0x4000_0000, size: 1 << 30))
            let frames = (0..<stacks).map { stack in (0..<depth).map { 0x4000_0000 + UInt64(stack * depth + $0) * 16 } }
            for sample in 0..<samples {
                try writer.appendSample(timestamp: sampleTime(sample, of: samples), thread: .main, frames: frames[sample % stacks])
            }
        }
    }

    static func sampleTime(_ index: Int, of count: Int) -> Int64 {
        busy.lowerBound + 1_000 + Int64(Double(index) / Double(max(count, 1)) * 1_999_000_000)
    }

    /// A launch, a run-loop wake and `didFinishLaunching` open over ``busy``, what `samples`
    /// writes, then the callback's end and the run loop's sleep.
    static func write(path: String, samples: (TraceWriter) throws -> Void) throws {
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        let writer = try TraceWriter(path: path, metadata: TraceMetadata(), options: .init(chunkSize: 1 << 20))
        try writer.append(TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1)), symbols: symbols)
        try writer.append(TraceEvent(timestamp: 1_000_000, payload: .runloopWake), symbols: symbols)
        try writer.append(TraceEvent(timestamp: busy.lowerBound, payload: .callbackBegin(name: name, scene: .none)), symbols: symbols)
        try samples(writer)
        try writer.append(TraceEvent(timestamp: busy.upperBound, payload: .callbackEnd(name: name, scene: .none)), symbols: symbols)
        try writer.append(TraceEvent(timestamp: busy.upperBound + 1_000, payload: .runloopSleep), symbols: symbols)
        try writer.close()
    }
}
